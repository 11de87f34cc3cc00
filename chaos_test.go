package hbase_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// The chaos test: a concurrent workload keeps running while region servers are killed and
// restarted, regions are moved, split and merged, and hbase:meta moves. Afterwards every
// acknowledged Put must be readable (by Get and by a full Scan), no call may have returned
// more than chaosMaxLate after its context's deadline, and Close must leave no goroutine.
// CHAOS_LOG=1 sends the client's debug log to stderr.
const (
	chaosWriters = 16 // Put, then Get of one of the worker's own acknowledged rows
	chaosReaders = 4  // short Scans from random rows
	chaosMaxLate = 100 * time.Millisecond
	chaosPause   = 20 * time.Millisecond // between a worker's operations, to bound the row count
)

var (
	chaosFamily    = []byte("f")
	chaosQualifier = []byte("q")
)

func TestChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("chaos test: needs the HBase mini cluster")
	}
	cl := hbase.SharedTestCluster(t)
	table := fmt.Sprintf("chaos_%d", time.Now().UnixNano())
	setupCtx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Four regions to start with; rows begin with a random hex byte, so every region is busy.
	splits := [][]byte{[]byte("40"), []byte("80"), []byte("c0")}
	if err := cl.CreateTable(setupCtx, table, []string{string(chaosFamily)}, splits); err != nil {
		t.Fatalf("creating %s: %v", table, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, table)
		_ = cl.DropTable(ctx, table)
	})

	ignore := goleak.IgnoreCurrent()
	opts := []hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent)}
	if os.Getenv("CHAOS_LOG") == "1" {
		opts = append(opts, hbase.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	client, err := hbase.NewClient(cl.ZKQuorum, opts...)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			client.Close()
		}
	}()

	w := &chaosWorkload{t: t, client: client, table: []byte(table), stop: make(chan struct{}), start: time.Now()}
	w.stats.init()
	var workers sync.WaitGroup
	for i := range chaosWriters {
		workers.Go(func() { w.writer(i) })
	}
	for i := range chaosReaders {
		workers.Go(func() { w.reader(i) })
	}

	faults := chaosFaults(cl, table)
	time.Sleep(3 * time.Second) // a calm start: the cache warms up before the first fault
	for _, f := range faults {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		began := time.Now()
		err := f.run(ctx)
		cancel()
		t.Logf("%6.1fs fault %-28s took %5.1fs err=%v", began.Sub(w.start).Seconds(), f.name, time.Since(began).Seconds(), err)
		if err != nil {
			t.Errorf("fault %s: %v", f.name, err)
		}
		time.Sleep(2 * time.Second)
	}
	time.Sleep(3 * time.Second) // a calm end: the client must converge after the last fault
	close(w.stop)
	workers.Wait()
	workload := time.Since(w.start)

	w.stats.report(t, workload)
	acked := w.ackedRows()
	t.Logf("%d acknowledged Puts to verify", len(acked))
	if len(acked) < 1000 {
		t.Errorf("only %d Puts were acknowledged in %v: the workload hardly ran", len(acked), workload.Round(time.Second))
	}
	if late, call := w.stats.maxLateness(); late > chaosMaxLate {
		t.Errorf("a call returned %v after its context's deadline (%s); the limit is %v", late, call, chaosMaxLate)
	}
	if n := w.violations.Load(); n > 0 {
		t.Errorf("%d reads during the workload returned a wrong or missing value for an acknowledged row (first ones logged above)", n)
	}

	verifyByGet(t, client, w.table, acked)
	verifyByScan(t, client, w.table, acked)

	if err := client.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	closed = true
	if err := goleak.Find(ignore); err != nil {
		t.Errorf("goroutines left after Close: %v", err)
	}
}

// chaosFault is one fault injected through the mini cluster's launcher.
type chaosFault struct {
	name string
	run  func(context.Context) error
}

// chaosFaults lists the faults in order. Only one region server is down at a time, and every
// killed server is started again.
func chaosFaults(cl *hbasetest.Cluster, table string) []chaosFault {
	restart := func(i int) func(context.Context) error {
		return func(ctx context.Context) error { _, err := cl.StartRS(ctx, i); return err }
	}
	return []chaosFault{
		{"move-all 0", func(ctx context.Context) error { return cl.MoveAll(ctx, 0) }},
		{"split at 20", func(ctx context.Context) error { _, _, err := cl.Split(ctx, table, []byte("20")); return err }},
		{"kill-rs 1", func(ctx context.Context) error { return cl.KillRS(ctx, 1) }},
		{"start-rs 1", restart(1)},
		// Not the daughters of the split above: they keep reference files until compacted,
		// and HBase refuses to merge those.
		{"merge [80,c0) and [c0,)", func(ctx context.Context) error { return mergeAt(ctx, cl, table, "80", "c0") }},
		{"move-meta", func(ctx context.Context) error { return cl.MoveMeta(ctx, -1) }},
		{"restart-rs 2", func(ctx context.Context) error { _, err := cl.RestartRS(ctx, 2); return err }},
		{"kill-rs 0", func(ctx context.Context) error { return cl.KillRS(ctx, 0) }},
		{"start-rs 0", restart(0)},
		{"split at 60", func(ctx context.Context) error { _, _, err := cl.Split(ctx, table, []byte("60")); return err }},
		{"move-all 1", func(ctx context.Context) error { return cl.MoveAll(ctx, 1) }},
		{"balance", func(ctx context.Context) error { _, err := cl.Balance(ctx); return err }},
	}
}

// mergeAt merges the two regions of table that start at startA and startB.
func mergeAt(ctx context.Context, cl *hbasetest.Cluster, table, startA, startB string) error {
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		return err
	}
	var a, b string
	for _, r := range regions {
		switch string(r.StartKey) {
		case startA:
			a = r.EncodedName
		case startB:
			b = r.EncodedName
		}
	}
	if a == "" || b == "" {
		return fmt.Errorf("no regions starting at %q and %q in %+v", startA, startB, regions)
	}
	_, err = cl.Merge(ctx, a, b)
	return err
}

type chaosWorkload struct {
	t      *testing.T
	client *hbase.Client
	table  []byte
	stop   chan struct{}
	start  time.Time

	acked      sync.Map // row (string) -> value (string) of every acknowledged Put
	stats      chaosStats
	violations atomic.Int64
}

func (w *chaosWorkload) stopped() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

func (w *chaosWorkload) pause() {
	select {
	case <-w.stop:
	case <-time.After(chaosPause):
	}
}

// callContext returns a context with a deadline 2 to 5 s away, as a caller would set one.
func callContext(rng *rand.Rand) (context.Context, context.CancelFunc, time.Time) {
	d := 2*time.Second + time.Duration(rng.Int64N(int64(3*time.Second)))
	ctx, cancel := context.WithTimeout(context.Background(), d)
	deadline, _ := ctx.Deadline()
	return ctx, cancel, deadline
}

func (w *chaosWorkload) writer(id int) {
	rng := rand.New(rand.NewPCG(uint64(id), uint64(time.Now().UnixNano())))
	var mine []string // this worker's acknowledged rows
	for seq := 0; !w.stopped(); seq++ {
		row := fmt.Sprintf("%02x/w%02d/%07d", rng.IntN(256), id, seq)
		value := fmt.Sprintf("v%d.%d.%x", id, seq, rng.Uint64())
		put, err := hrpc.NewPut(w.table, []byte(row), hrpc.Value(chaosFamily, chaosQualifier, []byte(value)))
		if err != nil {
			w.t.Errorf("NewPut: %v", err)
			return
		}
		ctx, cancel, deadline := callContext(rng)
		_, err = w.client.Put(ctx, put)
		cancel()
		w.stats.record("Put", deadline, err, w.start)
		if err == nil {
			w.acked.Store(row, value)
			mine = append(mine, row)
		}

		if len(mine) > 0 {
			row := mine[rng.IntN(len(mine))]
			want, _ := w.acked.Load(row)
			get, err := hrpc.NewGet(w.table, []byte(row))
			if err != nil {
				w.t.Errorf("NewGet: %v", err)
				return
			}
			ctx, cancel, deadline := callContext(rng)
			res, err := w.client.Get(ctx, get)
			cancel()
			w.stats.record("Get", deadline, err, w.start)
			if err == nil {
				if got := cellValue(res, row); got != want.(string) {
					w.violation("Get of acknowledged row %s returned %q, want %q", row, got, want)
				}
			}
		}
		w.pause()
	}
}

// reader runs short Scans from random rows: the rows must come in order, once each, and an
// acknowledged row must carry its value.
func (w *chaosWorkload) reader(id int) {
	rng := rand.New(rand.NewPCG(uint64(100+id), uint64(time.Now().UnixNano())))
	for !w.stopped() {
		start := fmt.Sprintf("%02x", rng.IntN(256))
		scan, err := hrpc.NewScan(w.table, hrpc.StartRow([]byte(start)), hrpc.Limit(200), hrpc.NumberOfRows(50))
		if err != nil {
			w.t.Errorf("NewScan: %v", err)
			return
		}
		ctx, cancel, deadline := callContext(rng)
		sc := w.client.Scan(ctx, scan)
		var prev []byte
		for {
			res, err := sc.Next(ctx)
			if err == io.EOF {
				w.stats.record("Scan.Next", deadline, nil, w.start)
				break
			}
			w.stats.record("Scan.Next", deadline, err, w.start)
			if err != nil {
				break
			}
			if len(res.Cells) == 0 {
				w.violation("Scan from %s returned a row without cells", start)
				continue
			}
			row := res.Cells[0].Row
			if prev != nil && bytes.Compare(row, prev) <= 0 {
				w.violation("Scan from %s returned row %s after %s", start, row, prev)
			}
			prev = bytes.Clone(row)
			if want, ok := w.acked.Load(string(row)); ok {
				if got := cellValue(res, string(row)); got != want.(string) {
					w.violation("Scan returned %q for acknowledged row %s, want %q", got, row, want)
				}
			}
		}
		sc.Close()
		cancel()
		w.pause()
	}
}

func (w *chaosWorkload) violation(format string, args ...any) {
	if w.violations.Add(1) <= 10 {
		w.t.Logf("%6.1fs VIOLATION: %s", time.Since(w.start).Seconds(), fmt.Sprintf(format, args...))
	}
}

func (w *chaosWorkload) ackedRows() map[string]string {
	m := make(map[string]string)
	w.acked.Range(func(k, v any) bool {
		m[k.(string)] = v.(string)
		return true
	})
	return m
}

// cellValue returns the f:q value of row in res, or "<missing>".
func cellValue(res *hrpc.Result, row string) string {
	for _, c := range res.Cells {
		if string(c.Row) == row && bytes.Equal(c.Family, chaosFamily) && bytes.Equal(c.Qualifier, chaosQualifier) {
			return string(c.Value)
		}
	}
	return "<missing>"
}

// chaosStats counts calls by operation and outcome and keeps the worst lateness.
type chaosStats struct {
	mu       sync.Mutex
	outcomes map[string]int
	first    map[string]string // first occurrence of each outcome: when and the error
	late     map[string]time.Duration
	lateCall string
	maxLate  time.Duration
}

func (s *chaosStats) init() {
	s.outcomes = map[string]int{}
	s.first = map[string]string{}
	s.late = map[string]time.Duration{}
}

func (s *chaosStats) record(op string, deadline time.Time, err error, start time.Time) {
	now := time.Now()
	late := now.Sub(deadline)
	kind := "ok"
	if err != nil {
		kind = errorKind(err)
	}
	key := op + " " + kind
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outcomes[key]++
	if _, ok := s.first[key]; !ok && err != nil {
		s.first[key] = fmt.Sprintf("at %.1fs: %v", now.Sub(start).Seconds(), err)
	}
	if late > s.late[op] {
		s.late[op] = late
	}
	if late > s.maxLate {
		s.maxLate = late
		s.lateCall = fmt.Sprintf("%s at %.1fs, err=%v", op, now.Sub(start).Seconds(), err)
	}
}

func (s *chaosStats) maxLateness() (time.Duration, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxLate, s.lateCall
}

func (s *chaosStats) report(t *testing.T, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "workload ran %v:\n", d.Round(100*time.Millisecond))
	for _, k := range slices.Sorted(maps.Keys(s.outcomes)) {
		fmt.Fprintf(&b, "  %-40s %7d", k, s.outcomes[k])
		if f, ok := s.first[k]; ok {
			fmt.Fprintf(&b, "  first %s", f)
		}
		b.WriteByte('\n')
	}
	for _, op := range slices.Sorted(maps.Keys(s.late)) {
		fmt.Fprintf(&b, "  max lateness past deadline %-10s %v\n", op, max(s.late[op], 0).Round(time.Millisecond))
	}
	t.Log(b.String())
}

// errorKind names an error for the counts: the sentinel it wraps, else its text up to the
// first colon.
func errorKind(err error) string {
	for _, k := range []struct {
		name string
		err  error
	}{
		{"DeadlineExceeded", context.DeadlineExceeded},
		{"Canceled", context.Canceled},
		{"ErrClosed", hbase.ErrClosed},
		{"ErrRegionUnavailable", hbase.ErrRegionUnavailable},
		{"ErrServerStopping", hbase.ErrServerStopping},
		{"ErrConnection", hbase.ErrConnection},
		{"ErrRetryable", hbase.ErrRetryable},
		{"ErrDoNotRetry", hbase.ErrDoNotRetry},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	s := err.Error()
	if i := strings.Index(s, ":"); i > 0 {
		s = s[:i]
	}
	return "other(" + s + ")"
}

// verifyByGet reads every acknowledged row back, from 16 goroutines. The cluster is calm by
// now, but a call may still meet a region that the balancer just moved; each row gets a few
// tries before a failure counts.
func verifyByGet(t *testing.T, client *hbase.Client, table []byte, acked map[string]string) {
	rows := make([]string, 0, len(acked))
	for r := range acked {
		rows = append(rows, r)
	}
	began := time.Now()
	var next atomic.Int64
	var missing, failed, retried atomic.Int64
	var mu sync.Mutex
	var firsts []string
	note := func(s string) {
		mu.Lock()
		if len(firsts) < 10 {
			firsts = append(firsts, s)
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(rows)) {
					return
				}
				row := rows[i]
				get, err := hrpc.NewGet(table, []byte(row))
				if err != nil {
					t.Errorf("NewGet: %v", err)
					return
				}
				var res *hrpc.Result
				for try := 0; try < 3; try++ {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					res, err = client.Get(ctx, get)
					cancel()
					if err == nil {
						break
					}
					retried.Add(1)
				}
				switch {
				case err != nil:
					failed.Add(1)
					note(fmt.Sprintf("Get %s: %v", row, err))
				case cellValue(res, row) != acked[row]:
					missing.Add(1)
					note(fmt.Sprintf("Get %s = %q, want %q", row, cellValue(res, row), acked[row]))
				}
			}
		})
	}
	wg.Wait()
	t.Logf("verified %d rows by Get in %v (%d retried calls)", len(rows), time.Since(began).Round(time.Millisecond), retried.Load())
	if missing.Load() > 0 || failed.Load() > 0 {
		t.Errorf("Get verification: %d acknowledged rows missing or wrong, %d unreadable; first: %s",
			missing.Load(), failed.Load(), strings.Join(firsts, "; "))
	}
}

// verifyByScan reads the whole table with one Scan: every acknowledged row must be there with
// its value, rows in strictly increasing order.
func verifyByScan(t *testing.T, client *hbase.Client, table []byte, acked map[string]string) {
	began := time.Now()
	scan, err := hrpc.NewScan(table)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sc := client.Scan(ctx, scan)
	defer sc.Close()
	seen := make(map[string]string, len(acked))
	var prev []byte
	disorder := 0
	for {
		res, err := sc.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Errorf("full Scan failed after %d rows: %v", len(seen), err)
			return
		}
		if len(res.Cells) == 0 {
			continue
		}
		row := res.Cells[0].Row
		if prev != nil && bytes.Compare(row, prev) <= 0 {
			disorder++
		}
		prev = bytes.Clone(row)
		seen[string(row)] = cellValue(res, string(row))
	}
	var bad []string
	for row, want := range acked {
		if got, ok := seen[row]; !ok || got != want {
			bad = append(bad, fmt.Sprintf("%s=%q want %q", row, cmp.Or(got, "<absent>"), want))
		}
	}
	slices.Sort(bad)
	t.Logf("full Scan: %d rows (%d acknowledged, the rest from Puts whose answer was lost) in %v",
		len(seen), len(acked), time.Since(began).Round(time.Millisecond))
	if disorder > 0 {
		t.Errorf("full Scan returned %d rows out of order", disorder)
	}
	if len(bad) > 0 {
		t.Errorf("full Scan: %d acknowledged rows missing or wrong, e.g. %s", len(bad), strings.Join(bad[:min(len(bad), 10)], "; "))
	}
}
