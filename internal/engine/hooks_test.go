package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// eventLog is a hbasetrace.Hooks that writes every event down.
type eventLog struct {
	mu     sync.Mutex
	events []string
	done   []hbasetrace.CallDoneInfo
	tries  []hbasetrace.AttemptInfo
	traced []context.Context
}

type ctxMark struct{}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *eventLog) hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		CallStart: func(ctx context.Context, ev hbasetrace.CallStartInfo) context.Context {
			l.add("start %s %s/%s", ev.Op, ev.Table, ev.Row)
			ctx = context.WithValue(ctx, ctxMark{}, ev.Op)
			ctx, err := hbasetrace.ContextWithTraceHeaders(ctx, map[string]string{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
			if err != nil {
				panic(err)
			}
			return ctx
		},
		CallDone: func(ctx context.Context, ev hbasetrace.CallDoneInfo) {
			l.add("done %s %s", ev.Op, ev.Class)
			l.mu.Lock()
			l.done = append(l.done, ev)
			l.traced = append(l.traced, ctx)
			l.mu.Unlock()
		},
		Attempt: func(ctx context.Context, ev hbasetrace.AttemptInfo) {
			l.add("attempt %s %d %s", ev.Op, ev.Attempt, ev.Class)
			l.mu.Lock()
			l.tries = append(l.tries, ev)
			l.mu.Unlock()
		},
		Retry: func(ctx context.Context, ev hbasetrace.RetryInfo) {
			l.add("retry %s %d %s relocate=%v", ev.Op, ev.Attempt, ev.Class, ev.Relocate)
		},
		Backoff: func(ctx context.Context, ev hbasetrace.BackoffInfo) {
			if ctx.Value(ctxMark{}) != nil { // a call's pause, not a background re-lookup's
				l.add("backoff %d", ev.Count)
			}
		},
		RegionCache: func(ctx context.Context, ev hbasetrace.RegionCacheInfo) { l.add("cache %s hit=%v", ev.Row, ev.Hit) },
		Lookup: func(ev hbasetrace.LookupInfo) {
			l.add("lookup %s/%s err=%v", ev.Table, ev.Row, ev.Err != nil)
		},
		Dial:       func(ev hbasetrace.DialInfo) { l.add("dial err=%v", ev.Err != nil) },
		Connect:    func(ev hbasetrace.ConnectInfo) { l.add("connect err=%v", ev.Err != nil) },
		ConnClosed: func(ev hbasetrace.ConnClosedInfo) { l.add("closed err=%v", ev.Err != nil) },
	}
}

func (l *eventLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// hookedCluster is a fake cluster whose server also records the trace_info of each data Get.
func hookedCluster(t *testing.T) (*fakeCluster, *[]map[string]string, *sync.Mutex) {
	fc := &fakeCluster{regions: []fakeRegion{{table: "t", start: "", end: "", id: 1}}}
	var mu sync.Mutex
	var traces []map[string]string
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if r.Method == "Get" {
			mu.Lock()
			traces = append(traces, r.Header.GetTraceInfo().GetHeaders())
			mu.Unlock()
		}
		return fc.handle(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	fc.srv = srv
	t.Cleanup(func() { srv.Close() })
	return fc, &traces, &mu
}

func TestHooksGetEvents(t *testing.T) {
	fc, traces, tmu := hookedCluster(t)
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	var log eventLog
	c := fc.client(t, WithHooks(log.hooks()))
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx := testContext(t, 10*time.Second)
	for range 2 {
		if _, err := c.Get(ctx, get); err != nil {
			t.Fatal(err)
		}
	}
	got := log.list()
	// The connection events come from the client's goroutines, between the cache miss and
	// the attempt; their order against each other is fixed.
	want := []string{"start Get t/row", "cache row hit=false", "dial err=false", "connect err=false",
		"lookup t/row err=false", "attempt Get 1 ok", "done Get ok",
		"start Get t/row", "cache row hit=true", "attempt Get 1 ok", "done Get ok"}
	if !slices.Equal(got, want) {
		t.Fatalf("events =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	d := log.done[0]
	if d.Server != fc.srv.Addr() || string(d.Region) != string(fc.regions[0].name()) || d.Attempts != 1 ||
		d.Retries != 0 || d.RequestBytes == 0 || d.ResponseBytes == 0 || d.Duration <= 0 {
		t.Errorf("CallDone = %+v; want server %s, region %s, 1 attempt, bytes both ways", d, fc.srv.Addr(), fc.regions[0].name())
	}
	if log.traced[0].Value(ctxMark{}) != "Get" {
		t.Errorf("CallDone's context is not the one CallStart returned")
	}
	tmu.Lock()
	defer tmu.Unlock()
	// The region probe Get is sent by the lookup, outside any call: no trace context.
	var traced int
	for _, h := range *traces {
		if h["traceparent"] != "" {
			traced++
		}
	}
	if traced != 2 {
		t.Errorf("server saw %d Gets with a traceparent, want 2 (one per call): %v", traced, *traces)
	}
	c.Close()
	if got := log.list(); got[len(got)-1] != "closed err=false" {
		t.Errorf("last event after Close = %q, want the connection closed without error", got[len(got)-1])
	}
}

func TestHooksRetryAndBackoff(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		switch n {
		case 1:
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "moved")}
		case 2:
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.RegionTooBusyException", "busy")}
		}
		return cellResult(req)
	}
	var log eventLog
	c := fc.client(t, WithHooks(log.hooks()))
	get, _ := hrpc.NewGet("t", []byte("row"))
	if _, err := c.Get(testContext(t, 10*time.Second), get); err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, e := range log.list() {
		if strings.HasPrefix(e, "attempt") || strings.HasPrefix(e, "retry") || strings.HasPrefix(e, "backoff") || strings.HasPrefix(e, "done") {
			calls = append(calls, e)
		}
	}
	want := []string{"attempt Get 1 region_unavailable", "retry Get 1 region_unavailable relocate=true",
		"attempt Get 2 retryable", "retry Get 2 retryable relocate=false", "backoff 1",
		"attempt Get 3 ok", "done Get ok"}
	if !slices.Equal(calls, want) {
		t.Fatalf("events =\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if d := log.done[0]; d.Attempts != 3 || d.Retries != 2 {
		t.Errorf("CallDone attempts/retries = %d/%d, want 3/2", d.Attempts, d.Retries)
	}
	if st := c.Stats(); st.Retries != 2 || st.Lookups != 2 || st.OpenConnections != 1 || st.CachedRegions != 1 {
		t.Errorf("Stats = %+v; want 2 retries, 2 lookups (first and after the move), 1 connection, 1 region", st)
	}
}

func TestHooksCombineAndErrorClass(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", "no family")}
	}
	var a, b eventLog
	c := fc.client(t, WithHooks(a.hooks()), WithHooks(b.hooks()))
	get, _ := hrpc.NewGet("t", []byte("row"))
	if _, err := c.Get(testContext(t, 10*time.Second), get); !errors.Is(err, hberr.ErrNoSuchFamily) {
		t.Fatalf("Get = %v, want hberr.ErrNoSuchFamily", err)
	}
	if !slices.Equal(a.list(), b.list()) || len(a.done) != 1 || a.done[0].Class != "not_found" {
		t.Errorf("hooks a = %v\nb = %v; want the same events, the call's class not_found", a.list(), b.list())
	}
}

func TestStatsAndServerLatency(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c := fc.client(t)
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx := testContext(t, 10*time.Second)
	for range 10 {
		if _, err := c.Get(ctx, get); err != nil {
			t.Fatal(err)
		}
	}
	st := c.Stats()
	if st.OpenConnections != 1 || len(st.Servers) != 1 || st.Servers[0].Addr != fc.srv.Addr() ||
		st.CachedRegions != 1 || st.CacheMisses != 1 || st.Lookups != 1 || st.Retries != 0 ||
		st.InFlight != 0 || st.BytesWritten == 0 || st.BytesRead == 0 {
		t.Errorf("Stats = %+v", st)
	}
	// 10 Gets, 1 meta scan and 1 probe on the one connection.
	if st.Servers[0].Calls != 12 {
		t.Errorf("server calls = %d, want 12", st.Servers[0].Calls)
	}
	lat := c.ServerLatency()
	if len(lat) != 1 || lat[0].Op != "Get" || lat[0].Count != 10 || lat[0].Server != fc.srv.Addr() ||
		lat[0].P50 <= 0 || lat[0].P99 < lat[0].P50 || lat[0].Max < lat[0].P99 {
		t.Fatalf("ServerLatency = %+v; want 10 Gets on %s", lat, fc.srv.Addr())
	}
	c.ResetServerLatency()
	if lat := c.ServerLatency(); len(lat) != 0 {
		t.Errorf("after ResetServerLatency: %+v", lat)
	}
	off := fc.client(t, WithServerLatency(false))
	if _, err := off.Get(ctx, get); err != nil {
		t.Fatal(err)
	}
	if lat := off.ServerLatency(); lat != nil {
		t.Errorf("WithServerLatency(false): ServerLatency = %+v, want nil", lat)
	}
}

func TestGetAllocationsWithoutHooks(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx := testContext(t, 10*time.Second)
	allocs := func(c *Client) float64 {
		if _, err := c.Get(ctx, get); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(200, func() {
			if _, err := c.Get(ctx, get); err != nil {
				t.Fatal(err)
			}
		})
	}
	// The fake server's own allocations are in each figure; the differences are the client's.
	bare := allocs(fc.client(t, WithServerLatency(false)))
	lat := allocs(fc.client(t))
	if lat > bare {
		t.Errorf("Get allocations with latency histograms = %.1f, without = %.1f; want no more", lat, bare)
	}
}

// Without hooks the connections do not look for a trace context: nothing is sent even when
// the caller's context has one.
func TestNoTraceContextWithoutHooks(t *testing.T) {
	fc, traces, tmu := hookedCluster(t)
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c := fc.client(t)
	ctx, err := hbasetrace.ContextWithTraceHeaders(testContext(t, 10*time.Second), map[string]string{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
	if err != nil {
		t.Fatal(err)
	}
	get, _ := hrpc.NewGet("t", []byte("row"))
	if _, err := c.Get(ctx, get); err != nil {
		t.Fatal(err)
	}
	tmu.Lock()
	defer tmu.Unlock()
	if len(*traces) == 0 {
		t.Fatal("server saw no Get")
	}
	for _, h := range *traces {
		if len(h) != 0 {
			t.Errorf("trace info sent without hooks: %v", h)
		}
	}
}

// A region server that answers 5 ms late stands out in ServerLatency beside a prompt one.
func TestServerLatencyShowsTheSlowServer(t *testing.T) {
	slow := newFakeCluster(t)
	slow.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		r := cellResult(req)
		r.Delay = 5 * time.Millisecond
		return r
	}
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "m", id: 1},
		fakeRegion{table: "t", start: "m", end: "", id: 2, addr: slow.srv.Addr()})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c := fc.client(t)
	ctx := testContext(t, 10*time.Second)
	for range 20 {
		for _, row := range []string{"a", "x"} {
			get, _ := hrpc.NewGet("t", []byte(row))
			if _, err := c.Get(ctx, get); err != nil {
				t.Fatal(err)
			}
		}
	}
	byServer := map[string]hbasetrace.ServerLatency{}
	for _, l := range c.ServerLatency() {
		byServer[l.Server] = l
	}
	fast, late := byServer[fc.srv.Addr()], byServer[slow.srv.Addr()]
	if fast.Count != 20 || late.Count != 20 {
		t.Fatalf("ServerLatency = %+v; want 20 Gets on each server", c.ServerLatency())
	}
	if late.P50 < 5*time.Millisecond || fast.P50 >= late.P50 {
		t.Errorf("p50 prompt server %v, slow server %v; want the slow one at 5 ms or more and above the other", fast.P50, late.P50)
	}
	if st := c.Stats(); st.OpenConnections != 2 || st.CachedRegions != 2 {
		t.Errorf("Stats = %+v; want 2 connections and 2 regions", st)
	}
}
