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

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// throttleCall is what the hooks saw of one call.
type throttleCall struct {
	mu        sync.Mutex
	attempts  int
	throttled int             // retries after an RpcThrottlingException
	unread    int             // of them, how many named a wait the client could not read
	waits     []time.Duration // the waits the server named, in order
	pauses    []time.Duration // the client's pauses, in order
	short     []string        // pauses shorter than the wait named just before
	pending   time.Duration   // the wait named by the last retry, until its pause
	start     time.Time
	deadline  time.Time
	end       time.Time
	err       error
}

type throttleCallKey struct{}

// throttleHooks record, per call, its attempts, the server's throttling waits and the client's
// pauses: the wait hint as a user sees it through the hooks.
func throttleHooks() *hbasetrace.Hooks {
	get := func(ctx context.Context) *throttleCall {
		tc, _ := ctx.Value(throttleCallKey{}).(*throttleCall)
		return tc
	}
	return &hbasetrace.Hooks{
		Attempt: func(ctx context.Context, _ hbasetrace.AttemptInfo) {
			if tc := get(ctx); tc != nil {
				tc.mu.Lock()
				tc.attempts++
				tc.mu.Unlock()
			}
		},
		Retry: func(ctx context.Context, ev hbasetrace.RetryInfo) {
			tc := get(ctx)
			re, ok := errors.AsType[*hberr.RemoteError](ev.Err)
			if tc == nil || !ok || !throttlingClass(re.Class) {
				return
			}
			tc.mu.Lock()
			defer tc.mu.Unlock()
			tc.throttled++
			w := re.Wait()
			if w <= 0 {
				tc.unread++
			}
			tc.waits = append(tc.waits, w)
			tc.pending = w
		},
		Backoff: func(ctx context.Context, ev hbasetrace.BackoffInfo) {
			tc := get(ctx)
			if tc == nil {
				return
			}
			tc.mu.Lock()
			defer tc.mu.Unlock()
			tc.pauses = append(tc.pauses, ev.Pause)
			if ev.Pause < tc.pending {
				tc.short = append(tc.short, fmt.Sprintf("pause %v after a wait of %v", ev.Pause, tc.pending))
			}
			tc.pending = 0
		},
	}
}

func throttlingClass(class string) bool {
	return class == "org.apache.hadoop.hbase.quotas.RpcThrottlingException"
}

// TestThrottlingAgainstHBase: a real region server with a table throttled to a few requests a
// second refuses calls over the quota with RpcThrottlingException naming a wait; the client
// reads the wait, pauses at least that long (no tight retry loop), and the calls succeed within
// their contexts. Calls whose contexts are too short for the wait end at their context, no
// more than 100 ms past it, with the throttling as their last error. A cluster of its own:
// quotas cannot be switched on in a running cluster.
func TestThrottlingAgainstHBase(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1, Quotas: true})
	ctx := testContext(t, 3*time.Minute)
	const table = "throttled"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent), WithHooks(throttleHooks()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	// call runs one call with a deadline of d and what the hooks saw of it.
	call := func(d time.Duration, f func(context.Context) error) *throttleCall {
		tc := &throttleCall{start: time.Now()}
		cctx, cancel := context.WithTimeout(context.WithValue(ctx, throttleCallKey{}, tc), d)
		defer cancel()
		tc.deadline, _ = cctx.Deadline()
		tc.err = f(cctx)
		tc.end = time.Now()
		return tc
	}
	put := func(row string) func(context.Context) error {
		return func(ctx context.Context) error {
			p, err := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte(row)))
			if err != nil {
				return err
			}
			_, err = c.Put(ctx, p)
			return err
		}
	}
	if tc := call(30*time.Second, put("warm")); tc.err != nil {
		t.Fatalf("Put before the throttle: %v", tc.err)
	}

	const perSecond = 4
	if err := cl.ThrottleTable(ctx, table, perSecond); err != nil {
		t.Fatal(err)
	}
	// The region server applies the throttle at its next quota cache refresh (every second),
	// and evicts a table's limiter idle for a few refreshes: Puts go on until one is refused.
	began := time.Now()
	for i := 0; ; i++ {
		tc := call(10*time.Second, put(fmt.Sprintf("wait%03d", i)))
		if tc.err != nil {
			t.Fatalf("Put while waiting for the throttle: %v", tc.err)
		}
		if tc.throttled > 0 {
			t.Logf("throttle in effect after %v (%d Puts)", time.Since(began).Round(time.Millisecond), i+1)
			break
		}
		if time.Since(began) > 60*time.Second {
			t.Fatalf("no call throttled %v after setting a throttle of %d/s", time.Since(began), perSecond)
		}
		time.Sleep(5 * time.Millisecond) // a few hundred Puts a second are plenty
	}

	// Over the quota with room in the context: 4 callers of 6 Puts each at 4/s, deadlines of
	// 10 s. Every call succeeds; each throttled retry waited at least what the server named.
	const callers, each = 4, 6
	calls := make([]*throttleCall, callers*each)
	var wg sync.WaitGroup
	phase := time.Now()
	for g := range callers {
		wg.Go(func() {
			for i := range each {
				calls[g*each+i] = call(10*time.Second, put(fmt.Sprintf("r%d-%d", g, i)))
			}
		})
	}
	wg.Wait()
	phaseTook := time.Since(phase)
	var attempts, throttled, unread int
	var waits, pauses []time.Duration
	for i, tc := range calls {
		if tc.err != nil {
			t.Errorf("call %d: %v; want success within its 10 s context", i, tc.err)
		}
		attempts += tc.attempts
		throttled += tc.throttled
		unread += tc.unread
		waits = append(waits, tc.waits...)
		pauses = append(pauses, tc.pauses...)
		for _, s := range tc.short {
			t.Errorf("call %d: %s; want at least the wait", i, s)
		}
		// No tight loop: every throttled retry but the last paused at least the shortest
		// wait the server named for this call.
		if tc.throttled > 1 {
			shortest := slices.Min(tc.waits)
			if took := tc.end.Sub(tc.start); shortest > 0 && time.Duration(tc.throttled-1)*shortest > took {
				t.Errorf("call %d: %d throttled retries in %v with waits of at least %v: retried sooner than asked", i, tc.throttled, took, shortest)
			}
		}
	}
	if throttled == 0 {
		t.Fatalf("%d Puts at %d/s with %d callers: none throttled; the test tested nothing", len(calls), perSecond, callers)
	}
	if unread > 0 {
		t.Errorf("%d of %d RpcThrottlingExceptions named a wait the client could not read", unread, throttled)
	}
	slices.Sort(waits)
	slices.Sort(pauses)
	t.Logf("%d Puts by %d callers in %v (%.1f/s against a throttle of %d/s): %d attempts, %d throttled; server's waits %v..%v (median %v); client's pauses %v..%v",
		len(calls), callers, phaseTook.Round(time.Millisecond), float64(len(calls))/phaseTook.Seconds(), perSecond,
		attempts, throttled, waits[0], waits[len(waits)-1], waits[len(waits)/2], pauses[0], pauses[len(pauses)-1])
	if most := len(calls) + throttled; attempts > most {
		t.Errorf("%d attempts for %d calls and %d throttled retries; want at most %d", attempts, len(calls), throttled, most)
	}

	// Batches over the quota: each MultiRequest's region action is refused with the same
	// exception; the batch pauses at least as long as the server asked (every wait above was
	// at least the shortest, one refill of the limiter) and then succeeds.
	const batchers, batches = 2, 4
	batchCalls := make([]*throttleCall, batchers*batches)
	for g := range batchers {
		wg.Go(func() {
			for i := range batches {
				batchCalls[g*batches+i] = call(10*time.Second, func(ctx context.Context) error {
					var puts []hrpc.Batchable
					for k := range 2 {
						p, err := hrpc.NewPut(table, fmt.Appendf(nil, "b%d-%d-%d", g, i, k), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
						if err != nil {
							return err
						}
						puts = append(puts, p)
					}
					var errs []error
					for _, r := range c.SendBatch(ctx, puts) {
						errs = append(errs, r.Err)
					}
					return errors.Join(errs...)
				})
			}
		})
	}
	wg.Wait()
	var batchAttempts, batchPauses int
	for i, tc := range batchCalls {
		if tc.err != nil {
			t.Errorf("batch %d: %v; want success within its 10 s context", i, tc.err)
		}
		batchAttempts += tc.attempts
		batchPauses += len(tc.pauses)
		for _, p := range tc.pauses {
			if p < waits[0] {
				t.Errorf("batch %d paused %v; want at least the server's shortest wait, %v", i, p, waits[0])
			}
		}
	}
	t.Logf("%d batches of 2 Puts: %d MultiRequests, %d pauses", len(batchCalls), batchAttempts, batchPauses)
	if batchPauses == 0 {
		t.Errorf("no batch paused: the throttle did not bite them; the test tested nothing")
	}

	// Over the quota without room: 8 callers of 3 Gets each with 300 ms deadlines. Calls that
	// cannot get through end at their context, no more than 100 ms past it, saying why.
	const shortCallers, shortEach, shortDeadline = 8, 3, 300 * time.Millisecond
	short := make([]*throttleCall, shortCallers*shortEach)
	gets := make([]*hrpc.Get, shortEach)
	for i := range gets {
		gets[i] = mustGetT(t, table, fmt.Sprintf("r0-%d", i))
	}
	for g := range shortCallers {
		wg.Go(func() {
			for i := range shortEach {
				short[g*shortEach+i] = call(shortDeadline, func(ctx context.Context) error {
					_, err := c.Get(ctx, gets[i])
					return err
				})
			}
		})
	}
	wg.Wait()
	var ok, timedOut, early int
	var worst time.Duration
	for i, tc := range short {
		over := tc.end.Sub(tc.deadline)
		worst = max(worst, over)
		if over > 100*time.Millisecond {
			t.Errorf("short call %d returned %v past its deadline; want at most 100ms", i, over)
		}
		switch {
		case tc.err == nil:
			ok++
		case errors.Is(tc.err, context.DeadlineExceeded):
			timedOut++
			if tc.end.Before(tc.deadline) {
				// Ended before its deadline: only a server's wait past it may do that.
				early++
				if !strings.Contains(tc.err.Error(), "the server asked for a wait of") {
					t.Errorf("short call %d ended %v before its deadline: %v", i, tc.deadline.Sub(tc.end), tc.err)
				}
			}
			if tc.throttled > 0 {
				if re, isRemote := errors.AsType[*hberr.RemoteError](tc.err); !isRemote || !throttlingClass(re.Class) {
					t.Errorf("short call %d: %v; want the throttling as its last error", i, tc.err)
				}
			}
		default:
			t.Errorf("short call %d: %v; want success or DeadlineExceeded", i, tc.err)
		}
	}
	t.Logf("%d Gets with %v deadlines: %d succeeded, %d failed with DeadlineExceeded (%d at once, the server asking for a wait past their deadline); latest return %v past a deadline",
		len(short), shortDeadline, ok, timedOut, early, worst.Round(time.Millisecond))
	if timedOut == 0 {
		t.Errorf("no Get of %d at %d/s with %v deadlines timed out; want some refused past their context", len(short), perSecond, shortDeadline)
	}

	// The throttle removed, calls go through unthrottled again (within a few refreshes).
	if err := cl.ThrottleTable(ctx, table, 0); err != nil {
		t.Fatal(err)
	}
	began = time.Now()
	for free := 0; free < 3*perSecond; {
		tc := call(10*time.Second, put("free"))
		if tc.err != nil {
			t.Fatalf("Put after removing the throttle: %v", tc.err)
		}
		if tc.throttled > 0 {
			free = 0
		} else {
			free++
		}
		if time.Since(began) > 60*time.Second {
			t.Fatalf("calls still throttled %v after removing the throttle", time.Since(began))
		}
	}
}
