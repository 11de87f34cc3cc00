package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// Recovery from failures that concern more than one call: a server that died or is stopping
// takes all of its regions out of service at once, and they are looked up again together
// (one hbase:meta scan per table and round, not one lookup per region); a region the server
// says has moved (RegionMovedException) is cached at its new server without reading
// hbase:meta at all.

const (
	// metaRowsPerRange is how many hbase:meta rows one relocation scan reads per RPC.
	metaRowsPerRange = 500
	// metaRangePages bounds the RPCs of one relocation scan: 10 pages of 500 rows cover the
	// regions of a server in all but huge clusters; regions beyond stay out of service
	// until the next round.
	metaRangePages = 10
	// relocateParallelism bounds the concurrent dials and probes of one relocation round.
	relocateParallelism = 16
)

// regionFailed takes r out of service after a call through conn failed with err (whose action
// is relocate or pauseAndRelocate), choosing the cheapest way back: every region of the server
// at once when the connection broke or the server is stopping, the server a
// RegionMovedException names, or else a lookup of r in hbase:meta.
func (c *Client) regionFailed(r *regionInfo, conn *region.Client, err error) {
	if conn == nil {
		return
	}
	if IsDead(conn) || errors.Is(err, hberr.ErrConnection) || errors.Is(err, region.ErrClosed) ||
		errors.Is(err, hberr.ErrServerStopping) {
		c.serverFailed(conn, err)
		return
	}
	if re, ok := errors.AsType[*hberr.RemoteError](err); ok && r != c.meta {
		if addr := re.MovedTo(); addr != "" && addr != conn.Addr() {
			if r.markUnavailable(conn) {
				if !c.spawn(func() { c.followMove(r, addr) }) {
					r.retire()
				}
			}
			return
		}
	}
	c.markUnavailable(r, conn)
}

// followMove caches r at addr, the server a RegionMovedException named. If that server
// cannot be reached, r is looked up in hbase:meta as after any other failure.
func (c *Client) followMove(r *regionInfo, addr string) {
	ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
	conn, err := c.conn(ctx, addr)
	cancel()
	if err != nil {
		c.Log.Debug("hbase: the server a moved region names is unreachable", "region", string(r.name), "addr", addr, "err", err)
		c.reestablish(r)
		return
	}
	if _, _, gone := r.state(); gone {
		return // replaced meanwhile (a lookup found a newer region): nothing to move
	}
	c.movedHints.Add(1)
	c.cache.insert(r.at(addr, conn))
	c.Log.Debug("hbase: region moved", "region", string(r.name), "addr", addr)
}

// relocateRegions brings back the regions of the server at dead, which the caller took out of
// service because of cause (the server's failure, which the regions' callers are told, with
// the relocation's own failures after it): each round reads their rows from hbase:meta with one scan per table, dials and
// probes the servers named there, and puts back each region found served. Regions that
// hbase:meta no longer holds (split, merged) are dropped, so their callers look their rows up
// again. Rounds repeat, paced by the relocation backoff, while hbase:meta still names a server
// that does not serve them (a crashed server's regions wait for the master to reassign them).
func (c *Client) relocateRegions(dead string, pending []*regionInfo, cause error) {
	b := c.newRelocationBackoff()
	for len(pending) > 0 && c.lifetime.Err() == nil {
		ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
		var err error
		c.relocationRounds.Add(1)
		pending, err = c.relocateRound(ctx, pending)
		cancel()
		if len(pending) == 0 {
			return
		}
		c.Log.Debug("hbase: regions of a failed server still unavailable", "addr", dead,
			"regions", len(pending), "err", err)
		if err != nil {
			keep := pending[:0]
			for _, r := range pending {
				if !c.failFast(r, err) {
					r.setFailure(&relocationError{cause: cause, err: err})
					keep = append(keep, r)
				}
			}
			pending = keep
		}
		if b.Sleep(c.lifetime) != nil {
			break
		}
	}
	for _, r := range pending {
		r.retire()
	}
}

// relocateRound runs one round of relocateRegions and returns the regions still out of
// service, with the first error met.
func (c *Client) relocateRound(ctx context.Context, pending []*regionInfo) ([]*regionInfo, error) {
	byTable := map[string][]*regionInfo{}
	for _, r := range pending {
		byTable[string(r.table)] = append(byTable[string(r.table)], r)
	}
	var (
		mu       sync.Mutex
		still    []*regionInfo
		firstErr error
		wg       sync.WaitGroup
		sem      = make(chan struct{}, relocateParallelism)
	)
	keep := func(r *regionInfo, err error) {
		mu.Lock()
		still = append(still, r)
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for _, regions := range byTable {
		// The range is read in hbase:meta's order, so its ends are the first and last names in
		// that order (by start key, then region id for equal starts: a split's parent and
		// first daughter).
		slices.SortFunc(regions, func(a, b *regionInfo) int { return metarow.Compare(a.name, b.name) })
		rows, complete, err := c.metaRange(ctx, regions[0].name, regions[len(regions)-1].name)
		if err != nil {
			for _, r := range regions {
				keep(r, err)
			}
			continue
		}
		byName := make(map[string]*metaRow, len(rows))
		for i := range rows {
			byName[string(rows[i].name)] = &rows[i]
		}
		for _, r := range regions {
			mr := byName[string(r.name)]
			switch {
			case mr == nil && !complete:
				keep(r, errRegionNotAssigned)
			case mr == nil || mr.info.GetSplit() || mr.info.GetOffline():
				// Split, merged or gone with its table: callers look their rows up again.
				c.cache.remove(r)
			case mr.server == "":
				keep(r, errRegionNotAssigned)
			default:
				if reps, err := secondaries(r, mr.replicas); err == nil {
					r.setReplicas(reps) // r.at, in putBack, hands them on
				}
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer func() { <-sem; wg.Done() }()
					if err := c.putBack(ctx, r, mr.server); err != nil {
						keep(r, err)
					}
				}()
			}
		}
	}
	wg.Wait()
	return still, firstErr
}

// putBack checks that the server at addr serves r and puts r back in service there (or where
// that server says r moved to).
func (c *Client) putBack(ctx context.Context, r *regionInfo, addr string) error {
	conn, err := c.conn(ctx, addr)
	if err != nil {
		return err
	}
	// A server that takes longer than the suspect timeout to answer a probe is not trusted
	// with the region yet; the next round asks again.
	pctx, cancel := context.WithTimeout(ctx, c.opts.SuspectTimeout)
	defer cancel()
	nr, err := c.probeFollowing(pctx, r.at(addr, conn))
	if err != nil {
		return err
	}
	if _, _, gone := r.state(); !gone {
		c.cache.insert(nr)
	}
	return nil
}

// probeFollowing probes nr at its server; when that server answers that the region moved and
// names where (hbase:meta lags behind a move), it probes there instead. It returns the region
// as found served.
func (c *Client) probeFollowing(ctx context.Context, nr *regionInfo) (*regionInfo, error) {
	err := c.probe(ctx, nr, nr.conn)
	if err == nil {
		return nr, nil
	}
	re, ok := errors.AsType[*hberr.RemoteError](err)
	if !ok {
		return nil, err
	}
	to := re.MovedTo()
	if to == "" || to == nr.addr {
		return nil, err
	}
	conn, cerr := c.conn(ctx, to)
	if cerr != nil {
		return nil, err
	}
	moved := nr.at(to, conn)
	if c.probe(ctx, moved, conn) != nil {
		return nil, err
	}
	c.movedHints.Add(1)
	return moved, nil
}

// metaRange reads the hbase:meta rows from region name first to last (one table), in pages.
// complete is false when the pages ran out before last.
func (c *Client) metaRange(ctx context.Context, first, last []byte) (rows []metaRow, complete bool, err error) {
	meta, conn, err := c.findMeta(ctx)
	if err != nil {
		return nil, false, err
	}
	after := false
	for range metaRangePages {
		c.metaRPCs.Add(1)
		req := wire.MetaRangeRequest(meta.name, first, last, after, metaRowsPerRange)
		resp := &pb.ScanResponse{}
		cells, err := conn.CallChecked(ctx, region.HighPriority, "Scan", req, nil, resp, metaCheck{})
		if err != nil {
			if act := Classify(err); act == Relocate || act == PauseAndRelocate {
				c.markUnavailable(meta, conn)
			}
			return nil, false, fmt.Errorf("hbase: scanning hbase:meta on %s: %w", conn.Addr(), err)
		}
		page, err := metaRows(resp, cells)
		if err != nil {
			return nil, false, err
		}
		rows = append(rows, page...)
		n := len(resp.GetCellsPerResult())
		if n == 0 {
			n = len(resp.GetResults())
		}
		if n < metaRowsPerRange || len(page) == 0 {
			return rows, true, nil
		}
		first, after = page[len(page)-1].name, true
	}
	return rows, false, nil
}

// suspect checks, once at a time per connection, that the server behind conn still answers
// after a call on it ended with its caller's context: a probe of r that gets no answer within
// the suspect timeout means a partitioned or hung server (the network dropping packets
// resets nothing, so the connection would otherwise look healthy forever). The connection is
// then closed: its regions are relocated together, and a new connection is dialled when one
// is needed, which succeeds once the network heals. A probe answered in any way (even with an
// exception) clears the suspicion.
func (c *Client) suspect(r *regionInfo, conn *region.Client) {
	if conn == nil || IsDead(conn) {
		return
	}
	if _, busy := c.suspects.LoadOrStore(conn, struct{}{}); busy {
		return
	}
	ok := c.spawn(func() {
		defer c.suspects.Delete(conn)
		ctx, cancel := context.WithTimeout(c.lifetime, c.opts.SuspectTimeout)
		err := c.probe(ctx, r, conn)
		timedOut := ctx.Err() != nil
		cancel()
		if err == nil || !timedOut || c.lifetime.Err() != nil {
			return
		}
		c.suspectDrops.Add(1)
		c.Log.Warn("hbase: region server does not answer: dropping its connection", "addr", conn.Addr(),
			"waited", c.opts.SuspectTimeout)
		c.dropped.Store(conn, fmt.Errorf("no answer from %s in %v", conn.Addr(), c.opts.SuspectTimeout))
		conn.Close()
	})
	if !ok {
		c.suspects.Delete(conn)
	}
}

// relocationError is the failure of a region whose server failed (cause) while the client
// relocates it (err): a call that ends waiting for the region names the server that failed it
// first, then what holds the relocation up (hbase:meta moving, the master reassigning).
type relocationError struct{ cause, err error }

func (e *relocationError) Error() string {
	if e.cause == nil {
		return e.err.Error()
	}
	return e.cause.Error() + "; relocating its regions: " + e.err.Error()
}

func (e *relocationError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.err}
	}
	return []error{e.cause, e.err}
}
