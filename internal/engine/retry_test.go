package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"go.uber.org/goleak"
)

// cellResult answers a Get with one cell of the row it asks for.
func cellResult(req *pb.GetRequest) fakeserver.Response {
	cells := wire.AppendCell(nil, &wire.Cell{Row: req.GetGet().GetRow(), Family: []byte("f"), Qualifier: []byte("q"),
		Type: wire.CellTypePut, Value: []byte("v")})
	n := int32(1)
	return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: &n}}, Cells: cells}
}

func TestRetryRelooksUpMovedRegion(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n <= 2 {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "moved")}
		}
		return cellResult(req)
	}
	c := fc.client(t)
	get, _ := hrpc.NewGet("t", []byte("row"))
	res, err := c.Get(testContext(t, 10*time.Second), get)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 1 || string(res.Cells[0].Value) != "v" {
		t.Fatalf("result = %+v", res)
	}
	if n := fc.gets.Load(); n != 3 {
		t.Errorf("server saw %d Gets, want 3 (two NotServingRegion, one success)", n)
	}
	if n := fc.metaScans.Load(); n != 3 {
		t.Errorf("%d hbase:meta scans, want 3 (first lookup + one re-lookup per NotServingRegion)", n)
	}
}

func TestNoRetryForDoNotRetry(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", "no family x")}
	}
	c := fc.client(t)
	get, _ := hrpc.NewGet("t", []byte("row"))
	_, err := c.Get(testContext(t, 10*time.Second), get)
	if !errors.Is(err, hberr.ErrNoSuchFamily) || !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("err = %v, want hberr.ErrNoSuchFamily and hberr.ErrDoNotRetry", err)
	}
	// The error names the user's operation, and the predicates read it.
	const want = `hbase: Get "t"/"row": org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: no family x`
	if err.Error() != want {
		t.Errorf("err prints %q, want %q", err, want)
	}
	if op, ok := errors.AsType[*hberr.OpError](err); !ok || op.Op != "Get" {
		t.Errorf("err is not an *hberr.OpError of a Get: %#v", err)
	}
	if !hberr.IsNotFound(err) || hberr.IsRetryable(err) {
		t.Errorf("hberr.IsNotFound = %v, hberr.IsRetryable = %v; want true, false", hberr.IsNotFound(err), hberr.IsRetryable(err))
	}
	if n := fc.gets.Load(); n != 1 {
		t.Errorf("server saw %d Gets, want 1", n)
	}
}

func TestRetryableErrorsBackOff(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n <= 3 {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.CallQueueTooBigException", "busy")}
		}
		return cellResult(req)
	}
	c := fc.client(t, WithMaxBackoff(20*time.Millisecond))
	get, _ := hrpc.NewGet("t", []byte("row"))
	if _, err := c.Get(testContext(t, 10*time.Second), get); err != nil {
		t.Fatal(err)
	}
	if n := fc.gets.Load(); n != 4 {
		t.Errorf("server saw %d Gets, want 4", n)
	}
	if n := fc.metaScans.Load(); n != 1 {
		t.Errorf("%d hbase:meta scans, want 1: a busy server is not a moved region", n)
	}
}

func TestRetriesBoundedByContext(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.RegionTooBusyException", "busy")}
	}
	c := fc.client(t, WithMaxBackoff(5*time.Millisecond))
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Get(ctx, get)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, hberr.ErrRetryable) {
		t.Fatalf("err = %v, want DeadlineExceeded wrapping the last hberr.ErrRetryable", err)
	}
	if n := fc.gets.Load(); n < 5 {
		t.Errorf("only %d attempts in 200ms with a 5ms backoff cap", n)
	}
}

func TestLateResponseIsDropped(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n == 1 {
			r := cellResult(req)
			r.Delay = 500 * time.Millisecond
			return r
		}
		return cellResult(req)
	}
	c := fc.client(t)
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Get(ctx, get)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 400*time.Millisecond {
		t.Errorf("Get took %v with a 100ms deadline and a 500ms server delay", d)
	}
	// The connection still works and the late answer is not given to the next call.
	res, err := c.Get(testContext(t, 5*time.Second), get)
	if err != nil || len(res.Cells) != 1 {
		t.Fatalf("Get after a dropped response = %+v, %v", res, err)
	}
}

func TestClosedClient(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c, err := NewClient("", withMetaLocator(func(context.Context) (string, error) { return fc.srv.Addr(), nil }))
	if err != nil {
		t.Fatal(err)
	}
	get, _ := hrpc.NewGet("t", []byte("row"))
	if _, err := c.Get(testContext(t, 5*time.Second), get); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(testContext(t, 5*time.Second), get); !errors.Is(err, hberr.ErrClosed) {
		t.Fatalf("Get after Close = %v, want hberr.ErrClosed", err)
	}
	put, _ := hrpc.NewPut("t", []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if _, err := c.Put(testContext(t, 5*time.Second), put); !errors.Is(err, hberr.ErrClosed) {
		t.Fatalf("Put after Close = %v, want hberr.ErrClosed", err)
	}
	res := c.SendBatch(testContext(t, 5*time.Second), []hrpc.Batchable{get})
	if !errors.Is(res[0].Err, hberr.ErrClosed) {
		t.Fatalf("SendBatch after Close = %v, want hberr.ErrClosed", res[0].Err)
	}
	sc := c.NewScanner(testContext(t, 5*time.Second), mustScan(t))
	if sc.Next() || !errors.Is(sc.Err(), hberr.ErrClosed) {
		t.Fatalf("Scan after Close = %v, want hberr.ErrClosed", sc.Err())
	}
	for _, err := range c.Scan(testContext(t, 5*time.Second), mustScan(t)) {
		if !errors.Is(err, hberr.ErrClosed) {
			t.Fatalf("ranging over a Scan after Close = %v, want hberr.ErrClosed", err)
		}
	}
	fc.srv.Close()
}

func TestBadInputBeforeAnyRPC(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	c := fc.client(t)
	ctx := testContext(t, 5*time.Second)
	if _, err := c.Get(ctx, nil); !errors.Is(err, hberr.ErrBadRequest) || !isOpError(err, "Get") {
		t.Errorf("Get(nil) = %v", err)
	}
	// Put(a Delete) does not compile: each mutation kind has its own type.
	if _, err := c.Put(ctx, nil); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("Put(nil) = %v", err)
	}
	if res := c.SendBatch(ctx, []hrpc.Batchable{nil}); !errors.Is(res[0].Err, hberr.ErrBadRequest) {
		t.Errorf("SendBatch([nil]) = %v", res[0].Err)
	}
	if _, err := NewClient(""); err == nil {
		t.Error("NewClient with an empty quorum succeeded")
	}
	if n := fc.srv.Requests(); n != 0 {
		t.Errorf("bad input sent %d requests", n)
	}
}

func mustScan(t *testing.T, opts ...hrpc.ScanOption) *hrpc.Scan {
	t.Helper()
	s, err := hrpc.NewScan("t", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBackoffGrowsWithJitterUpToCap(t *testing.T) {
	b := Backoff{Min: 10 * time.Millisecond, Max: 80 * time.Millisecond}
	for i := range 20 {
		d := b.next()
		ceiling := min(10*time.Millisecond<<i, 80*time.Millisecond)
		if d <= 0 || d > ceiling+1 {
			t.Fatalf("pause %d = %v, want in (0, %v]", i, d, ceiling)
		}
	}
}

func TestSendBatchRetriesOnlyFailedRegion(t *testing.T) {
	regions := []fakeRegion{{table: "t", start: "", end: "m", id: 1}, {table: "t", start: "m", end: "", id: 2},
		{table: "u", start: "", end: "", id: 3}}
	fc := newFakeCluster(t, regions...)
	failed := regions[1].name()
	fc.regionFault = func(n int64, region []byte) string {
		if n == 1 && string(region) == string(failed) {
			return "org.apache.hadoop.hbase.NotServingRegionException"
		}
		return ""
	}
	c := fc.client(t)
	var calls []hrpc.Batchable
	var want []string
	for _, k := range []string{"z1", "a1", "u:x", "n2", "b2", "u:y"} {
		table, row := "t", k
		if k[0] == 'u' {
			table, row = "u", k[2:]
		}
		g, err := hrpc.NewGet(table, []byte(row))
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, g)
		want = append(want, row)
	}
	put, _ := hrpc.NewPut("t", []byte("c"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	calls = append(calls, put, nil)
	res := c.SendBatch(testContext(t, 10*time.Second), calls)
	for i, w := range want {
		if res[i].Err != nil || len(res[i].Result.Cells) != 1 || string(res[i].Result.Cells[0].Value) != w {
			t.Errorf("call %d = %+v, %v; want row %s", i, res[i].Result, res[i].Err, w)
		}
	}
	if res[6].Err != nil || res[6].Result == nil {
		t.Errorf("put = %+v, %v", res[6].Result, res[6].Err)
	}
	if !errors.Is(res[7].Err, hberr.ErrBadRequest) {
		t.Errorf("nil call = %v, want hberr.ErrBadRequest", res[7].Err)
	}
	if n := fc.multis.Load(); n != 2 {
		t.Errorf("%d MultiRequests, want 2 (one server; then the retry of the failed region)", n)
	}
	// 7 actions answered in the first Multi minus the 2 of the failed region, plus their retry.
	if n := fc.actions.Load(); n != 7 {
		t.Errorf("server processed %d actions, want 7: only the failed region's actions are retried", n)
	}
}

func TestServerDeathTakesAllItsRegionsOutAtOnce(t *testing.T) {
	regions := []fakeRegion{{table: "t", start: "", end: "m", id: 1}, {table: "t", start: "m", end: "", id: 2}}
	fc := newFakeCluster(t, regions...)
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c := fc.client(t)
	ctx := testContext(t, 10*time.Second)
	for _, row := range []string{"a", "z"} {
		if _, err := c.Get(ctx, mustGetT(t, "t", row)); err != nil {
			t.Fatal(err)
		}
	}
	scans := fc.metaScans.Load()
	fc.srv.DropConnections()
	// Both regions are re-established by the client on its own, without any call failing.
	waitFor(t, func() bool { return fc.metaScans.Load() >= scans+1 }, "re-lookup of both regions")
	for _, row := range []string{"a", "z"} {
		if _, err := c.Get(ctx, mustGetT(t, "t", row)); err != nil {
			t.Fatal(err)
		}
	}
	// One hbase:meta scan relocated both (relocateRegions), not one lookup per region.
	if n := fc.metaScans.Load() - scans; n != 1 {
		t.Errorf("%d hbase:meta scans to relocate the 2 regions of the lost server; want 1", n)
	}
}

func mustGetT(t *testing.T, table, row string) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet(table, []byte(row))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSlowLookupIsRetriedWithinCallerContext(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	var scans atomic.Int64
	fc.beforeMeta = func(r *fakeserver.Request) {
		if scans.Add(1) == 1 {
			select {
			case <-time.After(300 * time.Millisecond):
			case <-r.Done():
			}
		}
	}
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c := fc.client(t, WithRegionLookupTimeout(50*time.Millisecond))
	if _, err := c.Get(testContext(t, 5*time.Second), mustGetT(t, "t", "row")); err != nil {
		t.Fatalf("Get after one timed-out lookup = %v, want success", err)
	}
	if n := scans.Load(); n < 2 {
		t.Fatalf("%d hbase:meta scans, want a retry after the slow one", n)
	}
}

// A region wait that gave up on its own deadline hands its hberr.RetryError up; the caller's error
// must still name what was being waited for, not only that a context ended.
func TestCtxErrKeepsTheInnerCause(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cause := errors.New("KDC unreachable")
	inner := &hberr.RetryError{Err: context.DeadlineExceeded, Last: cause}
	err := CtxErr(ctx, inner)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
		t.Fatalf("ctxErr = %v, want both context.Canceled and the inner cause", err)
	}
	if err := CtxErr(ctx, context.Canceled); err != context.Canceled {
		t.Fatalf("ctxErr of the context's own error = %v, want it unwrapped", err)
	}
}

// A region lookup that timed out keeps what it was waiting for in the chain (a Kerberos
// failure of the connection, say), but not its own context's end, which the caller's retry
// loop would take for its own.
func TestLookupTimeoutErrorKeepsCause(t *testing.T) {
	cause := fmt.Errorf("region: dial h:1: region: handshake: %w", hberr.ErrTicketExpired)
	for _, inner := range []error{cause, &hberr.RetryError{Err: context.DeadlineExceeded, Last: cause}} {
		err := lookupTimeoutError(time.Second, inner)
		if !errors.Is(err, errLookupTimeout) || !errors.Is(err, hberr.ErrTicketExpired) {
			t.Errorf("lookupTimeoutError(%v) = %v: lost errLookupTimeout or the cause", inner, err)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("lookupTimeoutError(%v) = %v: carries the lookup's own context error", inner, err)
		}
		if Classify(err) != PauseAndRelocate {
			t.Errorf("Classify(%v) = %v, want PauseAndRelocate", err, Classify(err))
		}
	}
	// Whatever the lookup waited for, it is retried as a failed lookup.
	for _, cause := range []error{hberr.ErrConnection, hberr.ErrDoNotRetry, hberr.ErrRegionUnavailable} {
		if err := lookupTimeoutError(time.Second, cause); Classify(err) != PauseAndRelocate {
			t.Errorf("Classify(%v) = %v, want PauseAndRelocate", err, Classify(err))
		}
	}
	// A cause that is itself a context's end stays text only.
	err := lookupTimeoutError(time.Second, &hberr.RetryError{Err: context.DeadlineExceeded, Last: context.DeadlineExceeded})
	if errors.Is(err, context.DeadlineExceeded) || Classify(err) != PauseAndRelocate {
		t.Errorf("lookupTimeoutError(deadline) = %v (classify %v)", err, Classify(err))
	}
}

// isOpError reports whether err is an *hberr.OpError of operation op.
func isOpError(err error, op string) bool {
	e, ok := errors.AsType[*hberr.OpError](err)
	return ok && e.Op == op
}
