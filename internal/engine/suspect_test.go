package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// TestSilentServerIsDroppedAndRecovers: a server that stops answering (a partition: nothing
// reset) fails calls at their context only; the probe that follows gets no answer either, so
// the client drops the connection, and calls succeed again once the server answers.
func TestSilentServerIsDroppedAndRecovers(t *testing.T) {
	fc, srv, c, silent := silenceableCluster(t)
	ctx := testContext(t, 10*time.Second)
	if _, err := c.Get(ctx, mustGetT(t, "t", "k01-row")); err != nil {
		t.Fatal(err)
	}
	accepted := srv.Accepted()
	silent.Store(true)
	callCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	began := time.Now()
	_, err := c.Get(callCtx, mustGetT(t, "t", "k01-row"))
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(began) > time.Second {
		t.Fatalf("Get from a silent server: %v after %v; want DeadlineExceeded at its 100ms context", err, time.Since(began))
	}
	waitFor(t, func() bool { return c.suspectDrops.Load() == 1 }, "the silent server's connection to be dropped")
	silent.Store(false)
	if _, err := c.Get(ctx, mustGetT(t, "t", "k01-row")); err != nil {
		t.Fatalf("Get after the server answers again: %v", err)
	}
	if srv.Accepted() == accepted {
		t.Error("no new connection to the server after the old one was dropped")
	}
	// A slow but answering server is not dropped.
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		r := cellResult(req)
		r.Delay = 150 * time.Millisecond
		return r
	}
	callCtx, cancel = context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = c.Get(callCtx, mustGetT(t, "t", "k01-row"))
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow Get: %v; want DeadlineExceeded", err)
	}
	time.Sleep(400 * time.Millisecond)
	if n := c.suspectDrops.Load(); n != 1 {
		t.Errorf("%d connections dropped; a server that answers its probe must be kept", n)
	}
}

// TestLostConnectionAfterSend: a connection that breaks while a write is outstanding retries
// what is safe to resend (Put; Increment, whose nonce the server recognises) and reports a
// CheckAndMutate as indeterminate instead of sending it again.
func TestLostConnectionAfterSend(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMutate = func(n int64, req *pb.MutateRequest) fakeserver.Response {
		if n%2 == 1 {
			return fakeserver.Response{CloseConn: true}
		}
		return fakeserver.Response{Msg: &pb.MutateResponse{Processed: proto.Bool(true)}}
	}
	c := fc.client(t)
	ctx := testContext(t, 10*time.Second)
	put, _ := hrpc.NewPut("t", []byte("r"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if _, err := c.Put(ctx, put); err != nil {
		t.Errorf("Put across a lost connection: %v; want it resent", err)
	}
	inc, _ := hrpc.NewIncrement("t", []byte("r"), hrpc.Amount([]byte("f"), []byte("n"), 1))
	if _, err := c.Increment(ctx, inc); err != nil {
		t.Errorf("Increment across a lost connection: %v; want it resent with its nonce", err)
	}
	before := fc.mutates.Load()
	cam, _ := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("f"), []byte("q")), put)
	_, err := c.CheckAndMutate(ctx, cam)
	if !errors.Is(err, hberr.ErrIndeterminate) || !errors.Is(err, hberr.ErrConnection) || hberr.IsRetryable(err) {
		t.Fatalf("CheckAndMutate across a lost connection: %v; want hberr.ErrIndeterminate wrapping hberr.ErrConnection, not retryable", err)
	}
	if n := fc.mutates.Load() - before; n != 1 {
		t.Errorf("CheckAndMutate sent %d times; want once", n)
	}
}

// TestSilentServerSuspectedByBatchAndScan: a batch or a scan whose server stops answering
// makes it suspect as a single call does: the probe gets no answer either and the connection
// is dropped, so later calls dial again instead of waiting on a dead connection.
func TestSilentServerSuspectedByBatchAndScan(t *testing.T) {
	_, _, c, silent := silenceableCluster(t)
	ctx := testContext(t, 10*time.Second)
	warm := func() {
		t.Helper()
		if _, err := c.Get(ctx, mustGetT(t, "t", "k01-row")); err != nil {
			t.Fatal(err)
		}
	}
	warm()

	silent.Store(true)
	put, _ := hrpc.NewPut("t", []byte("k01-row"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	callCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	res := c.SendBatch(callCtx, []hrpc.Batchable{put})
	cancel()
	if !errors.Is(res[0].Err, context.DeadlineExceeded) {
		t.Fatalf("batch to a silent server: %v; want DeadlineExceeded", res[0].Err)
	}
	waitFor(t, func() bool { return c.suspectDrops.Load() == 1 }, "the silent server's connection to be dropped after a batch")
	silent.Store(false)
	warm()

	silent.Store(true)
	scan, _ := hrpc.NewScan("t", hrpc.StartRow([]byte("k01")), hrpc.StopRow([]byte("k02")))
	callCtx, cancel = context.WithTimeout(ctx, 100*time.Millisecond)
	var scanErr error
	for _, err := range c.Scan(callCtx, scan) {
		if err != nil {
			scanErr = err
		}
	}
	cancel()
	if !errors.Is(scanErr, context.DeadlineExceeded) {
		t.Fatalf("scan of a silent server: %v; want DeadlineExceeded", scanErr)
	}
	waitFor(t, func() bool { return c.suspectDrops.Load() == 2 }, "the silent server's connection to be dropped after a scan")
	silent.Store(false)
	warm()
}

// silenceableCluster is a fake cluster whose one region server (3 regions) stops answering
// anything, without closing or resetting, while *silent is set; its client gives up on a
// suspect server's probe after 200 ms.
func silenceableCluster(t *testing.T) (*fakeCluster, *fakeserver.Server, *Client, *atomic.Bool) {
	t.Helper()
	fc := newFakeCluster(t)
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	silent := new(atomic.Bool)
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if silent.Load() {
			return fakeserver.Response{NoReply: true}
		}
		return fc.handle(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	fc.mu.Lock()
	fc.regions = fakeRegions(3, srv.Addr())
	fc.mu.Unlock()
	c := fc.client(t)
	c.opts.SuspectTimeout = 200 * time.Millisecond
	return fc, srv, c, silent
}
