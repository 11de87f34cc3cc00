package engine

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/proto"
)

func TestReplicaRegionName(t *testing.T) {
	// What RegionInfo.createRegionName gives for replica 1 of "t,\x00a,b,1700000000000":
	// the replica suffix in 4 hex digits, then the MD5 of all before it as the encoded name.
	base := "t,\x00a,b,1700000000000"
	primary := []byte(base + ".0123456789abcdef0123456789abcdef.")
	got, err := replicaRegionName(primary, 0x1a)
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum([]byte(base + "_001A"))
	if want := base + "_001A." + hex.EncodeToString(sum[:]) + "."; string(got) != want {
		t.Fatalf("replica name %q, want %q", got, want)
	}
	if got, _ := replicaRegionName([]byte("t,,1."), 2); string(got) != "t,,1._0002" && string(got) != "t,,1_0002" {
		t.Logf("old-format name: %q", got)
	}
	for _, bad := range []int{0, -1, 0x10000} {
		if _, err := replicaRegionName(primary, bad); err == nil {
			t.Errorf("replica id %d accepted", bad)
		}
	}
	for q, want := range map[string]int{"server_0001": 1, "server_00ff": 255, "server_FFFF": 0xffff,
		"server_0000": 0, "server": 0, "server_1": 0, "server_zzzz": 0, "serverstartcode_0001": 0} {
		if id, _ := replicaOfQualifier([]byte(q)); id != want {
			t.Errorf("replicaOfQualifier(%q) = %d, want %d", q, id, want)
		}
	}
}

// replicaServer is a fake region server serving secondary replicas: every Get is answered
// with one cell whose value names the server, marked stale, after delay.
type replicaServer struct {
	srv   *fakeserver.Server
	gets  atomic.Int64
	names atomic.Value // []byte: the region name of the last Get
	delay time.Duration
	fail  string // when set, every Get fails with this exception class
}

func startReplicaServer(t testing.TB, value string, delay time.Duration, fail string) *replicaServer {
	t.Helper()
	rs := &replicaServer{delay: delay, fail: fail}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		var req pb.GetRequest
		if r.Method != "Get" || r.Unmarshal(&req) != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "unexpected")}
		}
		rs.gets.Add(1)
		rs.names.Store(req.GetRegion().GetValue())
		if rs.fail != "" {
			return fakeserver.Response{Exception: fakeserver.Exception(rs.fail, "injected")}
		}
		cells := wire.AppendCell(nil, &wire.Cell{Row: req.GetGet().GetRow(), Family: []byte("f"), Qualifier: []byte("q"),
			Type: wire.CellTypePut, Value: []byte(value)})
		return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1),
			Stale: proto.Bool(true)}}, Cells: cells, Delay: rs.delay}
	}})
	if err != nil {
		t.Fatal(err)
	}
	rs.srv = srv
	t.Cleanup(func() { srv.Close() })
	return rs
}

// primaryAnswer answers a data Get on the primary with one cell "primary".
func primaryAnswer(req *pb.GetRequest, delay time.Duration) fakeserver.Response {
	cells := wire.AppendCell(nil, &wire.Cell{Row: req.GetGet().GetRow(), Family: []byte("f"), Qualifier: []byte("q"),
		Type: wire.CellTypePut, Value: []byte("primary")})
	return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1),
		Stale: proto.Bool(false)}}, Cells: cells, Delay: delay}
}

const fakeEncoded = "0123456789abcdef0123456789abcdef"

func timelineGet(t testing.TB, row string, c hrpc.ConsistencyLevel) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet("t", []byte(row), hrpc.Consistency(c))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A primary that never answers (a partitioned server) does not hold up a Timeline Get: the
// secondaries answer after the hedge delay, marked stale, while a Strong Get waits for the
// primary as before. No goroutine is left behind.
func TestTimelineGetSilentPrimary(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // after the servers' cleanups
	sec1 := startReplicaServer(t, "sec1", 0, "")
	sec2 := startReplicaServer(t, "sec2", 0, "org.apache.hadoop.hbase.NotServingRegionException")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded,
		replicas: []string{sec1.srv.Addr(), sec2.srv.Addr()}})
	var silent atomic.Bool
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		if silent.Load() {
			return fakeserver.Response{NoReply: true}
		}
		return primaryAnswer(req, 0)
	}
	var hedges atomic.Int64
	var lastWinner atomic.Int64
	hooks := &hbasetrace.Hooks{Hedge: func(_ context.Context, ev hbasetrace.HedgeInfo) {
		hedges.Add(1)
		lastWinner.Store(int64(ev.Winner))
	}}
	const delay = 20 * time.Millisecond
	c := fc.client(t, WithHedgeDelay(delay), WithHooks(hooks))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// The primary answers: no hedge, not stale.
	res, err := c.Get(ctx, timelineGet(t, "r", hrpc.Timeline))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stale || string(res.Cells[0].Value) != "primary" {
		t.Fatalf("answer %q stale=%v, want the primary's", res.Cells[0].Value, res.Stale)
	}
	if s := c.Stats(); s.HedgesSent != 0 || s.StaleResults != 0 {
		t.Fatalf("stats %+v after a fast primary", s)
	}

	silent.Store(true)
	for i := range 5 {
		start := time.Now()
		res, err := c.Get(ctx, timelineGet(t, "r", hrpc.Timeline))
		took := time.Since(start)
		if err != nil {
			t.Fatalf("Timeline Get %d: %v", i, err)
		}
		if !res.Stale || string(res.Cells[0].Value) != "sec1" {
			t.Fatalf("answer %q stale=%v, want sec1's, stale", res.Cells[0].Value, res.Stale)
		}
		if took < delay {
			t.Fatalf("answered in %v, before the hedge delay %v", took, delay)
		}
		t.Logf("Timeline Get %d with a silent primary: %v", i, took)
	}
	want := replicaNameForTest(fc.regions[0].name(), 1)
	if got, _ := sec1.names.Load().([]byte); string(got) != want {
		t.Fatalf("secondary asked for region %q, want %q", got, want)
	}
	s := c.Stats()
	if s.HedgesWon != 5 || s.StaleResults != 5 || s.HedgesSent != 10 {
		t.Fatalf("stats: sent %d won %d stale %d, want 10, 5, 5", s.HedgesSent, s.HedgesWon, s.StaleResults)
	}
	if hedges.Load() != 5 || lastWinner.Load() != 1 {
		t.Fatalf("hedge events %d, last winner %d", hedges.Load(), lastWinner.Load())
	}

	// A Strong Get waits for the primary, as before.
	sctx, scancel := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err = c.Get(sctx, timelineGet(t, "r", hrpc.Strong))
	scancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Strong Get with a silent primary: %v, want its deadline", err)
	}
	c.Close()
}

func replicaNameForTest(primary []byte, id int) string {
	n, err := replicaRegionName(primary, id)
	if err != nil {
		panic(err)
	}
	return string(n)
}

// A primary that fails at once sends the read to the secondaries without waiting for the
// delay; when every replica fails the primary's error is returned.
func TestTimelineGetPrimaryFails(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // after the servers' cleanups
	sec := startReplicaServer(t, "sec1", 0, "")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	fc.onGet = func(int64, *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "primary broken")}
	}
	c := fc.client(t, WithHedgeDelay(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := c.Get(ctx, timelineGet(t, "r", hrpc.Timeline))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stale {
		t.Fatal("answer not stale")
	}
	sec.fail = "org.apache.hadoop.hbase.DoNotRetryIOException"
	_, err = c.Get(ctx, timelineGet(t, "r", hrpc.Timeline))
	if err == nil {
		t.Fatal("no error with every replica failing")
	}
	if want := "primary broken"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v does not name the primary's failure %q", err, want)
	}
	c.Close()
}

// The budget caps hedges while the primary answers, slowly: with every read past the delay,
// at most the budget's share (plus its burst) sends hedges.
func TestTimelineHedgeBudget(t *testing.T) {
	// The secondary is 50 times slower than the primary, so that only a primary held up for
	// a quarter of a second lets it win: a loaded 2-core machine held one up past 55 ms once.
	sec := startReplicaServer(t, "sec1", 250*time.Millisecond, "")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return primaryAnswer(req, 5*time.Millisecond) }
	c := fc.client(t, WithHedgeDelay(time.Millisecond), WithHedgeBudget(0.1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const reads = 200
	for range reads {
		res, err := c.Get(ctx, timelineGet(t, "r", hrpc.Timeline))
		if err != nil {
			t.Fatal(err)
		}
		if res.Stale {
			t.Fatal("a slower secondary won")
		}
	}
	s := c.Stats()
	// A few reads may be hedged outside the budget: the first ones, before the primary's
	// latency is known, and any whose answer comes later than 3 times its 99th percentile
	// (a slow test machine), which counts as silence.
	if max := uint64(hedgeBurst + reads/10 + 5); s.HedgesSent > max {
		t.Fatalf("%d hedges for %d slow reads, want at most %d", s.HedgesSent, reads, max)
	}
	if s.HedgesSent < reads/10 {
		t.Fatalf("only %d hedges for %d slow reads: the budget should allow %d", s.HedgesSent, reads, reads/10)
	}
	t.Logf("%d reads past the delay, %d hedges", reads, s.HedgesSent)
}

// The adaptive delay follows the primary's 95th percentile between floor and ceiling.
func TestAdaptiveHedgeDelay(t *testing.T) {
	h := newHedger(HedgeConfig{Delay: 10 * time.Millisecond, Adaptive: true, Floor: time.Millisecond, Ceiling: 50 * time.Millisecond})
	w := h.window("s:1")
	if d := h.delayFor(w); d != 10*time.Millisecond {
		t.Fatalf("delay %v before samples, want the fixed one", d)
	}
	now := time.Now()
	for i := range 100 {
		d := 2 * time.Millisecond
		if i%20 == 0 {
			d = 100 * time.Millisecond // 5% slow
		}
		w.answered(now, d)
	}
	if d := h.delayFor(w); d < 2*time.Millisecond || d > 3*time.Millisecond {
		t.Fatalf("delay %v, want about the p95, 2ms", d)
	}
	for range 100 {
		w.answered(now, 200*time.Millisecond)
	}
	if d := h.delayFor(w); d != 50*time.Millisecond {
		t.Fatalf("delay %v, want the ceiling", d)
	}
	later := now.Add(hedgeWindow + time.Second) // a new window: the slow answers age out
	for range 400 {
		w.answered(later, 10*time.Microsecond)
	}
	if d := h.delayFor(w); d != time.Millisecond {
		t.Fatalf("delay %v, want the floor", d)
	}
}

// With no budget at all, a primary that falls silent still does not hold up Timeline Gets:
// once it has answered nothing for its silence threshold (twice the delay here: it was fast)
// the reads go to the secondaries.
func TestTimelineSilentPrimaryOutsideBudget(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	sec := startReplicaServer(t, "sec1", 0, "")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	var silent atomic.Bool
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		if silent.Load() {
			return fakeserver.Response{NoReply: true}
		}
		return primaryAnswer(req, 0)
	}
	const delay = 10 * time.Millisecond
	c := fc.client(t, WithHedgeDelay(delay), WithHedgeBudget(0))
	for range 20 {
		if _, err := c.Get(testContext(t, 5*time.Second), timelineGet(t, "r", hrpc.Timeline)); err != nil {
			t.Fatal(err)
		}
	}
	if s := c.Stats(); s.HedgesSent != 0 {
		t.Fatalf("%d hedges while the primary answered within the delay", s.HedgesSent)
	}
	silent.Store(true)
	var worst time.Duration
	for i := range 10 {
		start := time.Now()
		res, err := c.Get(testContext(t, time.Second), timelineGet(t, "r", hrpc.Timeline))
		if err != nil {
			t.Fatalf("Timeline Get %d with a silent primary and no budget: %v", i, err)
		}
		if !res.Stale {
			t.Fatalf("Timeline Get %d not stale", i)
		}
		worst = max(worst, time.Since(start))
	}
	t.Logf("slowest Timeline Get with a silent primary and no budget: %v (delay %v)", worst, delay)
	c.Close()
}

// With hooks, a Timeline Get a secondary answered is one call that succeeded, on the
// secondary, and its Hedge event names the winner.
func TestTimelineGetHooks(t *testing.T) {
	sec := startReplicaServer(t, "sec1", 0, "")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	fc.onGet = func(int64, *pb.GetRequest) fakeserver.Response { return fakeserver.Response{NoReply: true} }
	var done []hbasetrace.CallDoneInfo
	var hedgesSeen []hbasetrace.HedgeInfo
	var mu sync.Mutex // the secondary's attempts are reported from its leg's goroutine
	var attempts []hbasetrace.AttemptInfo
	hooks := &hbasetrace.Hooks{
		CallDone: func(_ context.Context, ev hbasetrace.CallDoneInfo) { done = append(done, ev) },
		Hedge:    func(_ context.Context, ev hbasetrace.HedgeInfo) { hedgesSeen = append(hedgesSeen, ev) },
		Attempt: func(_ context.Context, ev hbasetrace.AttemptInfo) {
			mu.Lock()
			attempts = append(attempts, ev)
			mu.Unlock()
		},
	}
	c := fc.client(t, WithHedgeDelay(5*time.Millisecond), WithHooks(hooks))
	if _, err := c.Get(testContext(t, 5*time.Second), timelineGet(t, "r", hrpc.Timeline)); err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].Err != nil || done[0].Server != sec.srv.Addr() || done[0].Op != "Get" {
		t.Fatalf("CallDone events %+v, want one success on the secondary %s", done, sec.srv.Addr())
	}
	if len(hedgesSeen) != 1 || hedgesSeen[0].Winner != 1 || hedgesSeen[0].Sent != 1 || hedgesSeen[0].Primary != fc.srv.Addr() {
		t.Fatalf("Hedge events %+v", hedgesSeen)
	}
	mu.Lock()
	defer mu.Unlock()
	var onSecondary int
	for _, a := range attempts {
		if a.Server == sec.srv.Addr() {
			onSecondary++
			if a.Err != nil || a.Attempt != 1 || !strings.Contains(string(a.Region), "_0001") || a.ResponseBytes == 0 {
				t.Errorf("the secondary's Attempt event %+v, want the first of its leg, successful, on replica 1", a)
			}
		}
	}
	if onSecondary != 1 {
		t.Fatalf("%d Attempt events on the secondary, want 1: %+v", onSecondary, attempts)
	}
}

// A batch's Timeline Gets are hedged one by one, its other calls go in MultiRequests; errors
// are OpErrors as for every call of a batch.
func TestTimelineBatch(t *testing.T) {
	sec := startReplicaServer(t, "sec1", 0, "")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	fc.onGet = func(int64, *pb.GetRequest) fakeserver.Response { return fakeserver.Response{NoReply: true} }
	c := fc.client(t, WithHedgeDelay(5*time.Millisecond))
	strong, _ := hrpc.NewGet("t", []byte("s"))
	results := c.SendBatch(testContext(t, 5*time.Second), []hrpc.Batchable{
		timelineGet(t, "a", hrpc.Timeline), strong, timelineGet(t, "b", hrpc.Timeline)})
	for i, r := range results {
		if r.Err != nil {
			t.Fatalf("call %d: %v", i, r.Err)
		}
	}
	if !results[0].Result.Stale || !results[2].Result.Stale || results[1].Result.Stale {
		t.Fatalf("stale: %v %v %v", results[0].Result.Stale, results[1].Result.Stale, results[2].Result.Stale)
	}
	if fc.multis.Load() != 1 || fc.actions.Load() != 1 {
		t.Fatalf("%d MultiRequests of %d actions, want the Strong Get alone in one", fc.multis.Load(), fc.actions.Load())
	}
	sec.fail = "org.apache.hadoop.hbase.DoNotRetryIOException"
	results = c.SendBatch(testContext(t, 200*time.Millisecond), []hrpc.Batchable{timelineGet(t, "a", hrpc.Timeline)})
	if _, ok := errors.AsType[*hberr.OpError](results[0].Err); !ok {
		t.Fatalf("error %v (%T), want an OpError", results[0].Err, results[0].Err)
	}
}

// The allocations of a Timeline Get whose primary answers within the delay, beside a Strong
// Get's (TestGetAllocations): the hedge's timer and race are reused, and the primary leg makes
// no context of its own (callRun.stop), so both are 2.
func TestTimelineGetAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	row := []byte("row")
	c := startLeanGetServer(t, row)
	ctx := context.Background()
	strong, _ := hrpc.NewGet("t", row)
	if _, err := c.Get(ctx, strong); err != nil {
		t.Fatal(err)
	}
	r := c.cache.get([]byte("t"), row)
	rep := &regionInfo{table: r.table, start: r.start, end: r.end, name: []byte("t,,10001_0001"), id: r.id,
		replicaID: 1, addr: r.location()}
	r.setReplicas([]*regionInfo{rep})
	c2 := c // the same client: the hedge delay is the default 10 ms, far above this server's answers
	timeline := timelineGet(t, "row", hrpc.Timeline)
	strongAllocs := testing.AllocsPerRun(200, func() { _, _ = c2.Get(ctx, strong) })
	timelineAllocs := testing.AllocsPerRun(200, func() { _, _ = c2.Get(ctx, timeline) })
	t.Logf("allocations per Get: Strong %.0f, Timeline with a prompt primary %.0f; hedges sent %d",
		strongAllocs, timelineAllocs, c.Stats().HedgesSent)
	if c.Stats().HedgesSent != 0 {
		t.Fatal("a prompt primary was hedged")
	}
	if timelineAllocs > strongAllocs+4 { // the primary leg's context (3); a recycled race and timer (0)
		t.Fatalf("a Timeline Get allocates %.0f times, a Strong one %.0f", timelineAllocs, strongAllocs)
	}
}

// A primary server lags when its 95th percentile is past the hedge delay and lagRatio times
// the middle one of its peers'; not when most servers are as slow (two of three), nor without peers.
func TestHedgeLagging(t *testing.T) {
	const d = 10 * time.Millisecond
	now := time.Now()
	setup := func(p95s ...time.Duration) (*hedger, []*primaryWindow) {
		h := newHedger(DefaultHedgeConfig())
		var ws []*primaryWindow
		for i, p := range p95s {
			w := h.window(fmt.Sprintf("s:%d", i))
			for range hedgeMinSamples * 2 {
				w.answered(now, p)
			}
			ws = append(ws, w)
		}
		return h, ws
	}
	for _, tc := range []struct {
		name string
		p95s []time.Duration
		lags []bool
	}{
		{"one slow server", []time.Duration{50 * time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond}, []bool{true, false, false}},
		{"a slow cluster", []time.Duration{50 * time.Millisecond, 40 * time.Millisecond, 30 * time.Millisecond}, []bool{false, false, false}},
		{"half slow", []time.Duration{50 * time.Millisecond, 45 * time.Millisecond, 2 * time.Millisecond, 2 * time.Millisecond}, []bool{true, true, false, false}},
		{"most slow", []time.Duration{50 * time.Millisecond, 45 * time.Millisecond, 40 * time.Millisecond, 2 * time.Millisecond}, []bool{false, false, false, false}},
		{"two of three slow", []time.Duration{50 * time.Millisecond, 45 * time.Millisecond, 2 * time.Millisecond}, []bool{false, false, false}},
		{"slow within the delay", []time.Duration{8 * time.Millisecond, time.Millisecond, time.Millisecond}, []bool{false, false, false}},
		{"slower, not 4 times", []time.Duration{30 * time.Millisecond, 12 * time.Millisecond, 8 * time.Millisecond}, []bool{false, false, false}},
		{"no peer", []time.Duration{50 * time.Millisecond}, []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ws := setup(tc.p95s...)
			for i, w := range ws {
				if got := h.lagging(w, now, d); got != tc.lags[i] {
					t.Errorf("server %d (p95 %v): lagging %v, want %v", i, tc.p95s[i], got, tc.lags[i])
				}
			}
		})
	}
	// The verdict is kept for lagRecheck, then judged again: here the peers became as slow.
	h, ws := setup(50*time.Millisecond, 2*time.Millisecond)
	if !h.lagging(ws[0], now, d) {
		t.Fatal("not lagging a fast peer")
	}
	later := now.Add(hedgeWindow + time.Second)
	for range hedgeMinSamples * 2 {
		ws[1].answered(later, 60*time.Millisecond)
	}
	if !h.lagging(ws[0], now.Add(lagRecheck/2), d) {
		t.Fatal("verdict not kept for lagRecheck")
	}
	if h.lagging(ws[0], now.Add(lagRecheck), d) {
		t.Fatal("still lagging a peer as slow as itself")
	}

	// Hedged early, a lagging server's reads are known only to take at least the time a
	// secondary took: its 95th percentile falls to its peers'. It keeps lagging while a fifth
	// of its reads are late, and its delay is its peers' 95th percentile (adaptive).
	h = newHedger(HedgeConfig{Delay: d, Adaptive: true, Floor: time.Millisecond, Ceiling: d, Budget: DefaultHedgeBudget})
	slow, fast := h.window("slow:1"), h.window("fast:1")
	for range hedgeMinSamples * 2 {
		slow.answered(now, 50*time.Millisecond)
		fast.answered(now, 2*time.Millisecond)
	}
	if !h.lagging(slow, now, h.delayFor(slow)) {
		t.Fatal("not lagging at p95 50ms against 2ms")
	}
	if got := h.lagDelay(slow); got < 2*time.Millisecond || got > 2100*time.Microsecond {
		t.Fatalf("lagging delay %v, want the peer's p95, 2ms", got)
	}
	next := later.Add(hedgeWindow + time.Second) // the 50 ms answers age out
	for i := range 400 {
		if i%3 == 0 {
			slow.noteLate(next)
		}
		slow.answered(next, 3*time.Millisecond)
		fast.answered(next, 2*time.Millisecond)
	}
	if !h.lagging(slow, next, h.delayFor(slow)) {
		t.Fatalf("a third of its reads late (%.2f), p95 3ms: stopped lagging", slow.lateShare())
	}
	recovered := next.Add(2 * (hedgeWindow + time.Second))
	for i := range 400 {
		if i%20 == 0 {
			slow.noteLate(recovered)
		}
		slow.answered(recovered, 2*time.Millisecond)
		fast.answered(recovered, 2*time.Millisecond)
	}
	if h.lagging(slow, recovered, h.delayFor(slow)) {
		t.Fatalf("5%% of its reads late (%.2f): still lagging", slow.lateShare())
	}
}
