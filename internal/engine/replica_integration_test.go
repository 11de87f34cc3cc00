package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
)

// createReplicatedTable creates a table of family "f", split at "h" and "p", whose regions
// have three replicas, dropped when the test ends.
func createReplicatedTable(t *testing.T, c *Client, splits ...string) string {
	t.Helper()
	if len(splits) == 0 {
		splits = []string{"h", "p"}
	}
	keys := make([][]byte, len(splits))
	for i, k := range splits {
		keys[i] = []byte(k)
	}
	cl := testCluster(t)
	name := fmt.Sprintf("t%d_%s", tables.Add(1), sanitize(t.Name()))
	ctx := testContext(t, 2*time.Minute)
	if err := cl.CreateTableWith(ctx, name, []string{"f"}, keys, hbasetest.TableOptions{RegionReplication: 3}); err != nil {
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

// putVersioned writes version n of row: two cells holding n, in one Put, so that a read
// seeing one without the other, or another number, saw a row nobody wrote.
func putVersioned(ctx context.Context, c *Client, table, row string, n int) error {
	v := []byte(strconv.Itoa(n))
	p, err := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("a"), v),
		hrpc.Value([]byte("f"), []byte("b"), v))
	if err != nil {
		return err
	}
	_, err = c.Put(ctx, p)
	return err
}

// versionOf checks that res is a row as written by putVersioned and returns its version
// (-1 for a missing row).
func versionOf(res *hrpc.Result) (int, error) {
	if len(res.Cells) == 0 {
		return -1, nil
	}
	if len(res.Cells) != 2 || string(res.Cells[0].Qualifier) != "a" || string(res.Cells[1].Qualifier) != "b" ||
		string(res.Cells[0].Value) != string(res.Cells[1].Value) {
		return 0, fmt.Errorf("row %q is not as written: %v", res.Cells[0].Row, res.Cells)
	}
	return strconv.Atoi(string(res.Cells[0].Value))
}

// readReplica reads row from one secondary replica of its region, bypassing the primary.
func readReplica(ctx context.Context, c *Client, table, row string, replica int) (*hrpc.Result, error) {
	g, err := hrpc.NewGet(table, []byte(row), hrpc.Consistency(hrpc.Timeline))
	if err != nil {
		return nil, err
	}
	r, _, err := c.findRegion(ctx, table, []byte(row), false)
	if err != nil {
		return nil, err
	}
	reps := r.secondaryReplicas()
	if len(reps) < replica {
		return nil, fmt.Errorf("region %q has %d secondaries in the cache", r.name, len(reps))
	}
	call := hrpcwire.Get(g)
	resp, cells, _, err := c.askReplica(ctx, r, reps[replica-1], call)
	if err != nil {
		return nil, err
	}
	return hrpcwire.DecodeGet(g, resp, cells)
}

// waitReplicated waits until both secondaries of row's region return version want of row
// (or a later one).
func waitReplicated(t *testing.T, c *Client, table, row string, want int) time.Duration {
	t.Helper()
	start := time.Now()
	ctx := testContext(t, time.Minute)
	for replica := 1; replica <= 2; replica++ {
		var last error
		for {
			res, err := readReplica(ctx, c, table, row, replica)
			if err == nil {
				var v int
				if v, err = versionOf(res); err != nil {
					t.Fatal(err)
				}
				if !res.Stale {
					t.Fatalf("replica %d of %q answered a result not marked stale", replica, row)
				}
				if v >= want {
					// A Put cut by the writer's deadline may have landed: one more
					// version than the writer counted.
					break
				}
				err = fmt.Errorf("version %d, want %d", v, want)
			}
			last = err
			if ctx.Err() != nil {
				t.Fatalf("replica %d of %q never caught up: %v", replica, row, last)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return time.Since(start)
}

// TestTimelineReadsAgainstHBase reads a table of region replication 3 with Timeline Gets:
// secondaries serve the rows the primary took (after replication) marked stale, every read
// returns a row as it was written while writes go on, and with the primary's server
// partitioned from the client (faultnet) Timeline Gets are answered by a secondary after the
// hedge delay while Strong Gets wait for the primary, as before; no goroutines are left.
func TestTimelineReadsAgainstHBase(t *testing.T) {
	fn := faultnet.New()
	const delay = 20 * time.Millisecond
	c := newTestClient(t, WithDialer(fn.DialContext), WithHedgeDelay(delay))
	table := createReplicatedTable(t, c)
	ctx := testContext(t, 2*time.Minute)
	rows := []string{"arow", "hrow", "prow"}
	for _, row := range rows {
		if err := putVersioned(ctx, c, table, row, 1); err != nil {
			t.Fatal(err)
		}
	}
	// hbase:meta lists the secondaries, on servers other than the primary's.
	for _, row := range rows {
		r := c.cache.get([]byte(table), []byte(row))
		reps := r.secondaryReplicas()
		if len(reps) != 2 {
			t.Fatalf("region of %q has %d secondary replicas cached, want 2", row, len(reps))
		}
		for i, rep := range reps {
			if rep.replicaID != i+1 || rep.addr == "" || rep.addr == r.location() {
				t.Fatalf("replica %d of %q at %q (primary at %s)", rep.replicaID, row, rep.addr, r.location())
			}
		}
	}
	for _, row := range rows {
		t.Logf("secondaries of %q caught up in %v", row, waitReplicated(t, c, table, row, 1))
	}

	// Writes go on while Timeline Gets with no delay (every replica asked at once) read: each
	// result is a version that was written, and a reader never sees its row go back to an
	// older version from the same replica... which HBase does not promise across replicas, so
	// only that the versions are real is checked; then the secondaries converge.
	wctx, wcancel := context.WithTimeout(ctx, 2*time.Second)
	var written atomic.Int64
	written.Store(1)
	var wg sync.WaitGroup
	wg.Go(func() {
		for n := 2; wctx.Err() == nil; n++ {
			if err := putVersioned(wctx, c, table, "hrow", n); err != nil {
				return
			}
			written.Store(int64(n))
		}
	})
	rc := newTestClient(t, WithHedgeDelay(0))
	var reads, stale int
	for wctx.Err() == nil {
		g, _ := hrpc.NewGet(table, []byte("hrow"), hrpc.Consistency(hrpc.Timeline))
		before := written.Load()
		res, err := rc.Get(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		v, err := versionOf(res)
		if err != nil {
			t.Fatal(err)
		}
		if v < 1 || int64(v) > written.Load()+1 {
			t.Fatalf("read version %d; written up to %d (%d when the read began)", v, written.Load(), before)
		}
		reads++
		if res.Stale {
			stale++
		}
	}
	wcancel()
	wg.Wait()
	last := int(written.Load())
	t.Logf("%d Timeline reads during writes, %d stale; %d versions written; converged in %v",
		reads, stale, last, waitReplicated(t, c, table, "hrow", last))

	// Partition the client from the primary of a region whose primary is not with hbase:meta.
	var row, addr string
	for _, rw := range rows {
		if a := c.cache.get([]byte(table), []byte(rw)).location(); a != c.meta.location() {
			row, addr = rw, a
			break
		}
	}
	if row == "" {
		t.Skip("every primary is with hbase:meta")
	}
	want := 1
	if row == "hrow" {
		want = last
		if res, err := c.Get(ctx, mustGet(t, table, []byte(row))); err == nil {
			want, _ = versionOf(res) // the primary's: a Put cut by its deadline may have landed
		}
	}
	baseline := settledGoroutines()
	fn.BlackHole(addr)
	var worst time.Duration
	for i := range 20 {
		g, _ := hrpc.NewGet(table, []byte(row), hrpc.Consistency(hrpc.Timeline))
		gctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		start := time.Now()
		res, err := c.Get(gctx, g)
		took := time.Since(start)
		cancel()
		if err != nil {
			t.Fatalf("Timeline Get %d with the primary partitioned: %v", i, err)
		}
		if v, err := versionOf(res); err != nil || v != want || !res.Stale || res.ReplicaID == 0 || !res.Hedged {
			t.Fatalf("Timeline Get %d: version %d (%v) stale=%v replica %d hedged %v, want version %d from a secondary",
				i, v, err, res.Stale, res.ReplicaID, res.Hedged, want)
		}
		worst = max(worst, took)
	}
	t.Logf("20 Timeline Gets with the primary partitioned: slowest %v (hedge delay %v)", worst, delay)
	if worst > time.Second {
		t.Errorf("a Timeline Get took %v with the primary partitioned: it waited for the primary", worst)
	}
	g, _ := hrpc.NewGet(table, []byte(row))
	var err error
	sctx, scancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = c.Get(sctx, g)
	scancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Strong Get with the primary partitioned: %v, want its deadline", err)
	}
	// A batch's Timeline Gets are hedged one by one; its Strong Gets of other regions are
	// answered by their primaries.
	var batch []hrpc.Batchable
	for _, rw := range rows {
		g, _ := hrpc.NewGet(table, []byte(rw), hrpc.Consistency(hrpc.Timeline))
		batch = append(batch, g)
		if rw != row {
			batch = append(batch, mustGet(t, table, []byte(rw)))
		}
	}
	start := time.Now()
	for i, br := range c.SendBatch(testContext(t, 10*time.Second), batch) {
		if br.Err != nil {
			t.Fatalf("batch call %d with the primary partitioned: %v", i, br.Err)
		}
		v, err := versionOf(br.Result)
		if err != nil || v < 1 {
			t.Fatalf("batch call %d: version %d: %v", i, v, err)
		}
		if string(br.Result.Cells[0].Row) == row && !br.Result.Stale {
			t.Fatalf("batch Get of %q not stale", row)
		}
	}
	t.Logf("batch of %d Gets (%d Timeline) with one primary partitioned: %v", len(batch), len(rows), time.Since(start))

	// A Timeline scan of the table goes to a secondary for the partitioned region and stays
	// there (one row per RPC: the region's next requests go where its first page came from).
	scan, err := hrpc.NewScan(table, hrpc.Consistency(hrpc.Timeline), hrpc.NumberOfRows(1))
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	var scanned []string
	for res, err := range c.Scan(testContext(t, 10*time.Second), scan) {
		if err != nil {
			t.Fatalf("Timeline scan with the primary partitioned: %v", err)
		}
		v, err := versionOf(res)
		if err != nil || v < 1 {
			t.Fatalf("Timeline scan: row %q version %d: %v", res.Cells[0].Row, v, err)
		}
		r := string(res.Cells[0].Row)
		if r == row && (!res.Stale || res.ReplicaID == 0 || !res.Hedged) {
			t.Fatalf("row %q of the partitioned primary's region: stale %v, replica %d, hedged %v", r, res.Stale, res.ReplicaID, res.Hedged)
		}
		if r != row && (res.Stale != (res.ReplicaID > 0)) {
			t.Fatalf("row %q: stale %v from replica %d", r, res.Stale, res.ReplicaID)
		}
		scanned = append(scanned, r)
	}
	if fmt.Sprint(scanned) != fmt.Sprint(rows) {
		t.Fatalf("Timeline scan returned %q, want %q", scanned, rows)
	}
	t.Logf("Timeline scan of %d regions with one primary partitioned: %v", len(rows), time.Since(start))

	fn.Heal(addr)
	// After the partition the primary answers again (the suspect check may have dropped its
	// connection: it is dialled again).
	deadline := time.Now().Add(30 * time.Second)
	for {
		g, _ := hrpc.NewGet(table, []byte(row), hrpc.Consistency(hrpc.Timeline))
		res, err := c.Get(ctx, g)
		if err == nil && !res.Stale {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the primary does not answer after the partition healed: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if g := settledGoroutines(); g > baseline+5 {
		t.Errorf("goroutines grew from %d to %d", baseline, g)
	}
	s := c.Stats()
	t.Logf("stats: hedges sent %d, won %d, stale results %d, stale scan rows %d", s.HedgesSent, s.HedgesWon, s.StaleResults, s.StaleScanRows)
	if s.HedgesWon < 20 || s.StaleResults < 20 || s.StaleScanRows < 1 {
		t.Errorf("stats: %d hedges won, %d stale results, %d stale scan rows, want at least 20, 20, 1", s.HedgesWon, s.StaleResults, s.StaleScanRows)
	}
}

// TestTimelineUnderPartitions partitions the client from each region's primary in turn
// (GOHBASE_RELIABILITY_ROUNDS rounds; 2 s each) while readers send Timeline Gets and Scans
// and a writer keeps writing: no Timeline read fails or waits for a partitioned primary
// (each is bounded by 2 s, far above the hedge delay plus a round trip), every row read is
// one that was written, the secondaries converge after each round, and goroutines do not
// grow.
func TestTimelineUnderPartitions(t *testing.T) {
	rounds := reliabilityRounds(t)
	fn := faultnet.New()
	const delay = 10 * time.Millisecond
	c := newTestClient(t, WithDialer(fn.DialContext), WithHedgeDelay(delay), WithAdaptiveHedging(time.Millisecond, 50*time.Millisecond))
	wc := newTestClient(t) // the writer, not partitioned
	table := createReplicatedTable(t, c)
	ctx := testContext(t, time.Duration(rounds)*3*time.Minute)
	rows := []string{"arow", "hrow", "prow"}
	for _, row := range rows {
		if err := putVersioned(ctx, wc, table, row, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, row := range rows {
		waitReplicated(t, c, table, row, 1)
	}
	baseline := settledGoroutines()
	var written [3]atomic.Int64
	var (
		reads, stale, slow atomic.Int64
		worst              atomic.Int64
		failures           = make(chan error, 16)
	)
	fail := func(err error) {
		select {
		case failures <- err:
		default:
		}
	}
	for round := range rounds {
		for _, target := range rows {
			addr := c.cache.get([]byte(table), []byte(target)).location()
			if addr == c.meta.location() {
				continue // the readers' cache holds every region: hbase:meta is not needed, but a relocation would wait for it
			}
			pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
			var wg sync.WaitGroup
			wg.Go(func() { // the writer
				for n := 2; pctx.Err() == nil; n++ {
					i := n % len(rows)
					v := int(written[i].Load()) + 1
					if putVersioned(pctx, wc, table, rows[i], v) == nil {
						written[i].Store(int64(v))
					}
				}
			})
			for range 4 {
				wg.Go(func() {
					for k := 0; pctx.Err() == nil; k++ {
						i := k % len(rows)
						rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
						start := time.Now()
						g, _ := hrpc.NewGet(table, []byte(rows[i]), hrpc.Consistency(hrpc.Timeline))
						res, err := c.Get(rctx, g)
						took := time.Since(start)
						cancel()
						if err != nil {
							fail(fmt.Errorf("round %d, %s partitioned: Timeline Get of %s: %v", round, target, rows[i], err))
							return
						}
						v, err := versionOf(res)
						if err != nil || v < 1 || int64(v) > written[i].Load()+1 {
							fail(fmt.Errorf("Timeline Get of %s: version %d (written %d): %v", rows[i], v, written[i].Load(), err))
							return
						}
						reads.Add(1)
						if res.Stale {
							stale.Add(1)
						}
						if took > 200*time.Millisecond {
							slow.Add(1)
						}
						for {
							w := worst.Load()
							if int64(took) <= w || worst.CompareAndSwap(w, int64(took)) {
								break
							}
						}
					}
				})
			}
			time.Sleep(100 * time.Millisecond)
			fn.BlackHole(addr)
			// A scan during the partition.
			scan, _ := hrpc.NewScan(table, hrpc.Consistency(hrpc.Timeline), hrpc.NumberOfRows(1))
			n := 0
			sctx, scancel := context.WithTimeout(ctx, 2*time.Second)
			for res, err := range c.Scan(sctx, scan) {
				if err != nil {
					fail(fmt.Errorf("Timeline scan with %s partitioned: %v", target, err))
					break
				}
				if _, err := versionOf(res); err != nil {
					fail(err)
				}
				n++
			}
			scancel()
			if n != len(rows) {
				fail(fmt.Errorf("Timeline scan with %s partitioned: %d rows, want %d", target, n, len(rows)))
			}
			wg.Wait()
			pcancel()
			fn.Heal(addr)
			select {
			case err := <-failures:
				t.Fatal(err)
			default:
			}
		}
		for i, row := range rows {
			t.Logf("round %d: secondaries of %q caught up with version %d in %v", round, row, written[i].Load(),
				waitReplicated(t, c, table, row, int(written[i].Load())))
		}
	}
	if g := settledGoroutines(); g > baseline+10 {
		t.Errorf("goroutines grew from %d to %d", baseline, g)
	}
	s := c.Stats()
	t.Logf("%d Timeline reads, %d stale, %d over 200 ms, slowest %v; hedges sent %d, won %d",
		reads.Load(), stale.Load(), slow.Load(), time.Duration(worst.Load()), s.HedgesSent, s.HedgesWon)
}

// TestTimelineHedgesSlowServer makes half the Gets on the server of a region's primary wait
// 100 ms on the server side (hbasetest's SlowReads): Strong Gets meet the slowness; Timeline
// Gets with every slow read allowed to hedge (budget 1) are answered by a secondary after the
// hedge delay; with the default budget (10%) only about a tenth of them are, the others wait
// for the primary once the client knows the server's latency: a server slow for every other
// read is not sent twice the reads.
func TestTimelineHedgesSlowServer(t *testing.T) {
	cl := testCluster(t)
	const delay = 10 * time.Millisecond
	admin := newTestClient(t)
	table := createReplicatedTable(t, admin)
	ctx := testContext(t, 2*time.Minute)
	const row = "arow"
	if err := putVersioned(ctx, admin, table, row, 1); err != nil {
		t.Fatal(err)
	}
	waitReplicated(t, admin, table, row, 1)
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) == 0 || len(regions[0].StartKey) != 0 {
		t.Fatalf("regions of %s: %+v", table, regions)
	}
	slot := regions[0].Server
	if err := cl.SlowReads(ctx, slot, 100*time.Millisecond, 0.5); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.SlowReads(context.Background(), slot, 0, 0) })

	const reads = 60
	measure := func(name string, c *Client, cons hrpc.ConsistencyLevel) (slow, stale int) {
		var took []time.Duration
		for range reads {
			g, _ := hrpc.NewGet(table, []byte(row), hrpc.Consistency(cons))
			start := time.Now()
			res, err := c.Get(ctx, g)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			took = append(took, time.Since(start))
			if v, err := versionOf(res); err != nil || v != 1 {
				t.Fatalf("%s: version %d: %v", name, v, err)
			}
			if res.Stale {
				stale++
			}
		}
		slices.Sort(took)
		for _, d := range took {
			if d >= 90*time.Millisecond {
				slow++
			}
		}
		s := c.Stats()
		t.Logf("%s: p50 %v, p90 %v, p99 %v, max %v; %d of %d over 90 ms, %d stale; hedges sent %d, won %d",
			name, took[reads/2].Round(time.Microsecond), took[reads*9/10].Round(time.Microsecond),
			took[reads*99/100].Round(time.Microsecond), took[reads-1].Round(time.Microsecond), slow, reads, stale,
			s.HedgesSent, s.HedgesWon)
		return slow, stale
	}
	slow, _ := measure("Strong", newTestClient(t), hrpc.Strong)
	if slow < reads/5 {
		t.Fatalf("only %d of %d Strong Gets met the slow server: SlowReads did not take", slow, reads)
	}
	slow, stale := measure("Timeline, budget 1", newTestClient(t, WithHedgeDelay(delay), WithHedgeBudget(1)), hrpc.Timeline)
	if slow > reads/10 || stale == 0 {
		t.Errorf("Timeline Gets with budget 1: %d over 90 ms, %d stale: the slow reads were not hedged", slow, stale)
	}
	// The default budget: a first round spends the burst and teaches the client the
	// server's latency (its 99th percentile sets when silence lifts the budget); in the
	// second, about a tenth of the reads are hedged (6 to 10 of 60 seen, of about 30 slow:
	// a read slower than 3 times the p99 yet seen still counts as silence).
	c := newTestClient(t, WithHedgeDelay(delay))
	measure("Timeline, budget 0.1, first round", c, hrpc.Timeline)
	before := c.Stats().HedgesSent
	measure("Timeline, budget 0.1, second round", c, hrpc.Timeline)
	if sent := c.Stats().HedgesSent - before; sent > 2*(reads/10+8) {
		t.Errorf("%d hedges (to 2 secondaries each) for %d reads with a budget of 10%%", sent, reads)
	}
	t.Run("lagging", func(t *testing.T) { hedgesLaggingServer(t, admin, table, regions, slot) })
}

// hedgesLaggingServer (TestTimelineHedgesSlowServer's last part): with no hedge budget at
// all, the Timeline Gets of a primary server that lags the others the client reads from (half
// its Gets take 100 ms, the others' none) are hedged anyway once the client knows the
// servers' latency, while the Gets of the healthy servers are not hedged. The slow server is
// slot, the first region's; the table is replicated with its primaries on at least two servers.
func hedgesLaggingServer(t *testing.T, admin *Client, table string, regions []hbasetest.Region, slot int) {
	ctx := testContext(t, 2*time.Minute)
	const delay = 10 * time.Millisecond
	// One row in each region, read in turns.
	var rows []string
	servers := map[int]bool{}
	for _, r := range regions {
		row := string(r.StartKey) + "0row" // within the region: "0" sorts before every split key
		if err := putVersioned(ctx, admin, table, row, 1); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
		servers[r.Server] = true
	}
	for _, row := range rows {
		waitReplicated(t, admin, table, row, 1)
	}
	if len(servers) < 2 {
		t.Fatalf("the %d primaries of %s are all on one server: no peer to lag", len(regions), table)
	}

	round := func(c *Client, n int) (slowReads, lateSlow, healthyHedged, stale int, slowTook []time.Duration) {
		for i := range n {
			r := regions[i%len(regions)]
			g, _ := hrpc.NewGet(table, []byte(rows[i%len(rows)]), hrpc.Consistency(hrpc.Timeline))
			before := c.Stats().HedgesSent
			start := time.Now()
			res, err := c.Get(ctx, g)
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if v, err := versionOf(res); err != nil || v != 1 {
				t.Fatalf("%q: version %d: %v", rows[i%len(rows)], v, err)
			}
			if res.Stale {
				stale++
			}
			if r.Server == slot {
				slowReads++
				slowTook = append(slowTook, took)
				if took >= 90*time.Millisecond {
					lateSlow++
				}
			} else if c.Stats().HedgesSent > before {
				healthyHedged++
			}
		}
		slices.Sort(slowTook)
		return
	}
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"fixed 10 ms", []Option{WithHedgeDelay(delay), WithHedgeBudget(0)}},
		// Adaptive: the lagging server's reads are hedged after its peers' 95th percentile.
		{"adaptive 1-50 ms", []Option{WithAdaptiveHedging(time.Millisecond, 50*time.Millisecond), WithHedgeBudget(0)}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			// The secondaries' answers are Attempt events of their own, naming the replica.
			var replicaAttempts atomic.Int64
			c := newTestClient(t, append(tc.opts, WithHooks(&hbasetrace.Hooks{Attempt: func(_ context.Context, a hbasetrace.AttemptInfo) {
				if a.Err == nil && (strings.Contains(string(a.Region), "_0001.") || strings.Contains(string(a.Region), "_0002.")) {
					replicaAttempts.Add(1)
				}
			}}))...)
			// The first round teaches the client every server's latency (50 answers each).
			n := 60 * len(regions)
			slowReads, late, _, _, _ := round(c, n)
			t.Logf("learning: %d reads of the slow server, %d of them over 90 ms", slowReads, late)
			slowReads, late, healthyHedged, stale, took := round(c, n)
			s := c.Stats()
			t.Logf("lagging: %d reads of the slow server (p50 %v, p90 %v, max %v), %d over 90 ms, %d stale; %d hedged reads of healthy servers; hedges sent %d, won %d",
				slowReads, took[len(took)/2].Round(time.Microsecond), took[len(took)*9/10].Round(time.Microsecond),
				took[len(took)-1].Round(time.Microsecond), late, stale, healthyHedged, s.HedgesSent, s.HedgesWon)
			// Without the lift, about half the slow server's reads take 100 ms (the budget is
			// 0 and the server answers, so it is never silent).
			if late > slowReads/10 || stale == 0 {
				t.Errorf("%d of %d reads of the lagging server over 90 ms, %d stale: they were not hedged", late, slowReads, stale)
			}
			if healthyHedged > n/50 {
				t.Errorf("%d reads of healthy servers hedged with a budget of 0", healthyHedged)
			}
			if won := int64(c.Stats().HedgesWon); replicaAttempts.Load() < won {
				t.Errorf("%d successful Attempt events on secondary replicas for %d hedges won", replicaAttempts.Load(), won)
			}
		})
	}
}
