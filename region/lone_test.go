package region

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// Lone reading (lone.go) exists on Linux without -race; make test runs these tests both ways:
// with -race they check that the reader goroutine's behaviour is the same.
func loneExpected() bool { return runtime.GOOS == "linux" && !raceEnabled }

func checkLone(t *testing.T, c *Client) {
	t.Helper()
	if c.lone != loneExpected() {
		t.Fatalf("lone reading %v on %s (race %v)", c.lone, runtime.GOOS, raceEnabled)
	}
}

// rowHandler answers echoGet after the delay delays gives the row.
func rowHandler(delays map[string]time.Duration) fakeserver.Handler {
	return func(r *fakeserver.Request) fakeserver.Response {
		var get pb.GetRequest
		r.Unmarshal(&get) //nolint:errcheck // echoGet reports it
		resp := echoGet(r)
		resp.Delay = delays[string(get.GetGet().GetRow())]
		return resp
	}
}

func wantRow(t *testing.T, resp *pb.GetResponse, err error, row string) {
	t.Helper()
	if err != nil {
		t.Fatalf("Get %s: %v", row, err)
	}
	if got := string(resp.GetResult().GetCell()[0].GetRow()); got != row {
		t.Fatalf("Get %s answered with row %q", row, got)
	}
}

func waitRequests(t *testing.T, srv *fakeserver.Server, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for srv.Requests() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests reached the server, want %d", srv.Requests(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLoneCallerReadsItsOwnResponse(t *testing.T) {
	srv := startFake(t, echoGet)
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)
	background := context.Background()
	cancelable, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range 60 {
		ctx := []context.Context{testCtx(t), background, cancelable}[i%3]
		resp, _, err := doGet(ctx, c, "r")
		wantRow(t, resp, err, "r")
	}
	lone, handOffs := c.stats.loneCalls.Load(), c.stats.handOffs.Load()
	if want := uint64(60); !loneExpected() {
		if lone != 0 {
			t.Fatalf("%d lone calls without lone reading", lone)
		}
	} else if lone != want || handOffs != 0 {
		t.Fatalf("%d lone calls of %d, %d hand-offs to the reader goroutine", lone, want, handOffs)
	}
	if st := c.Stats(); st.Calls != 60 || st.InFlight != 0 || st.BytesRead == 0 {
		t.Fatalf("stats %+v", st)
	}
}

// A call that joins while a lone caller reads is answered: by the lone caller when its
// response comes first, else by the reader goroutine the lone caller hands the role to.
func TestCallerJoiningALoneReader(t *testing.T) {
	srv := startFake(t, rowHandler(map[string]time.Duration{
		"first-slow": 200 * time.Millisecond, "then-fast": 10 * time.Millisecond,
		"first-fast": 50 * time.Millisecond, "then-slow": 250 * time.Millisecond,
	}))
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)
	ctx := testCtx(t)
	resp, _, err := doGet(ctx, c, "warm-up")
	wantRow(t, resp, err, "warm-up")

	for i, pair := range [][2]string{{"first-slow", "then-fast"}, {"first-fast", "then-slow"}} {
		errs := make(chan error, 2)
		for j, row := range pair {
			go func() {
				resp, _, err := doGet(ctx, c, row)
				if err == nil && string(resp.GetResult().GetCell()[0].GetRow()) != row {
					err = errors.New("answered with another row")
				}
				errs <- err
			}()
			waitRequests(t, srv, int64(2+2*i+j))
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
	if loneExpected() {
		// The first of each pair was lone; only the second pair needed the reader goroutine.
		if lone, handOffs := c.stats.loneCalls.Load(), c.stats.handOffs.Load(); lone != 3 || handOffs != 1 {
			t.Fatalf("%d lone calls (want 3), %d hand-offs (want 1)", lone, handOffs)
		}
	}
	// The reader goroutine gave the role back: the next call is lone again.
	resp, _, err = doGet(ctx, c, "after")
	wantRow(t, resp, err, "after")
	if loneExpected() && c.stats.loneCalls.Load() != 4 {
		t.Fatalf("the call after the hand-off was not lone: %d lone calls", c.stats.loneCalls.Load())
	}
}

// A lone caller's context ends its wait at once (deadlines shorter and longer than the first
// slice, a cancellation without deadline), the late response is dropped, and the connection
// goes on, also for a caller that joined meanwhile.
func TestLoneCallerContextEnds(t *testing.T) {
	srv := startFake(t, rowHandler(map[string]time.Duration{"slow": 300 * time.Millisecond, "joined": 100 * time.Millisecond}))
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)
	for _, d := range []time.Duration{time.Millisecond, 30 * time.Millisecond} {
		best := time.Hour
		for range 3 {
			ctx, cancel := context.WithTimeout(context.Background(), d)
			start := time.Now()
			_, _, err := doGet(ctx, c, "slow")
			best = min(best, time.Since(start)-d)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("deadline %v: err = %v", d, err)
			}
		}
		if best > 20*time.Millisecond {
			t.Fatalf("deadline %v exceeded by %v", d, best)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	if _, _, err := doGet(ctx, c, "slow"); !errors.Is(err, context.Canceled) || time.Since(start) > 200*time.Millisecond {
		t.Fatalf("canceled call: %v after %v", err, time.Since(start))
	}

	// A lone caller whose context ends while another call is in flight hands the role over.
	joined := make(chan error, 1)
	sctx, scancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer scancel()
	slowDone := make(chan error, 1)
	go func() {
		_, _, err := doGet(sctx, c, "slow")
		slowDone <- err
	}()
	waitRequests(t, srv, 8)
	go func() {
		resp, _, err := doGet(testCtx(t), c, "joined")
		if err == nil && string(resp.GetResult().GetCell()[0].GetRow()) != "joined" {
			err = errors.New("answered with another row")
		}
		joined <- err
	}()
	if err := <-slowDone; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow call: %v", err)
	}
	if err := <-joined; err != nil {
		t.Fatalf("joined call: %v", err)
	}
	// The late responses (300 ms) arrive while the next calls run: dropped, not delivered.
	deadline := time.Now().Add(400 * time.Millisecond)
	for time.Now().Before(deadline) {
		resp, _, err := doGet(testCtx(t), c, "fast")
		wantRow(t, resp, err, "fast")
		time.Sleep(5 * time.Millisecond)
	}
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
}

// A server closing a connection nobody reads: the next call is not written on it and gets an
// error wrapping ErrNotSent (with lone reading) or finds the connection dead (the reader
// goroutine noticed).
func TestIdleConnectionClosedByServer(t *testing.T) {
	srv := startFake(t, echoGet)
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)
	resp, _, err := doGet(testCtx(t), c, "r")
	wantRow(t, resp, err, "r")
	srv.DropConnections()
	time.Sleep(20 * time.Millisecond)
	if loneExpected() && c.Err() != nil {
		t.Fatalf("nobody reads, yet the connection is dead: %v", c.Err())
	}
	_, _, err = doGet(testCtx(t), c, "r")
	if !errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("err = %v, want hberr.ErrConnection", err)
	}
	if loneExpected() && !errors.Is(err, ErrNotSent) {
		t.Fatalf("err = %v, want ErrNotSent", err)
	}
	if c.stats.calls.Load() != 1 {
		t.Fatalf("%d calls queued for writing, want 1", c.stats.calls.Load())
	}
}

// The reader goroutine watches a connection idle for the watch delay: a server closing it is
// noticed without any call.
func TestIdleConnectionIsWatched(t *testing.T) {
	srv := startFake(t, echoGet)
	c := dialT(t, srv.Addr(), withIdleWatch(20*time.Millisecond))
	resp, _, err := doGet(testCtx(t), c, "r")
	wantRow(t, resp, err, "r")
	time.Sleep(60 * time.Millisecond)
	// A watched connection still answers, and gives the role back for lone calls after.
	for range 3 {
		resp, _, err = doGet(testCtx(t), c, "r")
		wantRow(t, resp, err, "r")
	}
	if loneExpected() && c.stats.loneCalls.Load() < 3 {
		t.Fatalf("%d lone calls of 4", c.stats.loneCalls.Load())
	}
	time.Sleep(60 * time.Millisecond)
	srv.DropConnections()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the closed idle connection was not noticed")
	}
	if !errors.Is(c.Err(), hberr.ErrConnection) {
		t.Fatalf("Err() = %v", c.Err())
	}
}

// A connection-level exception that arrives while nobody reads fails the next call before it
// is written, with the server's exception.
func TestConnectionLevelExceptionAtIdle(t *testing.T) {
	var conn atomic.Pointer[fakeserver.Conn]
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		conn.Store(r.Conn)
		return echoGet(r)
	})
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)
	resp, _, err := doGet(testCtx(t), c, "r")
	wantRow(t, resp, err, "r")
	frame, err := fakeserver.EncodeResponse(connectionCallID, nil, nil, fakeserver.Exception(
		"org.apache.hadoop.hbase.security.AccessDeniedException", "no longer allowed"))
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Load().Write(frame); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	_, _, err = doGet(testCtx(t), c, "r")
	var re *hberr.RemoteError
	if !errors.As(err, &re) || re.Class != "org.apache.hadoop.hbase.security.AccessDeniedException" {
		t.Fatalf("err = %v; want the server's AccessDeniedException", err)
	}
	if loneExpected() && !errors.Is(err, ErrNotSent) {
		t.Fatalf("err = %v, want ErrNotSent", err)
	}
	time.Sleep(20 * time.Millisecond)
	if n := srv.Requests(); n != 1 {
		t.Fatalf("%d requests reached the server, want 1", n)
	}
}

// A lone caller whose context ends in the middle of a frame reads the frame's rest if it comes
// within midFrameGrace (the connection goes on), else the connection fails. With the reader
// goroutine the call returns at once and the connection stays up.
func TestLoneCallerContextEndsMidFrame(t *testing.T) {
	var stall atomic.Bool
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		resp := echoGet(r)
		var get pb.GetRequest
		r.Unmarshal(&get) //nolint:errcheck
		if string(get.GetGet().GetRow()) != "split" {
			return resp
		}
		frame, err := fakeserver.EncodeResponse(r.Header.GetCallId(), resp.Msg, nil, nil)
		if err != nil {
			panic(err)
		}
		r.Conn.Write(frame[:7]) //nolint:errcheck
		if stall.Load() {
			return fakeserver.Response{NoReply: true}
		}
		time.Sleep(60 * time.Millisecond)
		return fakeserver.Response{Raw: frame[7:]}
	})
	c := dialT(t, srv.Addr(), withIdleWatch(time.Hour))
	checkLone(t, c)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	start := time.Now()
	resp, _, err := doGet(ctx, c, "split")
	cancel()
	if took := time.Since(start); took > 40*time.Millisecond+midFrameGrace {
		t.Fatalf("returned after %v", took)
	}
	if err == nil {
		wantRow(t, resp, err, "split") // the rest came within the grace
	} else if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	time.Sleep(60 * time.Millisecond) // the rest is in: a response written between its halves would interleave
	resp, _, err = doGet(testCtx(t), c, "next")
	wantRow(t, resp, err, "next")

	stall.Store(true)
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, _, err = doGet(ctx, c, "split")
	if took := time.Since(start); took > time.Second {
		t.Fatalf("returned after %v", took)
	}
	if loneExpected() {
		if !errors.Is(err, hberr.ErrConnection) || c.Err() == nil {
			t.Fatalf("err = %v, connection %v; want the connection failed", err, c.Err())
		}
	} else if !errors.Is(err, context.DeadlineExceeded) || c.Err() != nil {
		t.Fatalf("err = %v, connection %v", err, c.Err())
	}
}
