package engine

import (
	"context"

	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// overloadConf makes a one-server cluster refuse calls under a modest load: one handler for
// ordinary calls and a queue of one call behind it (a region server throws
// CallQueueTooBigException when its queue is full), a small memstore flush size so that the
// memstore load the server reports moves between 0 and 100 %, and the load statistics of
// MultiResponses switched on (hbase.client.backpressure.enabled on the server).
var overloadConf = map[string]string{
	"hbase.regionserver.handler.count":        "1",
	"hbase.ipc.server.max.callqueue.length":   "1",
	"hbase.client.backpressure.enabled":       "true",
	"hbase.hregion.memstore.flush.size":       "2097152",
	"hbase.hregion.memstore.block.multiplier": "8",
}

// overloadRun is what one mode of the overload test measured.
type overloadRun struct {
	name             string
	acked, failed    atomic.Int64
	lat              []time.Duration // of acknowledged single Puts
	attempts         []int           // RPCs of each acknowledged single Put
	batchActs        atomic.Int64    // acknowledged Puts of batches
	mu               sync.Mutex
	rows             map[string][]byte // acknowledged writes: row → value
	stats            hbasetrace.Stats
	elapsed          time.Duration
	failedOverloaded atomic.Int64 // failures whose last error was an overload refusal
}

type attemptCounter struct{ n atomic.Int32 }

type attemptKey struct{}

// TestOverloadAgainstHBase: a region server with one handler and a call queue of one refuses
// calls (CallQueueTooBigException) under 12 writers; the client pauses after each refusal
// (WithOverloadPause) instead of refilling the queue. Every acknowledged write is read back
// afterwards; the attempts of each acknowledged Put stay within what the overload pauses
// allow in its deadline; refusals and pauses are counted in Stats and reported to the hooks.
// It runs twice, without and with backpressure from the servers' load statistics
// (WithBackpressure), and prints throughput and latency side by side: 3 s each in make test,
// 20 s times GOHBASE_RELIABILITY_ROUNDS in make reliability.
func TestOverloadAgainstHBase(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1, Conf: overloadConf})
	ctx := testContext(t, 5*time.Minute)
	const table = "overloaded"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	dur := 3 * time.Second
	if os.Getenv("GOHBASE_RELIABILITY_ROUNDS") != "" {
		dur = 20 * time.Second * time.Duration(reliabilityRounds(t))
	}
	const (
		pause    = 50 * time.Millisecond
		deadline = 3 * time.Second
	)
	var runs []*overloadRun
	for _, mode := range []struct {
		name string
		opts []Option
	}{
		{"no backpressure", nil},
		{"backpressure 1s", []Option{WithBackpressure(time.Second)}},
	} {
		run := &overloadRun{name: mode.name, rows: make(map[string][]byte)}
		var hookPauses, hookBackpressure atomic.Int64
		hooks := &hbasetrace.Hooks{
			Attempt: func(ctx context.Context, _ hbasetrace.AttemptInfo) {
				if ac, ok := ctx.Value(attemptKey{}).(*attemptCounter); ok {
					ac.n.Add(1)
				}
			},
			Backoff: func(_ context.Context, ev hbasetrace.BackoffInfo) {
				if ev.Overloaded {
					hookPauses.Add(1)
				}
				if ev.Backpressure {
					hookBackpressure.Add(1)
				}
			},
		}
		opts := append([]Option{WithZNodeParent(cl.ZNodeParent), WithOverloadPause(pause), WithHooks(hooks)}, mode.opts...)
		c, err := NewClient(cl.ZKQuorum, opts...)
		if err != nil {
			t.Fatal(err)
		}
		runOverload(t, ctx, c, run, table, dur, deadline)
		run.stats = c.Stats()
		c.Close()
		runs = append(runs, run)
		st := run.stats
		t.Logf("%s: %d writes acknowledged, %d failed (%d overloaded); overload errors %d, pauses %d (%v), backpressure delays %d (%v)",
			run.name, run.acked.Load(), run.failed.Load(), run.failedOverloaded.Load(), st.OverloadErrors, st.OverloadPauses,
			st.OverloadPauseTime.Round(time.Millisecond), st.BackpressureDelays, st.BackpressureTime.Round(time.Millisecond))
		if st.OverloadErrors == 0 && mode.opts == nil {
			t.Errorf("%s: no call refused as overloaded: the load did not overload the server", run.name)
		}
		if int64(st.OverloadPauses) != hookPauses.Load() || int64(st.BackpressureDelays) != hookBackpressure.Load() {
			t.Errorf("%s: Stats count %d overload pauses and %d backpressure delays; the hooks saw %d and %d",
				run.name, st.OverloadPauses, st.BackpressureDelays, hookPauses.Load(), hookBackpressure.Load())
		}
		if st.OverloadPauses > 0 && st.OverloadPauseTime < time.Duration(st.OverloadPauses)*pause/2 {
			t.Errorf("%s: %d overload pauses took %v; each is at least %v", run.name, st.OverloadPauses, st.OverloadPauseTime, pause/2)
		}
		// No pause without a refusal: a batch pauses once for all its refused actions, a
		// single call once per refusal it retries.
		if st.OverloadPauses > st.OverloadErrors {
			t.Errorf("%s: %d overload pauses for %d refusals", run.name, st.OverloadPauses, st.OverloadErrors)
		}
		// A call makes at most as many attempts as the shortest overload pauses (half the
		// nominal ones: 25, 50, 100... ms up to half of 10 × 50 ms) fit in its deadline.
		bound := 1
		for d, sum := pause, time.Duration(0); ; bound++ {
			sum += d / 2
			if sum > deadline {
				break
			}
			d = min(2*d, 10*pause)
		}
		if m := slices.Max(append(run.attempts, 0)); m > bound {
			t.Errorf("%s: an acknowledged Put took %d attempts; the overload pauses allow at most %d in %v", run.name, m, bound, deadline)
		}
		checkAcked(t, ctx, cl, run, table)
	}
	t.Logf("%-16s %10s %10s %10s %10s %12s %12s", "mode", "writes/s", "Put p50", "Put p99", "failed", "attempts/Put", "max attempts")
	for _, r := range runs {
		t.Logf("%-16s %10.0f %10v %10v %10d %12.2f %12d", r.name, float64(r.acked.Load())/r.elapsed.Seconds(),
			percentile(r.lat, 0.5).Round(100*time.Microsecond), percentile(r.lat, 0.99).Round(100*time.Microsecond),
			r.failed.Load(), mean(r.attempts), slices.Max(append(r.attempts, 0)))
	}
}

// runOverload runs 8 writers of single Puts and 4 writers of 25-Put batches for dur, each
// write with a deadline, recording what was acknowledged.
func runOverload(t *testing.T, ctx context.Context, c *Client, run *overloadRun, table string, dur, deadline time.Duration) {
	value := make([]byte, 1024)
	for i := range value {
		value[i] = byte(i)
	}
	start := time.Now()
	stop := start.Add(dur)
	var wg sync.WaitGroup
	for g := range 12 {
		wg.Go(func() {
			for n := 0; time.Now().Before(stop) && ctx.Err() == nil; n++ {
				if g < 8 {
					row := fmt.Sprintf("%c,%s-%02d-%08d", 0, run.name[:2], g, n)
					p, err := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), value))
					if err != nil {
						t.Error(err)
						return
					}
					ac := &attemptCounter{}
					cctx, cancel := context.WithTimeout(context.WithValue(ctx, attemptKey{}, ac), deadline)
					t0 := time.Now()
					_, err = c.Put(cctx, p)
					cancel()
					run.record(row, value, err, time.Since(t0), int(ac.n.Load()))
					continue
				}
				calls := make([]hrpc.Batchable, 25)
				rows := make([]string, 25)
				for k := range calls {
					rows[k] = fmt.Sprintf("%c,%s-%02d-%08d-%02d", 0, run.name[:2], g, n, k)
					calls[k], _ = hrpc.NewPut(table, []byte(rows[k]), hrpc.Value([]byte("f"), []byte("q"), value))
				}
				cctx, cancel := context.WithTimeout(ctx, deadline)
				res := c.SendBatch(cctx, calls)
				cancel()
				for k, r := range res {
					run.record(rows[k], value, r.Err, -1, 0)
				}
			}
		})
	}
	wg.Wait()
	run.elapsed = time.Since(start)
}

func (r *overloadRun) record(row string, value []byte, err error, lat time.Duration, attempts int) {
	if err != nil {
		r.failed.Add(1)
		if hberr.IsOverloaded(err) {
			r.failedOverloaded.Add(1)
		}
		return
	}
	r.acked.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows[row] = value
	if lat >= 0 {
		r.lat = append(r.lat, lat)
		r.attempts = append(r.attempts, attempts)
	} else {
		r.batchActs.Add(1)
	}
}

// checkAcked reads every acknowledged write back with a client of its own.
func checkAcked(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, run *overloadRun, table string) {
	t.Helper()
	c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rows := make([]string, 0, len(run.rows))
	for row := range run.rows {
		rows = append(rows, row)
	}
	missing := 0
	for chunk := range slices.Chunk(rows, 200) {
		calls := make([]hrpc.Batchable, len(chunk))
		for i, row := range chunk {
			calls[i], _ = hrpc.NewGet(table, []byte(row))
		}
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		start := time.Now()
		// A batch still waiting after 30 s has met a stalled server (it normally takes
		// milliseconds): take the servers' threads while it waits, for the failure below.
		serverThreads := make(chan string, 1)
		stalled := time.AfterFunc(30*time.Second, func() { serverThreads <- dumpServerThreads(ctx, cl) })
		res := c.SendBatch(cctx, calls)
		cancel()
		if !stalled.Stop() {
			defer func() { t.Log(<-serverThreads) }()
		}
		for i, r := range res {
			if r.Err != nil {
				// Say whether the client retried, was refused or waited on a silent server,
				// and where it waited.
				var stacks strings.Builder
				pprof.Lookup("goroutine").WriteTo(&stacks, 1) //nolint:errcheck // a diagnostic
				t.Fatalf("%s: reading back %q after %v: %v\nread-back client: %+v\ngoroutines:\n%s",
					run.name, chunk[i], time.Since(start).Round(time.Millisecond), r.Err, c.Stats(), stacks.String())
			}
			if len(r.Result.Cells) != 1 || string(r.Result.Cells[0].Value) != string(run.rows[chunk[i]]) {
				missing++
			}
		}
	}
	if missing > 0 {
		t.Errorf("%s: %d of %d acknowledged writes not read back", run.name, missing, len(rows))
	}
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(int(float64(len(s))*p), len(s)-1)]
}

func mean(v []int) float64 {
	if len(v) == 0 {
		return 0
	}
	sum := 0
	for _, x := range v {
		sum += x
	}
	return float64(sum) / float64(len(v))
}

// dumpServerThreads writes the cluster's threads to a file that outlives the test and says
// where, with the region server's RPC threads (handlers, readers, responder) in full: what a
// server that neither answers nor reads was doing.
func dumpServerThreads(ctx context.Context, cl *hbasetest.Cluster) string {
	f, err := os.CreateTemp("", "go-hbase-stall-threads-*.txt")
	if err != nil {
		return fmt.Sprintf("server threads: %v", err)
	}
	f.Close()
	n, err := cl.ThreadDump(ctx, f.Name())
	if err != nil {
		return fmt.Sprintf("server threads: %v", err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return fmt.Sprintf("server threads: %v", err)
	}
	var rpc strings.Builder
	for entry := range strings.SplitSeq(string(b), "\n\n") {
		if strings.Contains(entry, "RpcServer") {
			rpc.WriteString(entry)
			rpc.WriteString("\n\n")
		}
	}
	return fmt.Sprintf("server threads 30 s into the stalled batch: %d in %s; the RPC server's:\n%s", n, f.Name(), rpc.String())
}
