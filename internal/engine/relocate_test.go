package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
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
	"google.golang.org/protobuf/proto"
)

// fakeRegions returns n regions of table t, "k00" to "k(n-1)" (the first starting at ""),
// all served by addr.
func fakeRegions(n int, addr string) []fakeRegion {
	regions := make([]fakeRegion, n)
	for i := range regions {
		r := fakeRegion{table: "t", id: uint64(i), addr: addr}
		if i > 0 {
			r.start = fmt.Sprintf("k%02d", i)
		}
		if i < n-1 {
			r.end = fmt.Sprintf("k%02d", i+1)
		}
		regions[i] = r
	}
	return regions
}

// startFakeServer starts another fake region server answering like fc's.
func startFakeServer(t *testing.T, fc *fakeCluster) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.Start(fakeserver.Options{Handler: fc.handle})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestDeadServerRelocatedWithBatchedMetaScans: 50 regions on a server that dies, hbase:meta
// naming the dead server for a while (as until the master reassigns them), then a new one.
// Every call to those regions succeeds within its context, and the relocation costs one
// hbase:meta scan per round for all 50 regions, not one per region.
func TestDeadServerRelocatedWithBatchedMetaScans(t *testing.T) {
	const regions = 50
	fc := newFakeCluster(t)
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	dying := startFakeServer(t, fc)
	heir := startFakeServer(t, fc)
	fc.mu.Lock()
	fc.regions = fakeRegions(regions, dying.Addr())
	fc.mu.Unlock()
	c := fc.client(t)
	ctx := testContext(t, 20*time.Second)
	rowOf := func(i int) string { return fmt.Sprintf("k%02d-row", i) }
	for i := range regions {
		if _, err := c.Get(ctx, mustGetT(t, "t", rowOf(i))); err != nil {
			t.Fatal(err)
		}
	}
	before, roundsBefore := c.metaRPCs.Load(), c.relocationRounds.Load()
	lookupsBefore := fc.metaScans.Load()

	dying.Close() // connections reset, later dials refused
	time.Sleep(150 * time.Millisecond)
	fc.mu.Lock()
	fc.regions = fakeRegions(regions, heir.Addr())
	fc.mu.Unlock()

	var wg sync.WaitGroup
	errs := make(chan error, regions)
	for i := range regions {
		wg.Go(func() {
			callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			if _, err := c.Get(callCtx, mustGetT(t, "t", rowOf(i))); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("Get after the server died: %v", err)
	}
	rpcs, rounds := c.metaRPCs.Load()-before, c.relocationRounds.Load()-roundsBefore
	t.Logf("%d regions of a dead server relocated with %d hbase:meta scans in %d rounds (%d seen by the server)",
		regions, rpcs, rounds, fc.metaScans.Load()-lookupsBefore)
	// One table: one scan per round for all 50 regions, not one per region.
	if rpcs != rounds || rounds == 0 || rpcs >= regions {
		t.Errorf("%d hbase:meta scans in %d relocation rounds for %d regions; want one per round, fewer than the regions", rpcs, rounds, regions)
	}
}

// TestRegionMovedHintSkipsMeta: a RegionMovedException naming the new server moves the region
// in the cache without reading hbase:meta.
func TestRegionMovedHintSkipsMeta(t *testing.T) {
	fc := newFakeCluster(t)
	old := startFakeServer(t, fc)
	heir := startFakeServer(t, fc)
	host, portText, _ := net.SplitHostPort(heir.Addr())
	port, _ := strconv.Atoi(portText)
	fc.mu.Lock()
	fc.regions = fakeRegions(1, old.Addr())
	fc.mu.Unlock()
	var moved sync.Mutex
	calls := 0
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		moved.Lock()
		defer moved.Unlock()
		calls++
		if calls == 2 {
			return fakeserver.Response{Exception: fakeserver.RegionMoved(host, port, 1)}
		}
		return cellResult(req)
	}
	c := fc.client(t)
	ctx := testContext(t, 10*time.Second)
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	scans := fc.metaScans.Load()
	heirRequests := heir.Requests()
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatalf("Get across the move: %v", err)
	}
	if n := fc.metaScans.Load() - scans; n != 0 {
		t.Errorf("%d hbase:meta scans after a RegionMovedException naming the new server; want 0", n)
	}
	if c.movedHints.Load() != 1 {
		t.Errorf("movedHints = %d; want 1", c.movedHints.Load())
	}
	if heir.Requests() == heirRequests {
		t.Errorf("the new server saw no request: the retry did not follow the hint")
	}
	if got := c.cache.get([]byte("t"), []byte("row")).location(); got != heir.Addr() {
		t.Errorf("cached location = %s; want the new server %s", got, heir.Addr())
	}
}

// TestThrottlingWaitHonoured: an RpcThrottlingException's wait is respected before the retry,
// and a CallQueueTooBigException backs off.
func TestThrottlingWaitHonoured(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var times []time.Time
	var mu sync.Mutex
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		switch n {
		case 1:
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.quotas.RpcThrottlingException",
				"number of requests exceeded - wait 0.30sec")}
		case 2:
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.CallQueueTooBigException", "Call queue is full")}
		}
		return cellResult(req)
	}
	c := fc.client(t, WithMaxBackoff(5*time.Millisecond))
	if _, err := c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 3 {
		t.Fatalf("server saw %d Gets; want 3", len(times))
	}
	if d := times[1].Sub(times[0]); d < 300*time.Millisecond {
		t.Errorf("retry %v after the throttling exception; want at least the 300ms the server asked for", d)
	}
	if d := times[2].Sub(times[1]); d > 250*time.Millisecond {
		t.Errorf("retry %v after CallQueueTooBig with a 5ms backoff cap; want a short backoff", d)
	}

	// A wait longer than what is left of the call's context ends the call at once, with the
	// error its deadline would have given: waiting would only hold the caller.
	fc2 := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc2.onGet = func(int64, *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.quotas.RpcThrottlingException",
			"number of requests exceeded - wait 1mins, 0.00sec")}
	}
	c2 := fc2.client(t)
	callCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c2.Get(callCtx, mustGetT(t, "t", "row"))
	re, isRemote := errors.AsType[*hberr.RemoteError](err)
	if !errors.Is(err, context.DeadlineExceeded) || !isRemote || !strings.HasSuffix(re.Class, "RpcThrottlingException") ||
		!strings.Contains(err.Error(), "asked for a wait of 1m0s") {
		t.Errorf("err = %v; want DeadlineExceeded with the throttling and its wait", err)
	}
	if callCtx.Err() != nil {
		t.Error("the Get waited for its context to end though the server asked for a longer wait")
	}
	if n := fc2.gets.Load(); n != 1 {
		t.Errorf("server saw %d Gets while asking for a 1 minute wait; want 1", n)
	}
	// Without a deadline the call waits as asked (here until it is cancelled).
	cancelCtx, cancelNow := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancelNow)
	if _, err := c2.Get(cancelCtx, mustGetT(t, "t", "row")); !errors.Is(err, context.Canceled) {
		t.Errorf("Get without a deadline: %v; want Canceled after waiting", err)
	}
}

// TestBackoffStartsSmallAfterRegionReturns: a call whose pauses grew while its region was
// failing starts again from the smallest pause once the region is back at a new place.
func TestBackoffStartsSmallAfterRegionReturns(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var times []time.Time
	var mu sync.Mutex
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		switch {
		case n <= 5: // busy: pauses grow towards the 400ms cap
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.RegionTooBusyException", "busy")}
		case n == 6: // the region moves; found again in hbase:meta
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "closing")}
		case n == 7: // busy once at its new place: the pause is small again
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.RegionTooBusyException", "busy")}
		}
		return cellResult(req)
	}
	c := fc.client(t, WithMaxBackoff(400*time.Millisecond))
	if _, err := c.Get(testContext(t, 20*time.Second), mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 8 {
		t.Fatalf("server saw %d Gets; want 8", len(times))
	}
	// The first pause at the new place is drawn from [0, 10ms]; the grown one would be up to
	// 400ms (and is at least 0 too, so only the bound on the small one is certain).
	if d := times[7].Sub(times[6]); d > 60*time.Millisecond {
		t.Errorf("pause after the region came back = %v; want a fresh small pause (≤ 10ms + scheduling)", d)
	}
}

// TestThrottlingWaitHonouredInBatch: a throttled action of a batch is retried no sooner than
// its server asked.
func TestThrottlingWaitHonouredInBatch(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var times []time.Time
	var mu sync.Mutex
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if n == 1 {
			resp := &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{Exception: &pb.NameBytesPair{
				Name:  proto.String("org.apache.hadoop.hbase.quotas.RpcThrottlingException"),
				Value: []byte("org.apache.hadoop.hbase.quotas.RpcThrottlingException: number of requests exceeded - wait 0.25sec")}}}}
			return fakeserver.Response{Msg: resp}
		}
		return fc.multi(n, req)
	}
	c := fc.client(t, WithMaxBackoff(5*time.Millisecond))
	res := c.SendBatch(testContext(t, 10*time.Second), []hrpc.Batchable{mustGetT(t, "t", "a")})
	if res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 2 {
		t.Fatalf("server saw %d Multis; want 2", len(times))
	}
	if d := times[1].Sub(times[0]); d < 250*time.Millisecond {
		t.Errorf("batch retried %v after the throttling exception; want at least the 250ms asked for", d)
	}
}

// TestThrottlingWaitPastDeadlineInBatch: an action of a batch whose server asks for a wait
// longer than the batch has left fails at once, as a single call does; the others go on.
func TestThrottlingWaitPastDeadlineInBatch(t *testing.T) {
	throttled := fakeRegion{table: "t", id: 1}
	fc2 := newFakeCluster(t, throttled, fakeRegion{table: "u", id: 2})
	var multis atomic.Int64
	fc2.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		multis.Add(1)
		resp := fakeserver.Response{Msg: &pb.MultiResponse{}}
		for _, ra := range req.GetRegionAction() {
			rar := &pb.RegionActionResult{Exception: &pb.NameBytesPair{
				Name:  proto.String("org.apache.hadoop.hbase.quotas.RpcThrottlingException"),
				Value: []byte("org.apache.hadoop.hbase.quotas.RpcThrottlingException: number of requests exceeded - wait 1mins, 0sec")}}
			if !bytes.Equal(ra.GetRegion().GetValue(), throttled.name()) {
				one := fc2.multi(n, &pb.MultiRequest{RegionAction: []*pb.RegionAction{ra}})
				rar = one.Msg.(*pb.MultiResponse).GetRegionActionResult()[0]
				resp.Cells = append(resp.Cells, one.Cells...)
			}
			resp.Msg.(*pb.MultiResponse).RegionActionResult = append(resp.Msg.(*pb.MultiResponse).RegionActionResult, rar)
		}
		return resp
	}
	c2 := fc2.client(t)
	callCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res := c2.SendBatch(callCtx, []hrpc.Batchable{mustGetT(t, "t", "a"), mustGetT(t, "u", "b")})
	if !errors.Is(res[0].Err, context.DeadlineExceeded) || !strings.Contains(res[0].Err.Error(), "asked for a wait of 1m0s") {
		t.Errorf("throttled action: %v; want DeadlineExceeded naming the wait", res[0].Err)
	}
	if res[1].Err != nil {
		t.Errorf("the other action: %v", res[1].Err)
	}
	if callCtx.Err() != nil {
		t.Error("the batch waited for its context to end though the server asked for a longer wait")
	}
	if n := multis.Load(); n != 1 {
		t.Errorf("server saw %d MultiRequests; want 1", n)
	}
}

// TestRelookupFollowsMovedHintWhenMetaLags: hbase:meta still names the old server after a
// move; the old server's RegionMovedException to the re-lookup's probe takes the client to
// the new one instead of waiting for hbase:meta.
func TestRelookupFollowsMovedHintWhenMetaLags(t *testing.T) {
	fc := newFakeCluster(t)
	heir := startFakeServer(t, fc)
	host, portText, _ := net.SplitHostPort(heir.Addr())
	port, _ := strconv.Atoi(portText)
	var moved atomic.Bool
	old, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if moved.Load() && r.Method == "Get" {
			var req pb.GetRequest
			_ = r.Unmarshal(&req)
			if req.GetGet().GetExistenceOnly() {
				return fakeserver.Response{Exception: fakeserver.RegionMoved(host, port, 1)}
			}
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "closed")}
		}
		return fc.handle(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { old.Close() })
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	fc.mu.Lock()
	fc.regions = fakeRegions(1, old.Addr())
	fc.mu.Unlock()
	c := fc.client(t)
	ctx := testContext(t, 10*time.Second)
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	moved.Store(true)
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatalf("Get after the move: %v", err)
	}
	if got := c.cache.get([]byte("t"), []byte("row")).location(); got != heir.Addr() {
		t.Errorf("cached location = %s; want the server the hint named, %s", got, heir.Addr())
	}
	if c.movedHints.Load() != 1 {
		t.Errorf("movedHints = %d; want 1", c.movedHints.Load())
	}
}

// TestReopenedRegionFoundSoon: a region out of service (a move or split under way) is looked
// up again with pauses of at most reopenBackoffCap during its first reopenWindow, and right
// after the smallest pause once its server says it is opening it; the pauses are those the
// Backoff hook reports for the client's own lookups (not a call's).
func TestReopenedRegionFoundSoon(t *testing.T) {
	fc := newFakeCluster(t)
	type callKey struct{}
	var mu sync.Mutex
	var pauses []time.Duration // the re-lookups' pauses, in order
	var afterOpening []int     // indexes in pauses of the pauses that followed a RegionOpeningException
	var probes atomic.Int64
	const closed, opening = 12, 4 // probes refused as closed, then as opening
	var lastOpening atomic.Bool
	rs, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if r.Method != "Get" {
			return fc.handle(r)
		}
		var req pb.GetRequest
		_ = r.Unmarshal(&req)
		if !req.GetGet().GetExistenceOnly() {
			if probes.Load() <= closed+opening {
				return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "closed")}
			}
			return cellResult(&req)
		}
		switch n := probes.Add(1); {
		case n == 1: // the first lookup, before the region closes
		case n <= closed+1:
			lastOpening.Store(false)
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "closed")}
		case n <= closed+opening+1:
			lastOpening.Store(true)
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.exceptions.RegionOpeningException", "opening")}
		}
		lastOpening.Store(false)
		return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{Exists: proto.Bool(false)}}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	fc.mu.Lock()
	fc.regions = fakeRegions(1, rs.Addr())
	fc.mu.Unlock()
	c := fc.client(t, WithHooks(&hbasetrace.Hooks{Backoff: func(ctx context.Context, ev hbasetrace.BackoffInfo) {
		if ctx.Value(callKey{}) != nil {
			return // a call's own pause
		}
		mu.Lock()
		defer mu.Unlock()
		if lastOpening.Load() {
			afterOpening = append(afterOpening, len(pauses))
		}
		pauses = append(pauses, ev.Pause)
	}}))
	ctx := context.WithValue(testContext(t, 10*time.Second), callKey{}, true)
	began := time.Now()
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	mu.Lock()
	defer mu.Unlock()
	if took > reopenWindow {
		t.Fatalf("the outage lasted %v, longer than reopenWindow; the test needs a shorter one", took)
	}
	if len(pauses) < closed {
		t.Fatalf("%d re-lookup pauses for %d refused probes: %v", len(pauses), closed+opening, pauses)
	}
	for i, p := range pauses {
		if p > reopenBackoffCap {
			t.Errorf("re-lookup pause %d = %v within %v of the outage; want at most %v", i, p, took, reopenBackoffCap)
		}
	}
	if len(afterOpening) == 0 {
		t.Fatalf("no pause after a RegionOpeningException: %v", pauses)
	}
	for _, i := range afterOpening {
		if p := pauses[i]; p > 10*time.Millisecond {
			t.Errorf("pause %v after RegionOpeningException; want the smallest backoff (≤ 10ms)", p)
		}
	}
	t.Logf("outage %v, %d re-lookups, pauses %v", took.Round(time.Millisecond), len(pauses), pauses)
}
