//go:build unix

package hbase_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/internal/histogram"
	"go.uber.org/goleak"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
)

// The chaos test: a concurrent workload keeps running while region servers are killed and
// restarted, regions are moved, split and merged, and hbase:meta moves. Afterwards every
// acknowledged Put must be readable (by Get, by a full Scan and by HBase's Java client), no
// call may have returned more than chaosMaxLate after its context's deadline, and Close must
// leave no goroutine. The machine is shared with the cluster's JVM (and, here, with other
// clusters): lateness during which a probe goroutine shows the process got no CPU is reported
// but excused; a late call's stack is logged to show where it waited.
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
	createFaultTable(t, setupCtx, cl, table, splits)

	ignore := goleak.IgnoreCurrent()
	// The client's log messages are counted: they show that the faults reached the client
	// (connections lost, regions re-established) even when no call failed.
	logs := faultTestLogs()
	client, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent), hbase.WithLogger(slog.New(logs)))
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			client.Close()
		}
	}()

	w := &chaosWorkload{t: t, client: client, table: table, stop: make(chan struct{}), start: time.Now()}
	w.stats.init()
	var workers sync.WaitGroup
	for i := range chaosWriters {
		workers.Go(func() { w.writer(i) })
	}
	for i := range chaosReaders {
		workers.Go(func() { w.reader(i) })
	}

	// The scheduling probe tells a client that ignores its context apart from a process that
	// got no CPU (the mini cluster's JVM shares the machine's cores).
	probe := startSchedProbe(w.stop)
	cpuStart := processCPU()

	faults := chaosFaults(t, cl, table)
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
	cpu := processCPU() - cpuStart
	t.Logf("the test process used %v of CPU in %v (%.2f cores)", cpu.Round(time.Second), workload.Round(time.Second), cpu.Seconds()/workload.Seconds())

	w.stats.report(t, workload)
	w.stacksMu.Lock()
	for _, st := range w.stacks {
		t.Logf("late call caught by the watchdog: %s", st)
	}
	w.stacksMu.Unlock()
	t.Logf("scheduling probe (5ms sleeps): %s", probe.summary())
	t.Logf("client log messages during the test: %s", logs.summary())
	acked := w.ackedRows()
	t.Logf("%d acknowledged Puts to verify", len(acked))
	if len(acked) < 1000 {
		t.Errorf("only %d Puts were acknowledged in %v: the workload hardly ran", len(acked), workload.Round(time.Second))
	}
	checkLateCalls(t, &w.stats, probe)
	if n := w.violations.Load(); n > 0 {
		t.Errorf("%d reads during the workload returned a wrong or missing value for an acknowledged row (first ones logged above)", n)
	}

	verifyByGet(t, client, w.table, acked)
	verifyByScan(t, client, w.table, acked)
	verifyByJavaScan(t, cl, table, acked)

	if err := client.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	closed = true
	if err := goleak.Find(ignore); err != nil {
		t.Errorf("goroutines left after Close: %v", err)
	}
}

// checkLateCalls fails t for every call that returned more than chaosMaxLate after its
// deadline, unless the probe shows the process itself was not running for the excess while
// the call was late. It returns the latest return after a deadline.
func checkLateCalls(t *testing.T, s *chaosStats, probe *schedProbe) time.Duration {
	late, call := s.maxLateness()
	t.Logf("latest return after a deadline: %v (%s)", late.Round(time.Millisecond), call)
	for _, lc := range s.lateCallsOver(chaosMaxLate) {
		stalled := probe.stalledBetween(lc.returned.Add(-lc.late()), lc.returned)
		if lc.late()-stalled > chaosMaxLate {
			t.Errorf("%s; the process was stalled for %v of that", lc, stalled.Round(time.Millisecond))
		} else {
			t.Logf("excused: %s; the process was stalled for %v of that", lc, stalled.Round(time.Millisecond))
		}
	}
	return late
}

// chaosFault is one fault injected through the mini cluster's launcher.
type chaosFault struct {
	name string
	run  func(context.Context) error
}

// chaosFaults lists the faults in order: two rounds, about a minute each. Only one region
// server is down at a time, and every killed server is started again.
func chaosFaults(t *testing.T, cl *hbasetest.Cluster, table string) []chaosFault {
	start := func(i int) func(context.Context) error {
		return func(ctx context.Context) error { _, err := cl.StartRS(ctx, i); return err }
	}
	split := func(key string) func(context.Context) error {
		return regionChange(t, cl, table, func(ctx context.Context) error { _, _, err := cl.Split(ctx, table, []byte(key)); return err })
	}
	merge := func(a, b string) func(context.Context) error {
		return regionChange(t, cl, table, func(ctx context.Context) error { return mergeAt(ctx, cl, table, a, b) })
	}
	// metaServer is the index of the region server holding hbase:meta when the fault runs.
	var metaServer int
	return []chaosFault{
		{"move-all 0", func(ctx context.Context) error { return cl.MoveAll(ctx, 0) }},
		{"split at 20", split("20")},
		{"kill-rs 1", func(ctx context.Context) error { return cl.KillRS(ctx, 1) }},
		{"start-rs 1", start(1)},
		// Not the daughters of the split above: they keep reference files until compacted,
		// and HBase refuses to split or merge regions with references.
		{"merge [80,c0) and [c0,)", merge("80", "c0")},
		{"move-meta", func(ctx context.Context) error { return cl.MoveMeta(ctx, -1) }},
		{"restart-rs 2", func(ctx context.Context) error { _, err := cl.RestartRS(ctx, 2); return err }},
		{"kill-rs 0", func(ctx context.Context) error { return cl.KillRS(ctx, 0) }},
		{"start-rs 0", start(0)},
		{"split at 60", split("60")},
		{"move-all 1", func(ctx context.Context) error { return cl.MoveAll(ctx, 1) }},
		{"balance", func(ctx context.Context) error { _, err := cl.Balance(ctx); return err }},

		// Round two: compaction drops the reference files, so daughters can split and merge.
		{"major-compact", func(ctx context.Context) error { return cl.MajorCompact(ctx, table) }},
		{"kill-rs holding hbase:meta", func(ctx context.Context) error {
			regions, err := cl.Regions(ctx, "hbase:meta")
			if err != nil {
				return err
			}
			if len(regions) != 1 || regions[0].Server < 0 {
				return fmt.Errorf("hbase:meta regions: %+v", regions)
			}
			metaServer = regions[0].Server
			return cl.KillRS(ctx, metaServer)
		}},
		{"start-rs that held hbase:meta", func(ctx context.Context) error { _, err := cl.StartRS(ctx, metaServer); return err }},
		{"split at 10", split("10")},
		{"move-all 2", func(ctx context.Context) error { return cl.MoveAll(ctx, 2) }},
		{"merge [40,60) and [60,80)", merge("40", "60")},
		{"restart-rs 1", func(ctx context.Context) error { _, err := cl.RestartRS(ctx, 1); return err }},
		{"split at a0", split("a0")},
		{"move-meta", func(ctx context.Context) error { return cl.MoveMeta(ctx, -1) }},
		{"balance", func(ctx context.Context) error { _, err := cl.Balance(ctx); return err }},
	}
}

// regionChange runs a split or merge, trying again after a flush when HBase refuses it for a
// reason that passes: a region recovered from a killed server keeps its recovered edits, and
// daughters their reference files, for a moment after they open.
func regionChange(t *testing.T, cl *hbasetest.Cluster, table string, change func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		var err error
		for try := 0; try < 4; try++ {
			if err = change(ctx); err == nil {
				return nil
			}
			var ce *hbasetest.CommandError
			if !errors.As(err, &ce) {
				return err
			}
			t.Logf("HBase refused the split/merge, flushing and trying again: %v", ce)
			if err := cl.Flush(ctx, table); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return err
			case <-time.After(3 * time.Second):
			}
		}
		return err
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
	table  string
	stop   chan struct{}
	start  time.Time

	acked      sync.Map // row (string) -> value (string) of every acknowledged Put
	stats      chaosStats
	violations atomic.Int64

	stacksMu sync.Mutex
	stacks   []string // where late calls were, caught by watch
}

// watch arms a watchdog for one call of the goroutine gid: if the call has not returned
// chaosMaxLate/2 after its deadline, the goroutine's stack goes into the report, to show
// where a late call waits. The returned func disarms it.
func (w *chaosWorkload) watch(ctx context.Context, gid, op string, deadline time.Time) func() {
	var done atomic.Bool
	tm := time.AfterFunc(time.Until(deadline)+chaosMaxLate/2, func() {
		ctxErr := ctx.Err() // before the dump, which takes a while
		if done.Load() {
			return
		}
		w.stacksMu.Lock()
		defer w.stacksMu.Unlock()
		if len(w.stacks) >= 6 {
			return
		}
		buf := make([]byte, 4<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for g := range strings.SplitSeq(string(buf), "\n\n") {
			if strings.HasPrefix(g, gid+" [") {
				// ctx.Err() still nil here means the runtime had not yet run the context's own
				// timer: the process, not the client, was behind.
				w.stacks = append(w.stacks, fmt.Sprintf("%s still running %v after its deadline (at %.2fs; its ctx.Err() = %v):\n%s",
					op, time.Since(deadline).Round(time.Millisecond), time.Since(w.start).Seconds(), ctxErr, g))
			}
		}
	})
	return func() {
		done.Store(true)
		tm.Stop()
	}
}

// goroutineID returns "goroutine N", the header of the calling goroutine in stack dumps.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	head, _, _ := strings.Cut(string(buf), " [")
	return head
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

// callContext returns a context with a deadline 2 to 5 s away, as a caller would set one;
// one call in eight gets 50 to 500 ms instead, so that deadlines also end calls in the middle
// of their retries when no fault is going on.
func callContext(rng *rand.Rand) (context.Context, context.CancelFunc, time.Time) {
	d := 2*time.Second + time.Duration(rng.Int64N(int64(3*time.Second)))
	if rng.IntN(8) == 0 {
		d = 50*time.Millisecond + time.Duration(rng.Int64N(int64(450*time.Millisecond)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	deadline, _ := ctx.Deadline()
	return ctx, cancel, deadline
}

func (w *chaosWorkload) writer(id int) {
	rng := rand.New(rand.NewPCG(uint64(id), uint64(time.Now().UnixNano())))
	gid := goroutineID()
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
		began := time.Now()
		unwatch := w.watch(ctx, gid, "Put", deadline)
		_, err = w.client.Put(ctx, put)
		unwatch()
		cancel()
		w.stats.record("Put", began, deadline, err, w.start)
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
			began := time.Now()
			unwatch := w.watch(ctx, gid, "Get", deadline)
			res, err := w.client.Get(ctx, get)
			unwatch()
			cancel()
			w.stats.record("Get", began, deadline, err, w.start)
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
	gid := goroutineID()
	for !w.stopped() {
		start := fmt.Sprintf("%02x", rng.IntN(256))
		scan, err := hrpc.NewScan(w.table, hrpc.StartRow([]byte(start)), hrpc.Limit(200), hrpc.NumberOfRows(50))
		if err != nil {
			w.t.Errorf("NewScan: %v", err)
			return
		}
		ctx, cancel, deadline := callContext(rng)
		sc := w.client.NewScanner(ctx, scan)
		var prev []byte
		for {
			began := time.Now()
			unwatch := w.watch(ctx, gid, "Scan.Next", deadline)
			more := sc.Next()
			unwatch()
			w.stats.record("Scan.Next", began, deadline, sc.Err(), w.start)
			if !more {
				break
			}
			res := sc.Result()
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
	first    map[string]string        // first occurrence of each outcome: when and the error
	late     map[string]time.Duration // per operation, the latest return relative to the deadline
	latency  map[string]*histogram.Histogram
	lateCall string
	maxLate  time.Duration
	// lateCalls are the calls that returned more than chaosMaxLate/2 after their deadline.
	lateCalls []lateCall
}

func (s *chaosStats) init() {
	s.outcomes = map[string]int{}
	s.first = map[string]string{}
	s.late = map[string]time.Duration{}
	s.latency = map[string]*histogram.Histogram{}
	s.maxLate = math.MinInt64
}

// record notes one call that returned now; began is when it started. A call that began after
// its deadline (a Scanner's Next returning rows it already has, to a slow caller) is late by
// its own duration only.
func (s *chaosStats) record(op string, began, deadline time.Time, err error, start time.Time) {
	now := time.Now()
	late := now.Sub(deadline)
	if began.After(deadline) {
		late = now.Sub(began)
	}
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
	if l, ok := s.late[op]; !ok || late > l {
		s.late[op] = late
	}
	{
		h := s.latency[op]
		if h == nil {
			h = histogram.New(int64(time.Minute/time.Microsecond), 3)
			s.latency[op] = h
		}
		h.Record(int64(now.Sub(began) / time.Microsecond))
	}
	if late > chaosMaxLate/2 {
		s.lateCalls = append(s.lateCalls, lateCall{op: op, start: start, began: began, deadline: deadline, returned: now, err: err})
	}
	if late > s.maxLate {
		s.maxLate = late
		s.lateCall = fmt.Sprintf("%s at %.1fs, err=%v", op, now.Sub(start).Seconds(), err)
	}
}

// lateCall is a call that returned well after its deadline.
type lateCall struct {
	op                               string
	start, began, deadline, returned time.Time // start: the workload's
	err                              error
}

func (l lateCall) late() time.Duration {
	if l.began.After(l.deadline) {
		return l.returned.Sub(l.began)
	}
	return l.returned.Sub(l.deadline)
}

func (l lateCall) String() string {
	return fmt.Sprintf("%s returned %v past its deadline at %.2fs (took %v): %v", l.op, l.late().Round(time.Millisecond),
		l.returned.Sub(l.start).Seconds(), l.returned.Sub(l.began).Round(time.Millisecond), l.err)
}

func (s *chaosStats) lateCallsOver(d time.Duration) []lateCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []lateCall
	for _, l := range s.lateCalls {
		if l.late() > d {
			out = append(out, l)
		}
	}
	return out
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
		fmt.Fprintf(&b, "  %-10s latest return relative to its deadline %+v", op, s.late[op].Round(time.Millisecond))
		if h := s.latency[op]; h != nil {
			us := func(v int64) time.Duration { return (time.Duration(v) * time.Microsecond).Round(10 * time.Microsecond) }
			fmt.Fprintf(&b, "; latency p50 %v p99 %v p99.9 %v max %v", us(h.Percentile(50)),
				us(h.Percentile(99)), us(h.Percentile(99.9)), us(h.Max()))
		}
		b.WriteByte('\n')
	}
	for _, l := range s.lateCalls {
		fmt.Fprintf(&b, "  late: %v\n", l)
	}
	t.Log(b.String())
}

// schedProbe sleeps 5 ms again and again and records how much longer each sleep took: a
// long oversleep means the whole process was not running.
type schedProbe struct {
	start  time.Time
	done   chan struct{}
	hist   *histogram.Histogram
	worst  []string // oversleeps of more than 50 ms, with when they ended
	stalls []stall  // oversleeps of more than 5 ms
	// maxGoroutines is the most goroutines seen: a client that leaks while it runs shows here.
	maxGoroutines int
}

// stall is the stretch [from, to) by which one probe sleep overslept, and the CPU time the
// process used during that sleep: near zero means the machine gave it no CPU, near two cores
// means the process itself was busy (a spinning client would show that way).
type stall struct {
	from, to time.Time
	cpu      time.Duration
}

// processCPU is this process's CPU time; 0 where it cannot be read, which only makes the
// probe's report less telling.
func processCPU() time.Duration {
	d, _ := cputime.Self()
	return d
}

func startSchedProbe(stop <-chan struct{}) *schedProbe {
	p := &schedProbe{start: time.Now(), done: make(chan struct{}), hist: histogram.New(int64(time.Minute/time.Microsecond), 3)}
	go func() {
		defer close(p.done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0, cpu0 := time.Now(), processCPU()
			time.Sleep(5 * time.Millisecond)
			over := time.Since(t0) - 5*time.Millisecond
			p.hist.Record(int64(over / time.Microsecond))
			p.maxGoroutines = max(p.maxGoroutines, runtime.NumGoroutine())
			if over > 5*time.Millisecond {
				end := t0.Add(5*time.Millisecond + over)
				p.stalls = append(p.stalls, stall{from: end.Add(-over), to: end, cpu: processCPU() - cpu0})
			}
			if over > 50*time.Millisecond {
				st := p.stalls[len(p.stalls)-1]
				p.worst = append(p.worst, fmt.Sprintf("%v at %.2fs (cpu %.0f%%)", over.Round(time.Millisecond),
					time.Since(p.start).Seconds(), 100*float64(st.cpu)/float64(st.to.Sub(t0))))
			}
		}
	}()
	return p
}

// stalledBetween is how long the probe overslept within [from, to) while the process itself
// used less than half a core: time the machine did not run it, as opposed to time it spent
// busy (which excuses nothing). Call after summary.
func (p *schedProbe) stalledBetween(from, to time.Time) time.Duration {
	var d time.Duration
	for _, st := range p.stalls {
		if slept := st.to.Sub(st.from) + 5*time.Millisecond; st.cpu > slept/2 {
			continue
		}
		lo, hi := st.from, st.to
		if lo.Before(from) {
			lo = from
		}
		if hi.After(to) {
			hi = to
		}
		if hi.After(lo) {
			d += hi.Sub(lo)
		}
	}
	return d
}

func (p *schedProbe) summary() string {
	<-p.done
	us := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	return fmt.Sprintf("oversleep p99 %v p99.9 %v max %v; at most %d goroutines; over 50ms: %v", us(p.hist.Percentile(99)),
		us(p.hist.Percentile(99.9)), us(p.hist.Max()), p.maxGoroutines, p.worst)
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
		{"hberr.ErrClosed", hberr.ErrClosed},
		{"hberr.ErrRegionUnavailable", hberr.ErrRegionUnavailable},
		{"hberr.ErrServerStopping", hberr.ErrServerStopping},
		{"hberr.ErrConnection", hberr.ErrConnection},
		{"hberr.ErrRetryable", hberr.ErrRetryable},
		{"hberr.ErrDoNotRetry", hberr.ErrDoNotRetry},
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
// tries before a failure counts. It returns how many rows were missing, wrong or unreadable.
// verifyGiveUp is how many unreadable rows end a verification early.
const verifyGiveUp = 32

func verifyByGet(t *testing.T, client *hbase.Client, table string, acked map[string]string) int {
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
				// Calls fail for 30 s each when the cluster is gone: after a few such rows the
				// rest would only take the test's whole timeout to say the same.
				if failed.Load() >= verifyGiveUp {
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
	return int(missing.Load() + failed.Load())
}

// verifyByScan reads the whole table with one Scan: every acknowledged row must be there with
// its value, rows in strictly increasing order. It returns how many acknowledged rows were
// missing or wrong, or -1 when the Scan failed.
func verifyByScan(t *testing.T, client *hbase.Client, table string, acked map[string]string) int {
	began := time.Now()
	scan, err := hrpc.NewScan(table)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := make(map[string]string, len(acked))
	var prev []byte
	disorder := 0
	for res, err := range client.Scan(ctx, scan) {
		if err != nil {
			t.Errorf("full Scan failed after %d rows: %v", len(seen), err)
			return -1
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
	t.Logf("full Scan: %d rows (%d acknowledged; any others come from Puts whose answer was lost) in %v",
		len(seen), len(acked), time.Since(began).Round(time.Millisecond))
	if disorder > 0 {
		t.Errorf("full Scan returned %d rows out of order", disorder)
	}
	if len(bad) > 0 {
		t.Errorf("full Scan: %d acknowledged rows missing or wrong, e.g. %s", len(bad), strings.Join(bad[:min(len(bad), 10)], "; "))
	}
	return len(bad)
}

// countingHandler counts the client's log records by level and message, and passes them on
// to next when set.
type countingHandler struct {
	next   slog.Handler
	counts *logCounts
}

type logCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func newCountingHandler(next slog.Handler) *countingHandler {
	return &countingHandler{next: next, counts: &logCounts{n: map[string]int{}}}
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *countingHandler) Handle(ctx context.Context, r slog.Record) error {
	h.counts.mu.Lock()
	h.counts.n[r.Level.String()+" "+r.Message]++
	h.counts.mu.Unlock()
	if h.next != nil && h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *countingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	if h.next == nil {
		return h
	}
	return &countingHandler{next: h.next.WithAttrs(as), counts: h.counts}
}

func (h *countingHandler) WithGroup(g string) slog.Handler {
	if h.next == nil {
		return h
	}
	return &countingHandler{next: h.next.WithGroup(g), counts: h.counts}
}

func (h *countingHandler) summary() string {
	h.counts.mu.Lock()
	defer h.counts.mu.Unlock()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(h.counts.n)) {
		parts = append(parts, fmt.Sprintf("%q x%d", k, h.counts.n[k]))
	}
	return strings.Join(parts, ", ")
}

// verifyByJavaScan checks the acknowledged rows with HBase's own Java client (through the
// mini cluster's launcher), so that a bug shared by our writes and our reads cannot hide.
func verifyByJavaScan(t *testing.T, cl *hbasetest.Cluster, table string, acked map[string]string) {
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cells, err := cl.Scan(ctx, table)
	if err != nil {
		t.Errorf("Java client scan: %v", err)
		return
	}
	seen := make(map[string]string, len(cells))
	for _, c := range cells {
		if bytes.Equal(c.Family, chaosFamily) && bytes.Equal(c.Qualifier, chaosQualifier) {
			seen[string(c.Row)] = string(c.Value)
		}
	}
	bad := 0
	for row, want := range acked {
		if seen[row] != want {
			if bad++; bad <= 10 {
				t.Logf("Java client scan: row %s = %q, want %q", row, cmp.Or(seen[row], "<absent>"), want)
			}
		}
	}
	t.Logf("Java client scan: %d rows in %v", len(seen), time.Since(began).Round(time.Millisecond))
	if bad > 0 {
		t.Errorf("Java client scan: %d acknowledged rows missing or wrong", bad)
	}
}

// createFaultTable creates the table of a fault test with chaosFamily and splits, and drops it
// when the test ends.
func createFaultTable(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, table string, splits [][]byte) {
	t.Helper()
	if err := cl.CreateTable(ctx, table, []string{string(chaosFamily)}, splits); err != nil {
		t.Fatalf("creating %s: %v", table, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, table)
		_ = cl.DropTable(ctx, table)
	})
}

// faultTestLogs counts the client's log messages of a fault test; CHAOS_LOG=1 also prints
// them at debug level.
func faultTestLogs() *countingHandler {
	var next slog.Handler
	if os.Getenv("CHAOS_LOG") == "1" {
		next = slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})
	}
	return newCountingHandler(next)
}
