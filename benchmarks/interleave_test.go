package benchmarks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
)

// valueLen is the size of every value written, by every client measured.
const valueLen = 1024

// side is one client measured: it runs a block of n Gets or Puts on rows "row%05d" of
// (start+i) mod 500 from conc callers (operation i on caller i mod conc) and returns their
// latencies in operation order, and it reads the CPU time of the process it runs in.
type side struct {
	name string
	run  func(ctx context.Context, op string, start, n, conc int) ([]time.Duration, error)
	cpu  func() (time.Duration, error)
}

// goSide is a go-hbase client working table in this process.
func goSide(name string, c *hbase.Client, table string) side {
	value := bytes.Repeat([]byte("v"), valueLen)
	var lat []time.Duration
	one := func(ctx context.Context, op string, row []byte) (time.Duration, error) {
		t0 := time.Now()
		var err error
		if op == "Put" {
			var p *hrpc.Put
			if p, err = hrpc.NewPut(table, row, hrpc.Value([]byte("f"), []byte("q"), value)); err == nil {
				_, err = c.Put(ctx, p)
			}
		} else {
			var g *hrpc.Get
			if g, err = hrpc.NewGet(table, row); err == nil {
				_, err = c.Get(ctx, g)
			}
		}
		return time.Since(t0), err
	}
	return side{
		name: name,
		cpu:  cputime.Self, // this process only: the JVM is another process
		run: func(ctx context.Context, op string, start, n, conc int) ([]time.Duration, error) {
			lat = slices.Grow(lat[:0], n)[:n]
			errs := make([]error, conc)
			var wg sync.WaitGroup
			for k := range conc {
				caller := func() {
					for i := k; i < n; i += conc {
						row := []byte(fmt.Sprintf("row%05d", (start+i)%500))
						if lat[i], errs[k] = one(ctx, op, row); errs[k] != nil {
							return
						}
					}
				}
				if conc == 1 {
					caller() // no goroutine hand-off in the sequential case
				} else {
					wg.Go(caller)
				}
			}
			wg.Wait()
			return lat, errors.Join(errs...)
		},
	}
}

// javaSide is the standard Java client (hbasetest.JavaClient) working table in its own JVM.
func javaSide(j *hbasetest.JavaClient, table string) side {
	return side{
		name: "Java client",
		cpu:  j.CPUTime,
		run: func(ctx context.Context, op string, start, n, conc int) ([]time.Duration, error) {
			if op == "Put" {
				return j.Puts(ctx, table, start, n, conc, valueLen)
			}
			return j.Gets(ctx, table, start, n, conc)
		},
	}
}

// interleave measures every side's Gets and Puts, issued by conc callers, against cl. After an unrecorded warm-up
// round of warmup operations per side and operation (JIT, connections, region caches; then
// afterWarmup runs), the sides take turns in
// blocks of block operations, in blockOrder's balanced order, so that drift of this shared
// machine and of the cluster's JVM (garbage collection, memstore flushes, JIT) hits every side
// alike. Each block's latencies, its side's CPU and the cluster JVM's CPU (none when cl is
// nil) go into st.
func interleave(t *testing.T, st *stats, cl *hbasetest.Cluster, sides []side, ops, block, warmup, conc int, afterWarmup func()) {
	ctx := t.Context()
	rounds := ops / block
	for round := -1; round < rounds; round++ {
		n := block
		if round < 0 {
			n = warmup
		}
		if round == 0 && afterWarmup != nil {
			afterWarmup()
		}
		for _, i := range blockOrder(max(round, 0), len(sides)) {
			sd := sides[i]
			for _, op := range []string{"Get", "Put"} {
				cpu0, server0 := sideCPU(t, sd), clusterCPU(t, cl)
				// The label tells the sides apart in a -cpuprofile (go tool pprof -tagfocus
				// block=side2-Get); goroutines a client starts in its first block, its
				// connections' readers, carry it too.
				pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("block", fmt.Sprintf("side%d-%s", i, op))))
				began := time.Now()
				lat, err := sd.run(ctx, op, max(round, 0)*block, n, conc)
				wall := time.Since(began)
				pprof.SetGoroutineLabels(ctx)
				if err != nil {
					t.Fatalf("%s %s: %v", sd.name, op, err)
				}
				if round < 0 {
					continue
				}
				a := st.get(sd.name, op)
				q := a.q[round*quarters/rounds]
				for _, d := range lat {
					a.h.Record(d.Nanoseconds())
					q.Record(d.Nanoseconds())
				}
				a.cpu += sideCPU(t, sd) - cpu0
				a.server += clusterCPU(t, cl) - server0
				a.n += n
				a.wall += wall
			}
		}
	}
}

func sideCPU(t *testing.T, sd side) time.Duration {
	d, err := sd.cpu()
	if err != nil {
		t.Fatalf("%s: %v", sd.name, err)
	}
	return d
}

// clusterCPU is the CPU time of the cluster's JVM: its region server, master, ZooKeeper and
// KDC, of which the region server serving the requests is nearly all while a block runs.
func clusterCPU(t *testing.T, cl *hbasetest.Cluster) time.Duration {
	if cl == nil {
		return 0
	}
	d, err := cl.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestInterleave: the warm-up is run but not recorded, every side runs every operation in
// every round, the first side rotates, and the quarters split the rounds evenly.
func TestInterleave(t *testing.T) {
	var order []string
	fake := func(name string, lat time.Duration) side {
		var cpu time.Duration
		return side{
			name: name,
			cpu:  func() (time.Duration, error) { return cpu, nil },
			run: func(_ context.Context, op string, start, n, _ int) ([]time.Duration, error) {
				order = append(order, fmt.Sprintf("%s/%s/%d/%d", name, op, start, n))
				cpu += time.Duration(n) * time.Microsecond
				out := make([]time.Duration, n)
				for i := range out {
					out[i] = lat
				}
				return out, nil
			},
		}
	}
	st := newStats()
	warmedUp := false
	interleave(t, st, nil, []side{fake("a", time.Millisecond), fake("b", 2*time.Millisecond)}, 80, 10, 30, 1, func() { warmedUp = true })
	if !warmedUp {
		t.Fatal("afterWarmup did not run")
	}
	want := []string{"a/Get/0/30", "a/Put/0/30", "b/Get/0/30", "b/Put/0/30", // warm-up
		"a/Get/0/10", "a/Put/0/10", "b/Get/0/10", "b/Put/0/10", // round 0: a first
		"b/Get/10/10", "b/Put/10/10", "a/Get/10/10", "a/Put/10/10"} // round 1: b first
	for i, w := range want {
		if order[i] != w {
			t.Fatalf("block %d ran %s, want %s (all: %v)", i, order[i], w, order[:len(want)])
		}
	}
	if len(order) != 4+8*4 {
		t.Fatalf("%d blocks, want a warm-up of 4 and 8 rounds of 4", len(order))
	}
	for _, m := range st.results() {
		lat := time.Millisecond
		if m.side == "b" {
			lat *= 2
		}
		if m.ops != 80 || m.p75 < lat*99/100 || m.p75 > lat*101/100 || m.cpuPerOp != time.Microsecond || m.serverPerOp != 0 {
			t.Errorf("%s %s: %d ops, p75 %v, CPU %v/op, server %v/op", m.side, m.op, m.ops, m.p75, m.cpuPerOp, m.serverPerOp)
		}
		for i, q := range m.quarterP75 {
			if q < lat*99/100 || q > lat*101/100 {
				t.Errorf("%s %s: quarter %d p75 %v (no samples?)", m.side, m.op, i, q)
			}
		}
	}
}
