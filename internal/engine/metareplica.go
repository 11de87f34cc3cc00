package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/zk"
)

// Lookups on hbase:meta's replicas (Java's hbase.locator.meta.replicas.mode=LoadBalance): a
// cluster with hbase:meta replicas (hbase.meta.replica.count) can spread the client's region
// lookups over them, so that a busy hbase:meta server is not every client's bottleneck. A
// replica may lag behind the primary (hbase.region.replica.replication.catalog.enabled makes it
// follow closely): a location it gives that turns out wrong fails the call, whose region is
// then looked up again on the primary (establishRegion marks its lookups primaryMetaKey), as
// Java's CatalogReplicaLoadBalanceSimpleSelector sends the lookups of a stale location to the
// primary.

// primaryMetaKey marks a context whose lookups must read hbase:meta's primary.
type primaryMetaKey struct{}

// metaReplicaLocator is a registry that lists hbase:meta's secondary replicas in one answer:
// servers[i] holds replica i+1, "" when it has no server now (bootstrapRegistry;
// zkMetaReplicas for ZooKeeper's).
type metaReplicaLocator interface {
	LocateMetaReplicas(ctx context.Context) ([]string, error)
}

const (
	// metaReplicaRefresh is how long the replicas' locations are trusted.
	metaReplicaRefresh = 30 * time.Second
	// maxMetaReplicas bounds the replicas read.
	maxMetaReplicas = 16
)

// metaReplica is a secondary replica of hbase:meta: its replica id and server.
type metaReplica struct {
	id   int
	addr string
}

// metaReplicas is what the client knows of hbase:meta's secondary replicas.
type metaReplicas struct {
	loc     metaReplicaLocator
	mu      sync.Mutex
	reps    []metaReplica // those with a server
	fetched time.Time
	turn    uint64
	reading bool // a read of the locations is under way
}

// metaReplica returns the hbase:meta replica the next lookup should read and its connection,
// or a nil connection for the primary (its turn, or no replica known or reachable).
func (c *Client) metaReplica(ctx context.Context) ([]byte, *region.Client) {
	return c.pickMetaReplica(ctx, true)
}

// lookupOnMetaReplica reads the region of table holding row from a secondary replica of
// hbase:meta (the next in turn), never from the primary: for the re-reads of a region's
// replicas (readReplicas).
func (c *Client) lookupOnMetaReplica(ctx context.Context, table, row []byte) (*regionInfo, error) {
	name, conn := c.pickMetaReplica(ctx, false)
	if conn == nil {
		return nil, errNoMetaReplicas
	}
	r, err := c.lookupOn(ctx, conn, name, table, row, false)
	if err != nil {
		c.metaReps.failed()
		return nil, err
	}
	c.metaReplicaRPCs.Add(1)
	return r, nil
}

// pickMetaReplica returns the replica of hbase:meta whose turn it is and its connection: in
// turn with the primary when withPrimary is set (a nil connection then stands for the
// primary), else among the secondary replicas alone (a nil connection: none known or
// reachable).
func (c *Client) pickMetaReplica(ctx context.Context, withPrimary bool) ([]byte, *region.Client) {
	m := c.metaReps
	m.mu.Lock()
	if time.Since(m.fetched) > metaReplicaRefresh && !m.reading {
		m.reading = true
		if !c.spawn(func() { c.readMetaReplicas() }) {
			m.reading = false
		}
	}
	n := len(m.reps)
	m.turn++
	var rep metaReplica
	if k := int(m.turn % uint64(n+1)); withPrimary && k > 0 {
		rep = m.reps[k-1]
	} else if !withPrimary && n > 0 {
		rep = m.reps[int(m.turn%uint64(n))]
	}
	m.mu.Unlock()
	if rep.addr == "" {
		return nil, nil
	}
	conn, err := c.conn(ctx, rep.addr)
	if err != nil {
		return nil, nil
	}
	name, _ := replicaRegionName(metaRegionName, rep.id) // "hbase:meta,,1_000N": cannot fail for 1 <= id <= 16
	return name, conn
}

// readMetaReplicas asks the registry where the secondary replicas are. After a failure it keeps
// what it knew (a replica that moved fails its lookups over to the primary) and asks again a
// second later.
func (c *Client) readMetaReplicas() {
	m := c.metaReps
	ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
	defer cancel()
	servers, err := m.loc.LocateMetaReplicas(ctx)
	var reps []metaReplica
	for i, addr := range servers {
		if addr != "" && i < maxMetaReplicas {
			reps = append(reps, metaReplica{id: i + 1, addr: addr})
		}
	}
	m.mu.Lock()
	m.fetched, m.reading = time.Now(), false
	if err != nil {
		m.fetched = m.fetched.Add(time.Second - metaReplicaRefresh)
	} else {
		m.reps = reps
	}
	m.mu.Unlock()
	if err != nil {
		c.Log.Debug("hbase: locating hbase:meta's replicas failed", "err", err)
		return
	}
	c.Log.Debug("hbase: hbase:meta replicas", "replicas", len(reps), "servers", servers)
}

// zkMetaReplicas reads hbase:meta's secondary replicas from ZooKeeper's meta-region-server-N
// znodes, 1 and up until one is missing.
type zkMetaReplicas struct{ zc *zk.Client }

func (z zkMetaReplicas) LocateMetaReplicas(ctx context.Context) ([]string, error) {
	var servers []string
	for id := 1; id <= maxMetaReplicas; id++ {
		addr, err := z.zc.LocateMetaReplica(ctx, id)
		if errors.Is(err, zk.ErrNoNode) {
			break
		}
		if err != nil {
			return nil, err
		}
		servers = append(servers, addr)
	}
	return servers, nil
}

// failed notes a lookup that failed on a replica (moved, closed, or behind the primary): the
// locations are read again, at most a second after they were last read.
func (m *metaReplicas) failed() {
	m.mu.Lock()
	if soon := time.Now().Add(time.Second - metaReplicaRefresh); m.fetched.After(soon) {
		m.fetched = soon
	}
	m.mu.Unlock()
}

// newMetaReplicas returns the replica state of a client with WithMetaReplicaLookups, or nil.
func newMetaReplicas(on bool, reg registry) (*metaReplicas, error) {
	if !on {
		return nil, nil
	}
	var loc metaReplicaLocator
	switch r := reg.(type) {
	case metaReplicaLocator:
		loc = r
	case *zk.Client:
		loc = zkMetaReplicas{r}
	default:
		return nil, fmt.Errorf("hbase: WithMetaReplicaLookups needs ZooKeeper or bootstrap servers: %w", errNoMetaReplicas)
	}
	return &metaReplicas{loc: loc}, nil
}

var errNoMetaReplicas = errors.New("this registry does not list hbase:meta's replicas")
