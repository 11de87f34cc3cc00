package engine

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/go-hbase/hbase/region"
)

// regionInfo is one region of a table as the cache knows it: its key range, its name (sent in
// every RegionSpecifier) and where it is served. The key range and name never change; the
// location and availability do, under mu.
type regionInfo struct {
	table []byte
	start []byte // inclusive; empty for the first region
	end   []byte // exclusive; empty for the last region
	name  []byte // "table,start,id.encoded." as stored in hbase:meta
	id    uint64
	// replicaID is 0 for the primary (every entry of the cache), N for secondary replica N
	// (an entry of a primary's replicas).
	replicaID int

	mu   sync.Mutex
	addr string         // host:port of the region server
	conn *region.Client // nil until connected
	// avail is non-nil while the region is out of service; it is closed by the one goroutine
	// that re-establishes the region, which wakes every caller waiting on it.
	avail chan struct{}
	// gone is set once the region has been replaced in (or removed from) the cache: waiters
	// woken on it must look the key up again.
	gone bool
	// lastErr is why the latest attempt to re-establish the region failed, so that a caller
	// whose context ends while waiting learns what it was waiting for (a KDC down, say).
	lastErr error
	// unreached, when not nil, is closed when an attempt to re-establish the region fails
	// because its server (or, for hbase:meta, the registry) could not be reached: a caller
	// that counts its attempts learns it (findMeta). Made on first use.
	unreached chan struct{}
	// replicas are the region's secondary replicas (replica.go), in replica id order; empty
	// for a table without region replication. Only Timeline reads look at them.
	replicas []*regionInfo
}

func (r *regionInfo) String() string {
	return fmt.Sprintf("region %q [%q, %q) on %s", r.name, r.start, r.end, r.location())
}

func (r *regionInfo) location() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.addr
}

// contains reports whether row falls in the region's key range.
func (r *regionInfo) contains(row []byte) bool {
	return bytes.Compare(r.start, row) <= 0 && (len(r.end) == 0 || bytes.Compare(row, r.end) < 0)
}

// state returns the connection to use, or the channel to wait on while the region is out of
// service (exactly one of the two is non-nil, unless the region was dropped from the cache).
func (r *regionInfo) state() (*region.Client, <-chan struct{}, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conn, r.avail, r.gone
}

// markUnavailable takes the region out of service if conn is still its connection (a stale
// failure report for a connection already replaced is ignored). It returns true when the
// caller became responsible for re-establishing the region.
func (r *regionInfo) markUnavailable(conn *region.Client) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.avail != nil || r.gone || (conn != nil && r.conn != conn) {
		return false
	}
	r.avail = make(chan struct{})
	r.conn = nil
	return true
}

// setAvailable puts the region in service on conn and wakes the waiters, if any.
func (r *regionInfo) setAvailable(addr string, conn *region.Client) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addr, r.conn, r.lastErr = addr, conn, nil
	if r.avail != nil {
		close(r.avail)
		r.avail = nil
	}
}

// retire marks the region as no longer in the cache and wakes its waiters so they look their
// key up again.
func (r *regionInfo) retire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gone = true
	r.conn = nil
	if r.avail != nil {
		close(r.avail)
		r.avail = nil
	}
}

// setFailure records why re-establishing the region failed.
func (r *regionInfo) setFailure(err error) {
	r.mu.Lock()
	r.lastErr = err
	r.mu.Unlock()
}

// setUnreached records that an attempt to re-establish the region failed with err because a
// server could not be reached, and wakes the callers waiting for such a failure.
func (r *regionInfo) setUnreached(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastErr = err
	if r.unreached != nil {
		close(r.unreached)
		r.unreached = nil
	}
}

// unreachedChan returns the channel closed by the next setUnreached.
func (r *regionInfo) unreachedChan() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unreached == nil {
		r.unreached = make(chan struct{})
	}
	return r.unreached
}

// failure is why the latest attempt to re-establish the region failed, or nil.
func (r *regionInfo) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastErr
}

// at returns a copy of r (same key range and name) served by addr through conn, to replace r
// in the cache.
func (r *regionInfo) at(addr string, conn *region.Client) *regionInfo {
	return &regionInfo{table: r.table, start: r.start, end: r.end, name: r.name, id: r.id, addr: addr, conn: conn,
		replicas: r.secondaryReplicas()}
}
