package region

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

func doGetAbortable(ctx context.Context, c *Client, row string, abort <-chan struct{}) (*pb.GetResponse, error) {
	var resp pb.GetResponse
	_, err := c.CallExtras(ctx, Extras{Abort: abort}, "Get", getRequest(row), nil, &resp, nil)
	return &resp, err
}

// Extras.Abort ends a call as a cancelled context does, whoever reads the connection: a lone
// caller past its first slice (with a context that never ends, and with one that can), or
// the reader goroutine while another call is in flight. The late answers are dropped.
func TestAbortEndsCall(t *testing.T) {
	srv := startFake(t, rowHandler(map[string]time.Duration{"slow": 300 * time.Millisecond, "other": 150 * time.Millisecond}))
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)
	abortAfter := func(d time.Duration) <-chan struct{} {
		ch := make(chan struct{})
		time.AfterFunc(d, func() { close(ch) })
		return ch
	}
	check := func(name string, ctx context.Context, abortIn time.Duration) {
		t.Helper()
		best := time.Hour
		for range 3 {
			start := time.Now()
			_, err := doGetAbortable(ctx, c, "slow", abortAfter(abortIn))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: aborted call: %v", name, err)
			}
			best = min(best, time.Since(start)-abortIn)
		}
		// The answer comes after 300 ms: a call that waited for it would be ~290 ms late.
		if best > 50*time.Millisecond {
			t.Fatalf("%s: abort seen %v late", name, best)
		}
	}
	check("lone, context without end", context.Background(), 10*time.Millisecond)
	check("lone, cancellable context", testCtx(t), 10*time.Millisecond)
	check("lone, within the first slice", testCtx(t), 0)

	// The reader goroutine reads while another call is in flight.
	other := make(chan error, 1)
	go func() {
		resp, err := doGetAbortable(testCtx(t), c, "other", nil)
		if err == nil && string(resp.GetResult().GetCell()[0].GetRow()) != "other" {
			err = errors.New("answered with another row")
		}
		other <- err
	}()
	before := srv.Requests()
	waitRequests(t, srv, before+1)
	check("reader goroutine", testCtx(t), 10*time.Millisecond)
	if err := <-other; err != nil {
		t.Fatalf("call in flight beside the aborted ones: %v", err)
	}

	// An abort closed before the call: nothing is sent.
	closedAbort := make(chan struct{})
	close(closedAbort)
	before = srv.Requests()
	if _, err := doGetAbortable(testCtx(t), c, "x", closedAbort); !errors.Is(err, context.Canceled) {
		t.Fatalf("call with a closed abort: %v", err)
	}
	if srv.Requests() != before {
		t.Fatal("request sent with a closed abort")
	}

	// The late answers arrive while the next calls run: dropped, not delivered.
	deadline := time.Now().Add(400 * time.Millisecond)
	for time.Now().Before(deadline) {
		resp, err := doGetAbortable(testCtx(t), c, "fast", make(chan struct{}))
		wantRow(t, resp, err, "fast")
		time.Sleep(5 * time.Millisecond)
	}
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
}

// Extras.Encoded runs once the request is copied into its frame, before the answer comes: the
// caller's buffers are free during the wait.
func TestEncodedRunsBeforeTheAnswer(t *testing.T) {
	srv := startFake(t, rowHandler(map[string]time.Duration{"slow": 100 * time.Millisecond}))
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	req, err := proto.Marshal(getRequest("slow"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var encodedAfter time.Duration
	var resp pb.GetResponse
	x := Extras{Encoded: func() {
		encodedAfter = time.Since(start)
		clear(req) // reused by the caller: what was sent must not change
	}}
	if _, err := c.CallEncoded(testCtx(t), x, "Get", req, nil, &resp, nil); err != nil {
		t.Fatal(err)
	}
	wantRow(t, &resp, nil, "slow")
	if encodedAfter == 0 || encodedAfter > 50*time.Millisecond {
		t.Fatalf("Encoded ran %v after the call began; the answer took %v", encodedAfter, time.Since(start))
	}
}
