package hbase

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-hbase/hbase/region"
)

// Lookups on hbase:meta's replicas (Java's hbase.locator.meta.replicas.mode=LoadBalance): a
// cluster with hbase:meta replicas (hbase.meta.replica.count) can spread the client's region
// lookups over them, so that a busy hbase:meta server is not every client's bottleneck. A
// replica may lag behind the primary (hbase.region.replica.replication.catalog.enabled makes it
// follow closely): a location it gives that turns out wrong fails the call, whose region is
// then looked up again on the primary (establishRegion marks its lookups primaryMetaKey), as
// Java's CatalogReplicaLoadBalanceSimpleSelector sends the lookups of a stale location to the
// primary.

// WithMetaReplicaLookups spreads region lookups over hbase:meta's primary and its secondary
// replicas, round robin, when the cluster has some (their locations come from ZooKeeper's
// meta-region-server-N znodes, read again every 30 s or after a failure). A lookup that fails
// on a replica is sent to the primary at once; the lookups that follow a failed call (its
// region moved, split or closed) go to the primary, which a replica may lag behind. Off by
// default, as in Java. It needs the ZooKeeper registry: with WithBootstrapServers it is an
// error.
func WithMetaReplicaLookups() Option {
	return func(o *options) error {
		o.metaReplicaLookups = true
		return nil
	}
}

// primaryMetaKey marks a context whose lookups must read hbase:meta's primary.
type primaryMetaKey struct{}

// metaReplicaLocator is a registry that knows hbase:meta's secondary replicas (zk.Client).
type metaReplicaLocator interface {
	LocateMetaReplica(ctx context.Context, id int) (string, error)
}

const (
	// metaReplicaRefresh is how long the replicas' locations are trusted.
	metaReplicaRefresh = 30 * time.Second
	// maxMetaReplicas bounds the replica znodes read.
	maxMetaReplicas = 16
)

// metaReplicas is what the client knows of hbase:meta's secondary replicas.
type metaReplicas struct {
	loc     metaReplicaLocator
	mu      sync.Mutex
	addrs   []string // replica i+1's server
	fetched time.Time
	turn    uint64
	reading bool // a read of the znodes is under way
}

// metaReplica returns the hbase:meta replica the next lookup should read and its connection,
// or a nil connection for the primary (its turn, or no replica known or reachable).
func (c *Client) metaReplica(ctx context.Context) ([]byte, *region.Client) {
	m := c.metaReps
	m.mu.Lock()
	if time.Since(m.fetched) > metaReplicaRefresh && !m.reading {
		m.reading = true
		if !c.spawn(func() { c.readMetaReplicas() }) {
			m.reading = false
		}
	}
	n := len(m.addrs)
	m.turn++
	k := int(m.turn % uint64(n+1))
	var addr string
	if k > 0 {
		addr = m.addrs[k-1]
	}
	m.mu.Unlock()
	if addr == "" {
		return nil, nil
	}
	conn, err := c.conn(ctx, addr)
	if err != nil {
		return nil, nil
	}
	name, _ := replicaRegionName(metaRegionName, k) // "hbase:meta,,1_000N": cannot fail for 1 <= k <= 16
	return name, conn
}

// readMetaReplicas reads the secondary replicas' znodes, 1 and up until one is missing.
func (c *Client) readMetaReplicas() {
	m := c.metaReps
	ctx, cancel := context.WithTimeout(c.lifetime, c.opts.lookupTimeout)
	defer cancel()
	var addrs []string
	for id := 1; id <= maxMetaReplicas; id++ {
		addr, err := m.loc.LocateMetaReplica(ctx, id)
		if err != nil {
			break
		}
		addrs = append(addrs, addr)
	}
	m.mu.Lock()
	m.addrs, m.fetched, m.reading = addrs, time.Now(), false
	m.mu.Unlock()
	c.log.Debug("hbase: hbase:meta replicas", "servers", addrs)
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
	loc, ok := reg.(metaReplicaLocator)
	if !ok {
		return nil, fmt.Errorf("hbase: WithMetaReplicaLookups needs the ZooKeeper registry: %w", errNoMetaReplicas)
	}
	return &metaReplicas{loc: loc}, nil
}

var errNoMetaReplicas = errors.New("this registry does not list hbase:meta's replicas")
