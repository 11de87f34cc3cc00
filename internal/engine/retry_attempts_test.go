package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

func busy(int64, *pb.GetRequest) fakeserver.Response {
	return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.RegionTooBusyException", "busy")}
}

func TestMaxAttemptsEndsTheCall(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = busy
	c := fc.client(t, WithMaxAttempts(3), WithMaxBackoff(time.Millisecond))
	_, err := c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "row"))
	if !errors.Is(err, hberr.ErrAttemptsExhausted) || !errors.Is(err, hberr.ErrRetryable) {
		t.Fatalf("err = %v; want hberr.ErrAttemptsExhausted wrapping hberr.ErrRetryable", err)
	}
	ae, ok := errors.AsType[*hberr.AttemptsError](err)
	if !ok || ae.Attempts != 3 {
		t.Fatalf("err = %#v; want an *hberr.AttemptsError with Attempts 3", err)
	}
	if re, ok := errors.AsType[*hberr.RemoteError](err); !ok || !strings.HasSuffix(re.Class, "RegionTooBusyException") {
		t.Errorf("errors.As(*hberr.RemoteError) = %v, %v; want the server's RegionTooBusyException", re, ok)
	}
	if !strings.Contains(err.Error(), "after 3 attempts") {
		t.Errorf("err prints %q; want it to say \"after 3 attempts\"", err)
	}
	if n := fc.gets.Load(); n != 3 {
		t.Errorf("server saw %d Gets; want 3", n)
	}
	// A transient cause stays retryable for the caller.
	if !hberr.IsRetryable(err) {
		t.Errorf("hberr.IsRetryable = false; want true (the last failure was transient)")
	}
}

func TestNoRetriesFailsAtOnceButRelocates(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n == 1 {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "moved")}
		}
		return cellResult(req)
	}
	c := fc.client(t, WithNoRetries())
	ctx := testContext(t, 10*time.Second)
	_, err := c.Get(ctx, mustGetT(t, "t", "row"))
	if ae, ok := errors.AsType[*hberr.AttemptsError](err); !ok || ae.Attempts != 1 || !errors.Is(err, hberr.ErrRegionUnavailable) {
		t.Fatalf("err = %v; want an *hberr.AttemptsError after 1 attempt wrapping hberr.ErrRegionUnavailable", err)
	}
	if n := fc.gets.Load(); n != 1 {
		t.Fatalf("server saw %d Gets; want 1", n)
	}
	// The failure taught the client: the next call finds the region again and succeeds.
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatalf("second Get: %v", err)
	}
	if n := fc.metaScans.Load(); n != 2 {
		t.Errorf("%d hbase:meta scans; want 2 (first lookup, re-lookup after NotServingRegion)", n)
	}
}

func TestMaxAttemptsPerRequestOverridesClient(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n <= 3 {
			return busy(n, req)
		}
		return cellResult(req)
	}
	c := fc.client(t, WithNoRetries(), WithMaxBackoff(time.Millisecond))
	get, err := hrpc.NewGet("t", []byte("row"), hrpc.MaxAttempts(4))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(testContext(t, 10*time.Second), get); err != nil {
		t.Fatalf("Get with MaxAttempts(4) after 3 failures: %v", err)
	}
	if n := fc.gets.Load(); n != 4 {
		t.Errorf("server saw %d Gets; want 4", n)
	}
	// A Put with MaxAttempts(2) under a client without a cap.
	fc.onMutate = func(int64, *pb.MutateRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.CallQueueTooBigException", "queue full")}
	}
	c2 := fc.client(t, WithMaxBackoff(time.Millisecond))
	put, err := hrpc.NewPut("t", []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")), hrpc.MaxAttempts(2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c2.Put(testContext(t, 10*time.Second), put)
	if ae, ok := errors.AsType[*hberr.AttemptsError](err); !ok || ae.Attempts != 2 {
		t.Fatalf("Put err = %v; want an *hberr.AttemptsError after 2 attempts", err)
	}
	if n := fc.mutates.Load(); n != 2 {
		t.Errorf("server saw %d Mutates; want 2", n)
	}
}

// A CheckAndMutate's or RowMutations' own MaxAttempts caps it, alone and in a batch; that of
// its mutations does not.
func TestMaxAttemptsOfAtomicCalls(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	refuse := fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.CallQueueTooBigException", "queue full")}
	fc.onMutate = func(int64, *pb.MutateRequest) fakeserver.Response { return refuse }
	fc.onMulti = func(int64, *pb.MultiRequest) fakeserver.Response { return refuse }
	c := fc.client(t, WithMaxAttempts(6), WithMaxBackoff(time.Millisecond), WithOverloadPause(time.Millisecond))
	ctx := testContext(t, 10*time.Second)
	f := []byte("f")
	put, _ := hrpc.NewPut("t", []byte("row"), hrpc.Value(f, f, f), hrpc.MaxAttempts(5))
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists(f, f), put, hrpc.MaxAttempts(2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CheckAndMutate(ctx, cam)
	if ae, ok := errors.AsType[*hberr.AttemptsError](err); !ok || ae.Attempts != 2 {
		t.Errorf("CheckAndMutate err = %v; want an *hberr.AttemptsError after 2 attempts", err)
	}
	if n := fc.mutates.Load(); n != 2 {
		t.Errorf("server saw %d Mutates; want 2", n)
	}
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{put}, hrpc.MaxAttempts(3))
	if err != nil {
		t.Fatal(err)
	}
	err = c.MutateRow(ctx, rm)
	if ae, ok := errors.AsType[*hberr.AttemptsError](err); !ok || ae.Attempts != 3 {
		t.Errorf("MutateRow err = %v; want an *hberr.AttemptsError after 3 attempts", err)
	}
	if n := fc.multis.Load(); n != 3 {
		t.Errorf("server saw %d Multis; want 3", n)
	}
	// In a batch: each call is capped by its own option, else the client's 6.
	plain, _ := hrpc.NewRowMutations([]hrpc.Mutation{put})
	res := c.SendBatch(ctx, []hrpc.Batchable{rm, plain})
	for i, want := range []int{3, 6} {
		if ae, ok := errors.AsType[*hberr.AttemptsError](res[i].Err); !ok || ae.Attempts != want {
			t.Errorf("batch call %d: err = %v; want an *hberr.AttemptsError after %d attempts", i, res[i].Err, want)
		}
	}
}

func TestMaxAttemptsInBatchAndScan(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", end: "m", id: 1}, fakeRegion{table: "t", start: "m", id: 2})
	fc.regionFault = func(_ int64, region []byte) string {
		if strings.HasPrefix(string(region), "t,m,") {
			return "org.apache.hadoop.hbase.RegionTooBusyException"
		}
		return ""
	}
	c := fc.client(t, WithMaxAttempts(2), WithMaxBackoff(time.Millisecond))
	res := c.SendBatch(testContext(t, 10*time.Second), []hrpc.Batchable{mustGetT(t, "t", "a"), mustGetT(t, "t", "z")})
	if res[0].Err != nil {
		t.Errorf("action in the healthy region: %v", res[0].Err)
	}
	if ae, ok := errors.AsType[*hberr.AttemptsError](res[1].Err); !ok || ae.Attempts != 2 || !errors.Is(res[1].Err, hberr.ErrRetryable) {
		t.Errorf("action in the busy region: err = %v; want an *hberr.AttemptsError after 2 attempts wrapping hberr.ErrRetryable", res[1].Err)
	}
	fc.onScan = func(int64, *pb.ScanRequest) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.RegionTooBusyException", "busy")}
	}
	var err error
	for _, e := range c.Scan(testContext(t, 10*time.Second), mustScan(t)) {
		err = e
	}
	if ae, ok := errors.AsType[*hberr.AttemptsError](err); !ok || ae.Attempts != 2 {
		t.Errorf("scan err = %v; want an *hberr.AttemptsError after 2 attempts", err)
	}
	if n := fc.scans.Load(); n != 2 {
		t.Errorf("server saw %d scan RPCs; want 2", n)
	}
}

func TestRetryErrorCountsAttempts(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = busy
	c := fc.client(t, WithMaxBackoff(5*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Get(ctx, mustGetT(t, "t", "row"))
	re, ok := errors.AsType[*hberr.RetryError](err)
	if !ok || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want a *hberr.RetryError with DeadlineExceeded", err)
	}
	if n := fc.gets.Load(); re.Attempts < 2 || int64(re.Attempts) > n {
		t.Errorf("hberr.RetryError.Attempts = %d with %d Gets seen by the server", re.Attempts, n)
	}
	if !strings.Contains(err.Error(), " attempts (last: ") {
		t.Errorf("err prints %q; want the number of attempts in it", err)
	}
}

func TestMaxAttemptsOptionsChecked(t *testing.T) {
	if _, err := hrpc.NewGet("t", []byte("r"), hrpc.MaxAttempts(0)); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("hrpc.MaxAttempts(0): err = %v; want ErrInvalidOption", err)
	}
}
