package engine

import (
	"bytes"
	"context"
	"errors"

	"github.com/go-hbase/hbase/hberr"
)

// Secondary replicas that are not where the client cached them. The client reads the
// secondaries' locations with their primary's (a lookup, a relocation), so a balance, a
// restart or a kill that moves the secondaries alone leaves them wrong until the primary is
// looked up again, which a partitioned primary's server may never cause: the hedges of its
// Timeline reads would go to the old servers and fail within milliseconds, and each read
// would then wait for the primary until its deadline. So a secondary's leg follows the
// replica where it went, within its attempts (replicaAttempts):
//   - a server answering RegionMovedException names where the replica went: it is asked
//     there at once, and the region's entries are told (replicaMoved);
//   - a server answering NotServingRegionException (a restarted server knows nothing of
//     what it held), or unreachable, names nothing: hbase:meta is read again (one re-read
//     per region at a time, refreshReplicas), the leg waiting for it within its context,
//     and the replica is asked where hbase:meta says it is, if that changed. With
//     WithMetaReplicaLookups a replica of hbase:meta is read first (readReplicas), as
//     hbase:meta's server may be the one cut off.

// replicaDialError is the failure to connect to a secondary's server: the replica may have
// left a server that went away.
type replicaDialError struct{ err error }

func (e replicaDialError) Error() string { return e.err.Error() }
func (e replicaDialError) Unwrap() error { return e.err }

// nextReplica returns where a secondary's leg asks next after replica rep of the region
// primary failed with err, or nil: the leg gives up. A busy or opening replica is asked again
// after a pause; one that moved, where it went (the package comment).
func (c *Client) nextReplica(ctx context.Context, primary, rep *regionInfo, err error, b *Backoff) *regionInfo {
	_, unreached := errors.AsType[replicaDialError](err)
	act := Classify(err)
	switch {
	case unreached && (errors.Is(err, hberr.ErrClosed) || ctx.Err() != nil):
		return nil
	case act == Pause || opening(err):
		if b.Sleep(ctx) != nil {
			return nil
		}
		return rep
	case !unreached && act != Relocate && act != PauseAndRelocate:
		return nil
	}
	if re, ok := errors.AsType[*hberr.RemoteError](err); ok {
		if to := re.MovedTo(); to != "" && to != rep.addr {
			moved := rep.movedTo(to)
			c.replicaMoved(primary, rep, moved)
			return moved
		}
	}
	select {
	case <-c.refreshReplicas(primary):
	case <-ctx.Done():
		return nil
	}
	if now := primary.replicaByID(rep.replicaID); now != nil && now.addr != rep.addr {
		return now
	}
	return nil
}

// replicaRefresh is one re-read of a region's replicas from hbase:meta; done is closed when
// it ended.
type replicaRefresh struct{ done chan struct{} }

// refreshReplicas reads the replicas of primary from hbase:meta again in the background,
// once at a time per region, and returns a channel closed when that read ended.
func (c *Client) refreshReplicas(primary *regionInfo) <-chan struct{} {
	key := string(primary.name)
	f := &replicaRefresh{done: make(chan struct{})}
	if v, busy := c.hedge.refreshing.LoadOrStore(key, f); busy {
		return v.(*replicaRefresh).done
	}
	end := func() {
		c.hedge.refreshing.Delete(key)
		close(f.done)
	}
	if !c.spawn(func() {
		defer end()
		c.readReplicas(primary)
	}) {
		end()
	}
	return f.done
}

// readReplicas reads where the replicas of primary are from hbase:meta and keeps them, in
// primary and in the cache's current entry of the region (keepReplicas). It reads
// hbase:meta's primary, which a replica of it may lag; but with WithMetaReplicaLookups it
// reads a replica first, for half the lookup timeout: hbase:meta's server may be in trouble
// with the primary's (cut off with it), and an answer that changes no location known sends the
// read on to the primary.
func (c *Client) readReplicas(primary *regionInfo) {
	ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
	defer cancel()
	if c.metaReps != nil {
		rctx, rcancel := context.WithTimeout(ctx, c.opts.LookupTimeout/2)
		nr, err := c.lookupOnMetaReplica(rctx, primary.table, primary.start)
		rcancel()
		if err == nil && bytes.Equal(nr.name, primary.name) && !sameReplicas(nr.replicas, primary.secondaryReplicas()) {
			c.keepReplicas(primary, nr.replicas)
			return
		}
	}
	nr, err := c.locateInMeta(context.WithValue(ctx, primaryMetaKey{}, true), primary.table, primary.start, false)
	if err != nil || !bytes.Equal(nr.name, primary.name) {
		return // the region itself changed: its next failure re-looks it up
	}
	c.keepReplicas(primary, nr.replicas)
}
