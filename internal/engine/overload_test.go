package engine

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

const cqtbe = "org.apache.hadoop.hbase.CallQueueTooBigException"

// overloadHooks count the Backoff hook's overload pauses and backpressure delays.
type overloadHooks struct {
	pauses, delays atomic.Int64
	mu             sync.Mutex
	servers        []string
}

func (h *overloadHooks) hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{Backoff: func(_ context.Context, ev hbasetrace.BackoffInfo) {
		if ev.Overloaded {
			h.pauses.Add(1)
		}
		if ev.Backpressure {
			h.delays.Add(1)
			h.mu.Lock()
			h.servers = append(h.servers, ev.Server)
			h.mu.Unlock()
		}
	}}
}

// A call refused by an overloaded server (CallQueueTooBig, or any exception the server flags
// as overloaded) is retried after the overload pause, which doubles with each refusal: half
// to all of 40, 80, 160 ms here, against the 1 ms cap of other errors. Stats and the hooks
// count the refusals and pauses.
func TestOverloadPause(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var mu sync.Mutex
	var times []time.Time
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		switch n {
		case 1, 2:
			return fakeserver.Response{Exception: fakeserver.Exception(cqtbe, "Call queue is full")}
		case 3:
			// Any class, flagged by the server (HBaseServerException.isServerOverloaded).
			ex := fakeserver.Exception("org.apache.hadoop.hbase.HBaseServerException", "overloaded")
			ex.ServerOverloaded = proto.Bool(true)
			return fakeserver.Response{Exception: ex}
		}
		return cellResult(req)
	}
	var h overloadHooks
	c := fc.client(t, WithMaxBackoff(time.Millisecond), WithOverloadPause(40*time.Millisecond), WithHooks(h.hooks()))
	if _, err := c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 4 {
		t.Fatalf("server saw %d Gets; want 4", len(times))
	}
	for i, nominal := range []time.Duration{40, 80, 160} {
		nominal *= time.Millisecond
		if d := times[i+1].Sub(times[i]); d < nominal/2 {
			t.Errorf("pause %d after an overload refusal = %v; want at least %v", i+1, d, nominal/2)
		}
	}
	st := c.Stats()
	if st.OverloadErrors != 3 || st.OverloadPauses != 3 || st.OverloadPauseTime < 140*time.Millisecond || h.pauses.Load() != 3 {
		t.Errorf("Stats: %d overload errors, %d pauses of %v; hooks %d pauses; want 3, 3, ≥ 140ms, 3",
			st.OverloadErrors, st.OverloadPauses, st.OverloadPauseTime, h.pauses.Load())
	}
}

// Refusals count toward the attempt cap: a server that refuses every call gets
// WithMaxAttempts sends of it, no more, and the error says it was overloaded.
func TestOverloadAttemptCap(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = func(int64, *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.CallDroppedException", "dropped")}
	}
	c := fc.client(t, WithMaxAttempts(3), WithOverloadPause(time.Millisecond))
	_, err := c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "row"))
	if !errors.Is(err, hberr.ErrAttemptsExhausted) || !hberr.IsOverloaded(err) || hberr.Class(err) != hberr.ClassOverloaded {
		t.Fatalf("err = %v (class %s); want attempts exhausted and overloaded", err, hberr.Class(err))
	}
	if n := fc.gets.Load(); n != 3 {
		t.Errorf("server saw %d Gets; want 3", n)
	}
}

// The caller's context bounds the pauses: a server that keeps refusing gets as many sends as
// the pauses (at least half of 100, 200, 400 ms) leave room for in 300 ms, and the call ends
// at its deadline with the refusal as its last error.
func TestOverloadBoundedByContext(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = func(int64, *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception(cqtbe, "Call queue is full")}
	}
	c := fc.client(t, WithOverloadPause(100*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Get(ctx, mustGetT(t, "t", "row"))
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || !hberr.IsOverloaded(err) {
		t.Fatalf("err = %v; want the deadline with an overload refusal as the last error", err)
	}
	if n := fc.gets.Load(); n < 2 || n > 3 {
		t.Errorf("server saw %d Gets in 300ms; want 2 or 3 (pauses of 50-100 ms, then 100-200 ms)", n)
	}
	if took > time.Second {
		t.Errorf("call took %v with a 300ms deadline", took)
	}
}

// A batch refused as a whole waits the overload pause before sending its actions again.
func TestOverloadPauseInBatch(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var mu sync.Mutex
	var times []time.Time
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if n <= 2 {
			return fakeserver.Response{Exception: fakeserver.Exception(cqtbe, "Call queue is full")}
		}
		return fc.multi(n, req)
	}
	var h overloadHooks
	c := fc.client(t, WithMaxBackoff(time.Millisecond), WithOverloadPause(40*time.Millisecond), WithHooks(h.hooks()))
	calls := []hrpc.Batchable{mustGetT(t, "t", "a"), mustGetT(t, "t", "b")}
	for i, r := range c.SendBatch(testContext(t, 10*time.Second), calls) {
		if r.Err != nil {
			t.Fatalf("call %d: %v", i, r.Err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 3 {
		t.Fatalf("server saw %d Multis; want 3", len(times))
	}
	for i, nominal := range []time.Duration{40, 80} {
		nominal *= time.Millisecond
		if d := times[i+1].Sub(times[i]); d < nominal/2 {
			t.Errorf("batch pause %d after an overload refusal = %v; want at least %v", i+1, d, nominal/2)
		}
	}
	if st := c.Stats(); st.OverloadErrors != 2 || st.OverloadPauses != 2 || h.pauses.Load() != 2 {
		t.Errorf("Stats: %d overload errors, %d pauses; hooks %d; want 2, 2, 2", st.OverloadErrors, st.OverloadPauses, h.pauses.Load())
	}
}

// ExponentialClientBackoffPolicy's arithmetic: max × p⁴, p the highest of the memstore load,
// the heap occupancy scaled from 0.1 at 95 % to 1 at 98 %, and the compaction pressure.
func TestBackpressureDelayArithmetic(t *testing.T) {
	const maxDelay = 10 * time.Second
	tests := []struct {
		l    regionLoad
		want time.Duration
	}{
		{regionLoad{}, 0},
		{regionLoad{memstore: 50}, maxDelay / 16},
		{regionLoad{memstore: 100}, maxDelay},
		{regionLoad{heap: 94}, 0},                                         // below the low watermark
		{regionLoad{heap: 95}, time.Duration(0.0001 * float64(maxDelay))}, // 0.1⁴
		{regionLoad{heap: 99}, maxDelay},                                  // capped at the high watermark: 1
		{regionLoad{compaction: 50, memstore: 10}, maxDelay / 16},
		{regionLoad{memstore: percent(250)}, maxDelay}, // clamped
		{regionLoad{memstore: percent(-5)}, 0},
	}
	for i, tc := range tests {
		got := backpressureDelay(tc.l, maxDelay)
		if d := got - tc.want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("%d: backpressureDelay(%+v) = %v; want %v", i, tc.l, got, tc.want)
		}
	}
	// heap 96 %: p = 0.1 + 0.9 × (0.96 - 0.95) / 0.03 = 0.4
	if got, want := backpressureDelay(regionLoad{heap: 96}, maxDelay), time.Duration(0.4*0.4*0.4*0.4*float64(maxDelay)); got < want*9/10 || got > want*11/10 {
		t.Errorf("heap 96%%: %v; want about %v", got, want)
	}
}

// With WithBackpressure, the region statistics of a MultiResponse delay the next writes to
// that region: batches holding mutations and single mutations, not reads; the delay is
// bounded by the caller's context (no RPC is sent then) and counted.
func TestBackpressureDelaysWrites(t *testing.T) {
	reg := fakeRegion{table: "t", id: 1}
	fc := newFakeCluster(t, reg)
	var load atomic.Int32
	load.Store(100)
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		resp := fc.multi(n, req)
		mr := resp.Msg.(*pb.MultiResponse)
		mr.RegionStatistics = &pb.MultiRegionLoadStats{
			Region: []*pb.RegionSpecifier{{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: reg.name()}},
			Stat:   []*pb.RegionLoadStats{{MemStoreLoad: proto.Int32(load.Load())}},
		}
		return resp
	}
	var h overloadHooks
	const maxDelay = 150 * time.Millisecond
	c := fc.client(t, WithBackpressure(maxDelay), WithHooks(h.hooks()))
	ctx := testContext(t, 10*time.Second)
	put := func(row string) *hrpc.Put {
		p, err := hrpc.NewPut("t", []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	batch := func(calls ...hrpc.Batchable) time.Duration {
		start := time.Now()
		for i, r := range c.SendBatch(ctx, calls) {
			if r.Err != nil {
				t.Fatalf("call %d: %v", i, r.Err)
			}
		}
		return time.Since(start)
	}
	if d := batch(put("a")); d > maxDelay/2 {
		t.Errorf("first batch took %v: no statistics yet, no delay", d)
	}
	if d := batch(put("b"), mustGetT(t, "t", "x")); d < maxDelay {
		t.Errorf("batch after a 100%% memstore load took %v; want at least %v", d, maxDelay)
	}
	if d := batch(mustGetT(t, "t", "x")); d > maxDelay/2 {
		t.Errorf("a batch of reads took %v: reads are not delayed", d)
	}
	start := time.Now()
	if _, err := c.Put(ctx, put("c")); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < maxDelay {
		t.Errorf("single Put after a 100%% memstore load took %v; want at least %v", d, maxDelay)
	}
	if _, err := c.Get(ctx, mustGetT(t, "t", "x")); err != nil {
		t.Fatal(err)
	}
	st := c.Stats()
	if st.BackpressureDelays != 2 || st.BackpressureTime < 2*maxDelay || h.delays.Load() != 2 {
		t.Errorf("Stats: %d delays of %v, hooks %d; want 2, ≥ %v, 2", st.BackpressureDelays, st.BackpressureTime, h.delays.Load(), 2*maxDelay)
	}
	h.mu.Lock()
	for _, s := range h.servers {
		if s != fc.srv.Addr() {
			t.Errorf("backpressure hook named server %q; want %q", s, fc.srv.Addr())
		}
	}
	h.mu.Unlock()

	// A deadline shorter than the delay: nothing is sent, the call ends at its deadline.
	mutates := fc.mutates.Load()
	short, cancel := context.WithTimeout(ctx, maxDelay*2/3) // room for a loaded machine, still short of the delay
	defer cancel()
	_, err := c.Put(short, put("d"))
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errBackpressure) {
		t.Errorf("Put with a deadline shorter than the delay: err = %v; want the deadline, after backpressure", err)
	}
	if fc.mutates.Load() != mutates {
		t.Errorf("the Put was sent although its deadline ended while it was held")
	}

	// A low load delays little: 20 % → max × 0.0016.
	load.Store(20)
	batch(put("e"))
	if d := batch(put("f")); d > maxDelay/2 {
		t.Errorf("batch after a 20%% memstore load took %v", d)
	}
}

// Priority and request attributes go in the RequestHeader of each call's RPC; a batch takes
// the highest priority of its calls and the attributes of all of them; connection
// attributes go in every connection's header.
func TestPriorityAndAttributesOnTheWire(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var mu sync.Mutex
	headers := map[string]*pb.RequestHeader{}
	fc.onRequest = func(r *fakeserver.Request) {
		mu.Lock()
		headers[r.Method] = r.Header
		mu.Unlock()
	}
	// The batches' atomic region actions (CheckAndMutate, RowMutations) need their verdict.
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		resp := fc.multi(n, req)
		for i, ra := range req.GetRegionAction() {
			if ra.GetAtomic() {
				resp.Msg.(*pb.MultiResponse).RegionActionResult[i].Processed = proto.Bool(true)
			}
		}
		return resp
	}
	attrs := func(h *pb.RequestHeader) string {
		var b bytes.Buffer
		for _, a := range h.GetAttribute() {
			b.WriteString(a.GetName() + "=" + string(a.GetValue()) + ";")
		}
		return b.String()
	}
	// check compares the header of the last request of method with want.
	check := func(what, method string, priority uint32, want string) {
		t.Helper()
		mu.Lock()
		h := headers[method]
		delete(headers, method)
		mu.Unlock()
		if h.GetPriority() != priority || attrs(h) != want {
			t.Errorf("%s: %s header priority %d, attributes %q; want %d, %q", what, method, h.GetPriority(), attrs(h), priority, want)
		}
	}
	c := fc.client(t, WithConnectionAttribute("app", []byte("a")), WithConnectionAttribute("app", []byte("b")),
		WithConnectionAttribute("k\x00", nil))
	ctx := testContext(t, 10*time.Second)
	get, err := hrpc.NewGet("t", []byte("r"), hrpc.Priority(7), hrpc.RequestAttribute("x", []byte{0, ','}),
		hrpc.RequestAttribute("y", nil), hrpc.RequestAttribute("x", []byte("2")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, get); err != nil {
		t.Fatal(err)
	}
	check("Get", "Get", 7, "x=2;y=;")
	p1, _ := hrpc.NewPut("t", []byte("a"), hrpc.Value([]byte("f"), []byte("q"), nil), hrpc.Priority(3), hrpc.RequestAttribute("p", []byte("1")))
	p2, _ := hrpc.NewPut("t", []byte("b"), hrpc.Value([]byte("f"), []byte("q"), nil), hrpc.Priority(201), hrpc.RequestAttribute("p", []byte("2")))
	for _, r := range c.SendBatch(ctx, []hrpc.Batchable{p1, p2, mustGetT(t, "t", "c")}) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	check("batch of Puts and a Get", "Multi", 201, "p=1;")

	// A CheckAndMutate and RowMutations carry their own options and those of their mutations:
	// the highest priority, each attribute name once (their own value first).
	f := []byte("f")
	inner, _ := hrpc.NewPut("t", []byte("c"), hrpc.Value(f, f, nil), hrpc.Priority(2),
		hrpc.RequestAttribute("m", []byte("put")), hrpc.RequestAttribute("pm", []byte("1")))
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists(f, f), inner, hrpc.Priority(5),
		hrpc.RequestAttribute("cam", []byte("1")), hrpc.RequestAttribute("m", []byte("own")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CheckAndMutate(ctx, cam); err != nil {
		t.Fatal(err)
	}
	check("CheckAndMutate", "Mutate", 5, "cam=1;m=own;pm=1;")
	plain, _ := hrpc.NewCheckAndMutate(hrpc.IfNotExists(f, f), inner)
	if _, err := c.CheckAndMutate(ctx, plain); err != nil {
		t.Fatal(err)
	}
	check("CheckAndMutate without options", "Mutate", 2, "m=put;pm=1;")
	rp, _ := hrpc.NewPut("t", []byte("d"), hrpc.Value(f, f, nil), hrpc.Priority(8), hrpc.RequestAttribute("a", []byte("1")))
	rd, _ := hrpc.NewDelete("t", []byte("d"), hrpc.RequestAttribute("b", []byte("2")), hrpc.RequestAttribute("a", []byte("del")))
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{rp, rd}, hrpc.Priority(6), hrpc.RequestAttribute("rm", []byte("1")))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.MutateRow(ctx, rm); err != nil {
		t.Fatal(err)
	}
	check("MutateRow", "Multi", 8, "rm=1;a=1;b=2;")
	camRow, err := hrpc.NewCheckAndMutateRow(hrpc.IfNotExists(f, f), rm, hrpc.Priority(9), hrpc.RequestAttribute("rm", []byte("row")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CheckAndMutate(ctx, camRow); err != nil {
		t.Fatal(err)
	}
	check("CheckAndMutate of RowMutations", "Multi", 9, "rm=row;a=1;b=2;")

	// In a batch beside a Put at priority 3: the highest priority of all and every call's
	// attributes, a name's value from the call first in the batch, though the request puts
	// atomic region actions after the Put.
	bp, _ := hrpc.NewPut("t", []byte("e"), hrpc.Value(f, f, nil), hrpc.Priority(3),
		hrpc.RequestAttribute("p", []byte("3")), hrpc.RequestAttribute("k", []byte("put")))
	bi, _ := hrpc.NewPut("t", []byte("g"), hrpc.Value(f, f, nil))
	bcam, _ := hrpc.NewCheckAndMutate(hrpc.IfNotExists(f, f), bi, hrpc.Priority(7),
		hrpc.RequestAttribute("k", []byte("cam")), hrpc.RequestAttribute("c", []byte("1")))
	bri, _ := hrpc.NewPut("t", []byte("h"), hrpc.Value(f, f, nil))
	brm, _ := hrpc.NewRowMutations([]hrpc.Mutation{bri}, hrpc.Priority(4), hrpc.RequestAttribute("r", []byte("1")))
	for i, r := range c.SendBatch(ctx, []hrpc.Batchable{bcam, bp, brm}) {
		if r.Err != nil {
			t.Fatalf("batch call %d: %v", i, r.Err)
		}
	}
	check("batch of a CheckAndMutate, a Put and RowMutations", "Multi", 7, "p=3;k=cam;c=1;r=1;")
	brm9, _ := hrpc.NewRowMutations([]hrpc.Mutation{bri}, hrpc.Priority(9))
	for i, r := range c.SendBatch(ctx, []hrpc.Batchable{bp, brm9}) {
		if r.Err != nil {
			t.Fatalf("batch call %d: %v", i, r.Err)
		}
	}
	check("batch of a Put and RowMutations", "Multi", 9, "p=3;k=put;")

	for _, ch := range fc.srv.ConnectionHeaders() {
		a := ch.GetAttribute()
		if len(a) != 2 || a[0].GetName() != "app" || string(a[0].GetValue()) != "b" || a[1].GetName() != "k\x00" || a[1].Value != nil {
			t.Errorf("connection header attributes %v; want app=b and k\\x00 without a value", a)
		}
	}
	for _, bad := range []struct {
		name string
		opt  hrpc.RequestOption
	}{{"Priority(-1)", hrpc.Priority(-1)}, {"RequestAttribute(\"\")", hrpc.RequestAttribute("", nil)}} {
		if _, err := hrpc.NewGet("t", []byte("r"), bad.opt); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("NewGet with %s: err = %v; want ErrBadRequest", bad.name, err)
		}
		if _, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists(f, f), inner, bad.opt); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("NewCheckAndMutate with %s: err = %v; want ErrBadRequest", bad.name, err)
		}
		if _, err := hrpc.NewCheckAndMutateRow(hrpc.IfNotExists(f, f), rm, bad.opt); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("NewCheckAndMutateRow with %s: err = %v; want ErrBadRequest", bad.name, err)
		}
		if _, err := hrpc.NewRowMutations([]hrpc.Mutation{rp}, bad.opt); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("NewRowMutations with %s: err = %v; want ErrBadRequest", bad.name, err)
		}
	}
}

// A Get with a priority and request attributes allocates no more than one without: they are
// built into the request once, when it is made, and encoded into the frame's buffer.
func TestGetAllocationsWithHeaderFields(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	c := startLeanGetServer(t, []byte("row"))
	get, _ := hrpc.NewGet("t", []byte("row"), hrpc.Priority(5), hrpc.RequestAttribute("tenant", []byte("a")))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := c.Get(ctx, get); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(500, func() {
		if res, err := c.Get(ctx, get); err != nil || len(res.Cells) != 1 {
			t.Fatal(res, err)
		}
	})
	if allocs > 2 {
		t.Errorf("a Get with a priority and a request attribute allocates %.1f times, want at most 2", allocs)
	}
}
