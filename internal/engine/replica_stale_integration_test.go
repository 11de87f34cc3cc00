package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
)

// Timeline reads whose cached secondaries went stale: the client cached where each region's
// replicas were, they moved (a move of the secondaries alone, or a restart of their server),
// and then the server holding the primaries is cut off from the client. The replicas are
// placed where the test says with Move: a mini cluster's servers all run on one host, and
// the balancer, which spreads a region's replicas over hosts, may put them anywhere.

// Region servers of the shared cluster by role: A holds every primary.
const (
	serverA = 0
	serverB = 1
	serverC = 2
)

// staleRows are one row in each region of a table split at e, j and o.
var staleRows = []string{"arow", "frow", "krow", "prow"}

// staleCase is one way the cached secondaries go stale.
type staleCase struct {
	name    string
	metaOn  int    // the server of hbase:meta's primary
	cached  [3]int // replica id → server when the client caches the locations
	restart int    // the server restarted after that, or -1: its replicas go elsewhere, it answers NotServingRegion without naming where
	reads   [3]int // replica id → server when the reads run
	// metaReplicas: the cluster has two replicas of hbase:meta, placed on C; the client reads
	// them (WithMetaReplicaLookups).
	metaReplicas bool
}

// TestTimelineStaleSecondaries: with the primaries' server cut off, Timeline Gets, a
// Timeline batch and a Timeline scan are answered by the secondaries where they are now,
// though the client cached them elsewhere: each read has a 2 s deadline.
//   - moved: the secondaries swapped servers after the client cached them (B↔C); their old
//     servers answer RegionMovedException naming the new one; hbase:meta is on A, cut off
//     too, so no lookup can help.
//   - restarted: both secondaries were on B, which was restarted (new start code, same
//     port); they are on C now; B answers NotServingRegionException, naming nothing; hbase:meta
//     is on C.
func TestTimelineStaleSecondaries(t *testing.T) {
	cl := testCluster(t)
	for _, tc := range []staleCase{
		{name: "moved", metaOn: serverA, cached: [3]int{serverA, serverB, serverC}, restart: -1,
			reads: [3]int{serverA, serverC, serverB}},
		{name: "restarted", metaOn: serverC, cached: [3]int{serverA, serverB, serverB}, restart: serverB,
			reads: [3]int{serverA, serverC, serverC}},
	} {
		t.Run(tc.name, func(t *testing.T) { runStaleCase(t, cl, tc, nil) })
	}
}

// TestTimelineStaleSecondariesMetaReplicas is TestTimelineStaleSecondaries/restarted with
// hbase:meta's primary on A, cut off with the primaries, and its two replicas on C (a cluster
// of its own, with hbase.meta.replica.count 3): the client reads where the secondaries are
// now from a replica of hbase:meta.
func TestTimelineStaleSecondariesMetaReplicas(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 3, Conf: map[string]string{
		"hbase.region.replica.replication.enabled":         "true",
		"hbase.meta.replica.count":                         "3",
		"hbase.region.replica.replication.catalog.enabled": "true",
		"hbase.regionserver.meta.storefile.refresh.period": "500",
	}})
	newClient := func(opts ...Option) *Client {
		c, err := NewClient(cl.ZKQuorum, append([]Option{WithZNodeParent(cl.ZNodeParent)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	runStaleCase(t, cl, staleCase{name: "restarted, hbase:meta with the primaries", metaOn: serverA,
		cached: [3]int{serverA, serverB, serverB}, restart: serverB, reads: [3]int{serverA, serverC, serverC},
		metaReplicas: true}, newClient, WithMetaReplicaLookups())
}

// runStaleCase runs tc on cl: placement, a client caching the locations (opts added to its
// own), the change, the partition of A and the reads.
func runStaleCase(t *testing.T, cl *hbasetest.Cluster, tc staleCase, newClient func(...Option) *Client, opts ...Option) {
	ctx := testContext(t, 5*time.Minute)
	if newClient == nil {
		newClient = func(o ...Option) *Client { return newTestClient(t, o...) }
	}
	writer := newClient()
	table := createStaleTable(t, ctx, cl)
	for _, row := range staleRows {
		if err := putVersioned(ctx, writer, table, row, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := cl.MoveMeta(ctx, tc.metaOn); err != nil {
		t.Fatal(err)
	}
	if tc.metaReplicas {
		placeMetaReplicas(t, ctx, cl, serverC)
	}
	placeReplicas(t, ctx, cl, table, tc.cached)
	addrs := serverAddrs(t, ctx, cl)
	if tc.metaReplicas { // the client's lookups read them too
		waitMetaReplicas(t, ctx, cl, writer, table, addrs, tc.cached)
	}
	fn := faultnet.New()
	trace := &readTrace{addrs: addrs}
	c := newClient(append([]Option{WithDialer(fn.DialContext), WithHooks(trace.hooks())}, opts...)...)
	for _, row := range staleRows { // the client caches every region and its replicas
		if _, err := c.Get(ctx, mustGet(t, table, []byte(row), hrpc.Consistency(hrpc.Timeline))); err != nil {
			t.Fatal(err)
		}
		checkCached(t, c, table, row, addrs, tc.cached)
	}
	if tc.restart >= 0 {
		if _, err := cl.RestartRS(ctx, tc.restart); err != nil {
			t.Fatal(err)
		}
	}
	placeReplicas(t, ctx, cl, table, tc.reads)
	if tc.metaReplicas {
		waitMetaReplicas(t, ctx, cl, writer, table, addrs, tc.reads)
	}
	fn.BlackHole(addrs[serverA])
	defer fn.Heal(addrs[serverA])
	f := staleReads(t, ctx, c, table, trace)
	t.Logf("%s: %s", tc.name, f)
	for _, line := range trace.failures(8) {
		t.Log(line)
	}
	if f.failed() > 0 {
		t.Errorf("%d Timeline reads failed with both secondaries reachable", f.failed())
	}
}

// createStaleTable creates a table of REGION_REPLICATION 3 split at e, j and o, dropped
// when the test ends.
func createStaleTable(t *testing.T, ctx context.Context, cl *hbasetest.Cluster) string {
	name := fmt.Sprintf("t%d_%s", tables.Add(1), sanitize(t.Name()))
	splits := [][]byte{[]byte("e"), []byte("j"), []byte("o")}
	if err := cl.CreateTableWith(ctx, name, []string{"f"}, splits, hbasetest.TableOptions{RegionReplication: 3}); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, name)
		_ = cl.DropTable(ctx, name)
	})
	return name
}

// placeReplicas moves replica id of every region of table to servers[id], then waits until
// hbase:meta names those servers and every replica serves reads there (a moved secondary
// serves them once it has seen a flush of its primary).
func placeReplicas(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, table string, servers [3]int) {
	t.Helper()
	reps, err := cl.Replicas(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if want := servers[r.ReplicaID]; r.Server != want {
			if err := cl.Move(ctx, r.EncodedName, want); err != nil {
				t.Fatalf("moving replica %d of %q to server %d: %v", r.ReplicaID, r.StartKey, want, err)
			}
		}
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if err := cl.Flush(ctx, table); err != nil {
			t.Fatal(err)
		}
		if reps, err = cl.Replicas(ctx, table); err != nil {
			t.Fatal(err)
		}
		ready := true
		for _, r := range reps {
			want := servers[r.ReplicaID]
			ready = ready && r.Server == want && r.Serving == want && r.ReadsEnabled
		}
		if ready {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replicas not placed on %v: %+v", servers, reps)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// placeMetaReplicas moves the secondary replicas of hbase:meta to server.
func placeMetaReplicas(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, server int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		reps, err := cl.Replicas(ctx, MetaTableName)
		if err != nil {
			t.Fatal(err)
		}
		if len(reps) == 3 && moveMetaReplicas(t, ctx, cl, reps, server, deadline) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("hbase:meta has %d replicas; want 3 on server %d", len(reps), server)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// moveMetaReplicas moves the secondaries of hbase:meta among reps to server. A replica still
// opening (the cluster assigns them after it starts) is refused "currently in transition":
// that reports false, to look again, until deadline.
func moveMetaReplicas(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, reps []hbasetest.Replica, server int, deadline time.Time) bool {
	t.Helper()
	for _, r := range reps[1:] {
		if r.Server == server {
			continue
		}
		if err := cl.Move(ctx, r.EncodedName, server); err != nil {
			if strings.Contains(err.Error(), "in transition") && time.Now().Before(deadline) {
				return false
			}
			t.Fatalf("moving replica %d of hbase:meta: %v", r.ReplicaID, err)
		}
	}
	return true
}

// waitMetaReplicas flushes hbase:meta until each of its replicas lists the secondaries of
// every region of table on servers (a replica follows hbase:meta's flushed files), read with
// c, which the test does not cut off.
func waitMetaReplicas(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, c *Client, table string, addrs []string, servers [3]int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if err := cl.Flush(ctx, MetaTableName); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		reps, err := cl.Replicas(ctx, MetaTableName)
		if err != nil {
			t.Fatal(err)
		}
		var stale []string
		for _, mr := range reps[1:] {
			name, _ := replicaRegionName(metaRegionName, mr.ReplicaID)
			conn, err := c.conn(ctx, mr.Addr)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range staleRows {
				r, err := c.lookupOn(ctx, conn, name, []byte(table), []byte(row), false)
				if err != nil {
					stale = append(stale, fmt.Sprintf("replica %d of hbase:meta, %q: %v", mr.ReplicaID, row, err))
				} else if len(r.replicas) != 2 || r.replicas[0].addr != addrs[servers[1]] || r.replicas[1].addr != addrs[servers[2]] {
					stale = append(stale, fmt.Sprintf("replica %d of hbase:meta, %q: %v", mr.ReplicaID, row, r.replicas))
				}
			}
		}
		if len(stale) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("hbase:meta's replicas do not follow the moves: %v", stale)
		}
	}
}

func serverAddrs(t *testing.T, ctx context.Context, cl *hbasetest.Cluster) []string {
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addrs := make([]string, len(st.RegionServers))
	for i, rs := range st.RegionServers {
		addrs[i] = rs.Addr
	}
	return addrs
}

// checkCached checks that c caches row's region with its replicas on servers.
func checkCached(t *testing.T, c *Client, table, row string, addrs []string, servers [3]int) {
	t.Helper()
	r := c.cache.get([]byte(table), []byte(row))
	if r == nil || r.location() != addrs[servers[0]] {
		t.Fatalf("region of %q cached as %v; want its primary on %s", row, r, addrs[servers[0]])
	}
	reps := r.secondaryReplicas()
	if len(reps) != 2 || reps[0].addr != addrs[servers[1]] || reps[1].addr != addrs[servers[2]] {
		t.Fatalf("secondaries of %q cached as %v; want %s, %s", row, reps, addrs[servers[1]], addrs[servers[2]])
	}
}

// staleFigures are the outcomes of staleReads.
type staleFigures struct {
	batchFailed, batchCalls int
	scanErr                 error
	scanRows                int
	getsFailed, gets        int
	slowest                 time.Duration
	stale, reads            int
}

func (f staleFigures) failed() int {
	n := f.batchFailed + f.getsFailed
	if f.scanErr != nil {
		n++
	}
	return n
}

func (f staleFigures) String() string {
	return fmt.Sprintf("batch: %d of %d Timeline Gets failed; scan: %d rows, err %v; Gets: %d of %d failed; %d of %d answers stale; slowest answer %v",
		f.batchFailed, f.batchCalls, f.scanRows, f.scanErr, f.getsFailed, f.gets, f.stale, f.reads, f.slowest.Round(time.Millisecond))
}

// staleReads reads table's rows with Timeline reads of 2 s deadlines, each reaching one region
// the reads before did not: a batch of Gets of the first two regions, a scan of the table
// (the third region), then Gets, the fourth region's first, then every row three times.
func staleReads(t *testing.T, ctx context.Context, c *Client, table string, trace *readTrace) staleFigures {
	var f staleFigures
	before := c.Stats()
	answered := func(res *hrpc.Result, took time.Duration) {
		f.reads++
		f.slowest = max(f.slowest, took)
		if res.Stale {
			f.stale++
		}
		// With the primaries cut off, a secondary answered, after hedging.
		if !res.Stale || !res.Hedged || res.ReplicaID < 1 || res.ReplicaID > 2 {
			t.Errorf("row %q: stale %v, hedged %v, replica %d; want a secondary's answer to a hedged read",
				res.Cells[0].Row, res.Stale, res.Hedged, res.ReplicaID)
		}
	}
	defer func() {
		s := c.Stats()
		if rows, gets := s.StaleScanRows-before.StaleScanRows, s.StaleResults-before.StaleResults; rows != uint64(f.scanRows) ||
			gets != uint64(f.reads-f.scanRows) {
			t.Errorf("stats: %d stale scan rows, %d stale Get results; want %d, %d", rows, gets, f.scanRows, f.reads-f.scanRows)
		}
	}()
	batch := []hrpc.Batchable{mustGet(t, table, []byte(staleRows[0]), hrpc.Consistency(hrpc.Timeline)),
		mustGet(t, table, []byte(staleRows[1]), hrpc.Consistency(hrpc.Timeline))}
	bctx, cancel := context.WithTimeout(trace.read(ctx, "batch"), 2*time.Second)
	start := time.Now()
	for _, br := range c.SendBatch(bctx, batch) {
		f.batchCalls++
		if br.Err != nil {
			f.batchFailed++
			trace.failed("batch", br.Err)
			continue
		}
		answered(br.Result, time.Since(start))
	}
	cancel()

	scan, err := hrpc.NewScan(table, hrpc.Consistency(hrpc.Timeline), hrpc.NumberOfRows(1))
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(trace.read(ctx, "scan"), 2*time.Second)
	start = time.Now()
	for res, err := range c.Scan(sctx, scan) {
		if err != nil {
			f.scanErr = err
			trace.failed("scan", err)
			break
		}
		f.scanRows++
		answered(res, time.Since(start))
	}
	cancel()

	rows := append([]string{staleRows[3]}, append(append(staleRows, staleRows...), staleRows...)...)
	for i, row := range rows {
		name := fmt.Sprintf("Get %d %s", i, row)
		gctx, cancel := context.WithTimeout(trace.read(ctx, name), 2*time.Second)
		start := time.Now()
		res, err := c.Get(gctx, mustGet(t, table, []byte(row), hrpc.Consistency(hrpc.Timeline)))
		cancel()
		f.gets++
		if err != nil {
			f.getsFailed++
			trace.failed(name, err)
			continue
		}
		answered(res, time.Since(start))
	}
	return f
}

// readTrace keeps the attempts and hedges of each read, to show those of the reads that
// failed: which servers were asked and what they answered.
type readTrace struct {
	addrs  []string
	mu     sync.Mutex
	events map[string][]string
	start  map[string]time.Time
	lines  []string // the traces of the reads that failed
}

type readTraceKey struct{}

// read returns ctx naming the read for the hooks.
func (tr *readTrace) read(ctx context.Context, name string) context.Context {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.events == nil {
		tr.events, tr.start = map[string][]string{}, map[string]time.Time{}
	}
	tr.start[name] = time.Now()
	return context.WithValue(ctx, readTraceKey{}, name)
}

func (tr *readTrace) server(addr string) string {
	for i, a := range tr.addrs {
		if a == addr {
			return string(rune('A' + i))
		}
	}
	return addr
}

func (tr *readTrace) add(ctx context.Context, format string, args ...any) {
	name, ok := ctx.Value(readTraceKey{}).(string)
	if !ok {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	ev := fmt.Sprintf("+%v ", time.Since(tr.start[name]).Round(time.Millisecond)) + fmt.Sprintf(format, args...)
	tr.events[name] = append(tr.events[name], ev)
}

func (tr *readTrace) hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		Attempt: func(ctx context.Context, ev hbasetrace.AttemptInfo) {
			tr.add(ctx, "attempt %s on %s (%s) in %v: %.100v", ev.Op, tr.server(ev.Server), replicaOfRegion(ev.Region),
				ev.Duration.Round(time.Millisecond), ev.Err)
		},
		Hedge: func(ctx context.Context, ev hbasetrace.HedgeInfo) {
			tr.add(ctx, "hedge %s: primary on %s, %d secondaries asked, winner %d", ev.Op, tr.server(ev.Primary), ev.Sent, ev.Winner)
		},
	}
}

// failed notes that read name failed with err.
func (tr *readTrace) failed(name string, err error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, fmt.Sprintf("%s failed: %v\n      %s", name, err, strings.Join(tr.events[name], "\n      ")))
}

// failures returns the traces of the first n reads that failed.
func (tr *readTrace) failures(n int) []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.lines[:min(n, len(tr.lines))]
}

// replicaOfRegion names the replica of a region name: r0 for a primary, rN for "..._000N.".
func replicaOfRegion(name []byte) string {
	s := string(name)
	if i := strings.LastIndex(s, "_000"); i >= 0 && i+5 <= len(s) {
		return "r" + s[i+4:i+5]
	}
	return "r0"
}
