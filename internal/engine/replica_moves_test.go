package engine

import (
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// movedTo is the RegionMovedException of a replica that moved to m's server.
func (m *movableReplica) movedTo(t testing.TB) *pb.ExceptionResponse {
	host, port, err := net.SplitHostPort(m.srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	return fakeserver.RegionMoved(host, p, 1)
}

// timelineKinds are the kinds of Timeline reads timelineRead runs.
var timelineKinds = []string{"Get", "batch", "scan"}

// timelineRead runs a Timeline read of t, a Get, a batch of one Get or a scan (deadline 2 s),
// and checks that replica 1 answered it with want.
func timelineRead(t *testing.T, c *Client, kind, want string) {
	t.Helper()
	switch kind {
	case "Get":
		res, err := c.Get(testContext(t, 2*time.Second), timelineGet(t, "r", hrpc.Timeline))
		if err != nil {
			t.Fatalf("Timeline Get: %v", err)
		}
		checkFromReplica(t, kind, res, want)
	case "batch":
		br := c.SendBatch(testContext(t, 2*time.Second), []hrpc.Batchable{timelineGet(t, "r", hrpc.Timeline)})
		if br[0].Err != nil {
			t.Fatalf("batch: %v", br[0].Err)
		}
		checkFromReplica(t, kind, br[0].Result, want)
	case "scan":
		scan, _ := hrpc.NewScan("t", hrpc.Consistency(hrpc.Timeline))
		var rows []string
		for res, err := range c.Scan(testContext(t, 2*time.Second), scan) {
			if err != nil {
				t.Fatalf("Timeline scan: %v", err)
			}
			checkFromReplica(t, kind, res, want)
			rows = append(rows, string(res.Cells[0].Row))
		}
		if len(rows) != 2 {
			t.Fatalf("Timeline scan returned rows %q; want r1 and r2", rows)
		}
	}
}

// A secondary that moved, whose old server answers RegionMovedException naming the new one,
// is asked there within the read (a Get, a batch's Get, a scan's open): the primary never
// answers, and hbase:meta, which still names the old server, is not read. The entry of the
// region keeps the new server in a new list of secondaries: the old list, which reads under
// way may hold, is not changed.
func TestTimelineFollowsMovedReplica(t *testing.T) {
	old, moved := startMovableReplica(t, "old"), startMovableReplica(t, "moved")
	fc := silentPrimaryCluster(t, old.srv.Addr())
	c := fc.client(t, WithHedgeDelay(5*time.Millisecond))
	r, _, err := c.findRegion(testContext(t, 2*time.Second), "t", []byte("r"), false)
	if err != nil {
		t.Fatal(err)
	}
	cached := r.secondaryReplicas()
	old.fault.Store(moved.movedTo(t))
	scans := fc.metaScans.Load()
	for i, kind := range timelineKinds {
		r.setReplicas(cached) // as the client cached them: each kind of read meets the move
		timelineRead(t, c, kind, "moved")
		if got := r.replicaByID(1); got == nil || got.addr != moved.srv.Addr() {
			t.Fatalf("%s: replica 1 cached at %v; want %s", kind, got, moved.srv.Addr())
		}
		if cached[0].addr != old.srv.Addr() {
			t.Fatalf("%s: the list of secondaries a read held was changed: replica 1 at %s", kind, cached[0].addr)
		}
		timelineRead(t, c, kind, "moved") // the old server is not asked again
		if n := old.asked.Load(); n != int64(i+1) || fc.metaScans.Load() != scans {
			t.Fatalf("%s: old server asked %d times, hbase:meta read %d times; want %d and never", kind, n, fc.metaScans.Load()-scans, i+1)
		}
	}
	// Each kind read twice: 2 Gets and 2 batch Gets, 2 scans of 2 rows.
	if s := c.Stats(); s.StaleResults != 4 || s.StaleScanRows != 4 {
		t.Fatalf("stats: %d stale results, %d stale scan rows; want 4 and 4", s.StaleResults, s.StaleScanRows)
	}
}

// A secondary whose server answers NotServingRegionException (it was restarted: it names
// nowhere) makes the read wait for hbase:meta to be read again, and asks the replica where
// hbase:meta says it is now; one re-read serves the legs that wait for it.
func TestTimelineRereadsReplicaNotServing(t *testing.T) {
	old, now := startMovableReplica(t, "old"), startMovableReplica(t, "now")
	fc := silentPrimaryCluster(t, old.srv.Addr())
	c := fc.client(t, WithHedgeDelay(5*time.Millisecond))
	if _, err := c.Get(testContext(t, 2*time.Second), timelineGet(t, "r", hrpc.Timeline)); err != nil {
		t.Fatal(err) // the old server answers: cached
	}
	old.fault.Store(fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "t,,10001_0001 is not online"))
	fc.mu.Lock()
	fc.regions[0].replicas = []string{now.srv.Addr()}
	fc.mu.Unlock()
	r := c.cache.get([]byte("t"), []byte("r"))
	cached := r.secondaryReplicas()
	for i, kind := range timelineKinds {
		r.setReplicas(cached) // as the client cached them: each kind of read meets the restart
		scans := fc.metaScans.Load()
		timelineRead(t, c, kind, "now")
		if n := fc.metaScans.Load() - scans; n != 1 || old.asked.Load() != int64(i+2) {
			t.Fatalf("%s: hbase:meta read %d times, the old server asked %d times in all; want once, %d", kind, n, old.asked.Load(), i+2)
		}
	}
	// Where hbase:meta still names the server that does not serve the replica, the leg gives
	// up after one re-read: the primary's deadline ends the read.
	now.fault.Store(fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "closed"))
	fc.mu.Lock()
	fc.regions[0].replicas = []string{now.srv.Addr()}
	fc.mu.Unlock()
	start := time.Now()
	if _, err := c.Get(testContext(t, 300*time.Millisecond), timelineGet(t, "r", hrpc.Timeline)); err == nil {
		t.Fatal("answered with no replica serving")
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("the read took %v past its 300 ms deadline", took)
	}
}

// The re-read of a region's replicas keeps them in the entry the read started from and in
// the cache's current entry of the region (a copy made since, which shared the old list);
// with WithMetaReplicaLookups it reads a replica of hbase:meta, and the primary of hbase:meta,
// which does not answer here, only when the replica's answer changes nothing.
func TestReadReplicasFromMetaReplica(t *testing.T) {
	moved := startMovableReplica(t, "moved")
	region := fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{"127.0.0.1:1"}}
	fc := newFakeCluster(t, region)
	metaRep := newFakeCluster(t, region)
	metaRep.regions[0].addr = fc.srv.Addr()
	metaRep.regions[0].replicas = []string{moved.srv.Addr()}
	var cut atomic.Bool // hbase:meta's primary is cut off
	unblock := make(chan struct{})
	t.Cleanup(func() { close(unblock) })
	fc.beforeMeta = func(*fakeserver.Request) {
		if cut.Load() {
			<-unblock
		}
	}
	c := fc.client(t)
	if _, err := c.Get(testContext(t, 2*time.Second), timelineGet(t, "r", hrpc.Strong)); err != nil {
		t.Fatal(err)
	}
	c.metaReps = &metaReplicas{loc: fakeMetaReplicas{metaRep.srv.Addr()}, fetched: time.Now(),
		reps: []metaReplica{{id: 1, addr: metaRep.srv.Addr()}}}
	started := c.cache.get([]byte("t"), []byte("r"))
	conn, _, _ := started.state()
	current := started.at(started.location(), conn)
	c.cache.insert(current)
	cut.Store(true)
	start := time.Now()
	<-c.refreshReplicas(started)
	for _, e := range []*regionInfo{started, current} {
		if got := e.replicaByID(1); got == nil || got.addr != moved.srv.Addr() {
			t.Fatalf("replica 1 of %p at %v; want %s", e, got, moved.srv.Addr())
		}
	}
	if took := time.Since(start); took > time.Second || metaRep.metaScans.Load() != 1 {
		t.Fatalf("re-read in %v, %d scans of the replica of hbase:meta", took, metaRep.metaScans.Load())
	}
	// The replica's answer is what the client knows already: hbase:meta's primary is asked.
	cut.Store(false)
	fc.mu.Lock()
	fc.regions[0].replicas = []string{"127.0.0.1:2"}
	fc.mu.Unlock()
	<-c.refreshReplicas(started)
	if got := current.replicaByID(1); got == nil || got.addr != "127.0.0.1:2" {
		t.Fatalf("replica 1 at %v after an unchanged answer of the replica of hbase:meta; want the primary's 127.0.0.1:2", got)
	}
}
