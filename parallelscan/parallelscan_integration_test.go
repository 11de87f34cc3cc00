package parallelscan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
)

// hostileKeys are n row keys with binary bytes, low bytes and ',' (the separator of region
// names), sorted.
func hostileKeys(n int) [][]byte {
	rows := [][]byte{{0x00}, {0x00, 0x00}, {0x01}, []byte(","), []byte(",,"), []byte("a,b"), {0xff}, {0xff, 0x00}}
	for i := range n {
		rows = append(rows, fmt.Appendf(nil, "k%04d,\x00%c", i, byte(i)))
	}
	slices.SortFunc(rows, bytes.Compare)
	return slices.CompactFunc(rows, bytes.Equal)
}

func loadKeys(t *testing.T, c *hbase.Client, table string, rows [][]byte) {
	t.Helper()
	ctx := testContext(t, 2*time.Minute)
	var batch []hrpc.Batchable
	for _, r := range rows {
		batch = append(batch, mustPut(t, table, r, r))
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("loading row %d: %v", i, r.Err)
		}
	}
}

// rowsOnce fails unless got holds every row of want exactly once.
func rowsOnce(t *testing.T, what string, got, want [][]byte) {
	t.Helper()
	seen := map[string]int{}
	for _, r := range got {
		seen[string(r)]++
	}
	bad := 0
	for _, r := range want {
		if n := seen[string(r)]; n != 1 && bad < 10 {
			t.Errorf("%s: row %q returned %d times", what, r, n)
			bad++
		}
		delete(seen, string(r))
	}
	for r, n := range seen {
		t.Errorf("%s: row %q returned %d times, never written", what, r, n)
	}
}

// splitTable splits the region of table holding key at key. A daughter of an earlier split is
// not splittable until its references to the parent's files are compacted away (the cluster
// runs no periodic compaction): then it compacts the table and tries again.
func splitTable(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, table string, key []byte) {
	t.Helper()
	_, _, err := cl.SplitTimed(ctx, table, key)
	if err != nil && strings.Contains(err.Error(), "NOT splittable") {
		if err := cl.MajorCompact(ctx, table); err != nil {
			t.Fatal(err)
		}
		for try := 0; try < 20 && err != nil && strings.Contains(err.Error(), "NOT splittable"); try++ {
			time.Sleep(500 * time.Millisecond)
			_, _, err = cl.SplitTimed(ctx, table, key)
		}
	}
	if err != nil {
		t.Fatalf("splitting %s at %q: %v", table, key, err)
	}
}

// moveOne moves the region of table holding row to another live server.
func moveOne(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, table string, row []byte) {
	t.Helper()
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		if bytes.Compare(r.StartKey, row) > 0 || (len(r.EndKey) != 0 && bytes.Compare(row, r.EndKey) >= 0) {
			continue
		}
		for i := 1; i < len(st.RegionServers); i++ {
			if to := (r.Server + i) % len(st.RegionServers); st.RegionServers[to].Live {
				if _, err := cl.MoveTimed(ctx, r.EncodedName, to); err != nil {
					t.Fatalf("moving %s: %v", r.EncodedName, err)
				}
				return
			}
		}
	}
	t.Fatalf("no region of %s to move for %q", table, row)
}

// TestParallelScanUnderSplitsAndMovesAgainstHBase: parallel scans of a table with hostile
// keys (and split points at such keys), while its regions split and move in the middle of the
// scan, return every preloaded row exactly once, unordered and ordered; a scan cancelled part
// way and resumed from its token after a split returns every row exactly once over both runs.
// make reliability repeats it GOHBASE_RELIABILITY_ROUNDS times.
func TestParallelScanUnderSplitsAndMovesAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	c := newTestClient(t)
	table := createTable(t, []string{"f"}, [][]byte{[]byte(","), []byte("k0300,\x00"), {0xff}})
	rows := hostileKeys(1200)
	loadKeys(t, c, table, rows)
	ctx := testContext(t, 5*time.Minute)
	scan := func() *hrpc.Scan {
		s, err := hrpc.NewScan(table, hrpc.NumberOfRows(10))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rowOf := func(r *hrpc.Result) []byte {
		if len(r.Cells) == 0 || !bytes.Equal(r.Cells[0].Row, r.Cells[0].Value) {
			t.Fatalf("bad result %+v", r)
		}
		return r.Cells[0].Row
	}
	// Split points inside the preloaded rows, at hostile keys, one per fault.
	splitAt := func(i int) []byte { return fmt.Appendf(nil, "k%04d,\x00", 37+(i*149)%1100) }
	faults := 0
	for round := range reliabilityRounds(t) {
		for _, ordered := range []bool{false, true} {
			name := fmt.Sprintf("round %d ordered=%v", round, ordered)
			opts := []Option{WithConcurrency(3)}
			if ordered {
				opts = append(opts, WithOrder())
			}
			var got [][]byte
			ps := New(ctx, c, scan(), opts...)
			for ps.Next() {
				got = append(got, rowOf(ps.Result()))
				if len(got) == 100 {
					// The workers hold open scanners in their regions while the
					// consumer is held up here.
					splitTable(t, ctx, cl, table, splitAt(faults))
					faults++
					moveOne(t, ctx, cl, table, rows[(faults*331)%len(rows)])
				}
			}
			if err := ps.Err(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ps.Close()
			rowsOnce(t, name, got, rows)
			if ordered && !slices.IsSortedFunc(got, bytes.Compare) {
				t.Errorf("%s: rows out of order", name)
			}
		}

		// Cancelled, a split, resumed from the token.
		name := fmt.Sprintf("round %d resumed", round)
		var got [][]byte
		cctx, cancel := context.WithCancel(ctx)
		ps := New(cctx, c, scan(), WithConcurrency(3))
		for ps.Next() {
			if got = append(got, rowOf(ps.Result())); len(got) == 250 {
				cancel()
			}
		}
		if err := ps.Err(); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want context.Canceled", name, err)
		}
		token := ps.Token()
		ps.Close()
		cancel()
		splitTable(t, ctx, cl, table, splitAt(faults))
		faults++
		for r, err := range Scan(ctx, c, scan(), WithConcurrency(3), WithResume(token)) {
			if err != nil {
				t.Fatalf("%s: resumed: %v", name, err)
			}
			got = append(got, rowOf(r))
		}
		rowsOnce(t, name, got, rows)
	}
}

// TestScanReadPointAcrossReopenAgainstHBase: a scan reads each region at the read point it
// got there first: rows written after the scan reached a region are not seen when the region
// moves or splits under the scan and the scanner reopens (on the same region elsewhere, on
// the daughter holding its position); the second daughter, reached after the write, has a
// read point of its own, as in Java. A new scan sees them all, so they were written.
func TestScanReadPointAcrossReopenAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	c := newTestClient(t)
	table := createTable(t, []string{"f"}, [][]byte{[]byte("row0100")})
	loadRows(t, c, table, 200)
	ctx := testContext(t, 3*time.Minute)
	put := func(rows ...string) {
		for _, r := range rows {
			if _, err := c.Put(ctx, mustPut(t, table, []byte(r), []byte("v"+r))); err != nil {
				t.Fatal(err)
			}
		}
	}
	newScan := func() *hrpc.Scan {
		s, err := hrpc.NewScan(table, hrpc.StopRow([]byte("row0100")), hrpc.NumberOfRows(5))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		late   []string // written after the scan opened the region, before the fault
		seen   []string // of late, in the part of the region the scan reaches with a read point of its own
		reopen func()
	}{
		{"move", []string{"row0050a", "row0090a"}, nil, func() { moveOne(t, ctx, cl, table, []byte("row0010")) }},
		{"split", []string{"row0030b", "row0080b"}, []string{"row0080b"}, func() {
			if _, _, err := cl.SplitTimed(ctx, table, []byte("row0060")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		sc := c.NewScanner(ctx, newScan())
		var got []string
		for len(got) < 12 && sc.Next() {
			got = append(got, string(sc.Result().Cells[0].Row))
		}
		put(tc.late...)
		tc.reopen()
		for sc.Next() {
			got = append(got, string(sc.Result().Cells[0].Row))
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		regions := sc.Metrics().Regions
		sc.Close()
		for _, r := range tc.late {
			if want := slices.Contains(tc.seen, r); slices.Contains(got, r) != want {
				t.Errorf("%s: the scan saw row %s: %v, want %v (written after it opened the region)",
					tc.name, r, !want, want)
			}
		}
		if len(got) < 100 {
			t.Errorf("%s: %d rows, want the 100 preloaded", tc.name, len(got))
		}
		if tc.name == "split" && regions < 2 {
			t.Errorf("%s: the scan opened %d regions, want the daughters after the parent", tc.name, regions)
		}
		// They were written: a new scan sees them.
		var fresh []string
		for r, err := range c.Scan(ctx, newScan()) {
			if err != nil {
				t.Fatal(err)
			}
			fresh = append(fresh, string(r.Cells[0].Row))
		}
		for _, r := range tc.late {
			if !slices.Contains(fresh, r) {
				t.Errorf("%s: a new scan does not see row %s", tc.name, r)
			}
		}
	}
}

// TestCacheRegionsAgainstHBase: CacheRegions caches every region of a table with one scan of
// hbase:meta; ClearRegionCache drops them again.
func TestCacheRegionsAgainstHBase(t *testing.T) {
	c := newTestClient(t)
	table := createTable(t, []string{"f"}, [][]byte{{0x00, ','}, []byte(","), []byte("m")})
	ctx := testContext(t, time.Minute)
	base := c.Stats().CachedRegions
	lookups := c.Stats().Lookups
	if err := c.CacheRegions(ctx, table); err != nil {
		t.Fatal(err)
	}
	if got := c.Stats().CachedRegions - base; got != 4 {
		t.Fatalf("CacheRegions cached %d regions, want 4", got)
	}
	for _, row := range [][]byte{{0x00}, {0x00, ','}, []byte(",,"), []byte("z")} {
		if _, err := c.Get(ctx, mustGet(t, table, row)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.Stats().Lookups - lookups; n != 0 {
		t.Errorf("Gets after CacheRegions looked up %d regions", n)
	}
	c.ClearRegionCache(table)
	if got := c.Stats().CachedRegions; got != base {
		t.Errorf("%d regions cached after ClearRegionCache, want %d", got, base)
	}
	if _, err := c.Get(ctx, mustGet(t, table, []byte("z"))); err != nil {
		t.Fatal(err)
	}
	if n := c.Stats().Lookups - lookups; n != 1 {
		t.Errorf("a Get after ClearRegionCache: %d lookups, want 1", n)
	}
}

// TestParallelScanResumeAfterPartitionAgainstHBase: a parallel scan whose last range's server
// is cut off (a black hole: packets dropped, nothing reset) in the middle of the scan ends at
// its deadline; resumed from its token once the network heals, it returns the rest: every row
// exactly once over both runs.
func TestParallelScanResumeAfterPartitionAgainstHBase(t *testing.T) {
	testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, hbase.WithDialer(fn.DialContext))
	table := createTable(t, []string{"f"}, [][]byte{[]byte(","), []byte("k0300,\x00"), []byte("k0900")})
	rows := hostileKeys(1200)
	loadKeys(t, c, table, rows)
	ctx := testContext(t, time.Minute)
	if err := c.CacheRegions(ctx, table); err != nil {
		t.Fatal(err)
	}
	addr := engine.Of(c).CachedLocation([]byte(table), []byte("k0950"))
	scan, err := hrpc.NewScan(table, hrpc.NumberOfRows(10))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	sctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	ps := New(sctx, c, scan, WithConcurrency(3), WithOrder())
	for ps.Next() {
		if got = append(got, ps.Result().Cells[0].Row); len(got) == 150 {
			fn.BlackHole(addr)
		}
	}
	err = ps.Err()
	token := ps.Token()
	ps.Close()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("partitioned scan ended with %v after %d rows, want its deadline", err, len(got))
	}
	first := len(got)
	fn.HealAll()
	for r, err := range Scan(ctx, c, scan, WithConcurrency(3), WithResume(token)) {
		if err != nil {
			t.Fatalf("resumed after %d rows: %v", first, err)
		}
		got = append(got, r.Cells[0].Row)
	}
	t.Logf("%d rows before the deadline, %d after resuming", first, len(got)-first)
	rowsOnce(t, "partitioned and resumed", got, rows)
}
