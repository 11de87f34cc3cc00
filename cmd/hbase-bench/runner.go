package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/go-hbase/hbase/internal/cputime"
)

// runSpec is one bounded run of one workload.
type runSpec struct {
	Kind        workloadKind
	Mode        string // security mode label, "" outside -compare-security
	Concurrency int
	Duration    time.Duration // 0: no time limit
	Ops         int64         // 0: no operation limit
	OpTimeout   time.Duration
	Rows        int64
	KeySize     int
	ValueSize   int
	ScanRows    int
	Seed        uint64
	// Seq is the next row of seqwrite, shared by its workers and by its rounds.
	Seq *atomic.Uint64
	// ServerCPU, when set, reads the server's CPU time before and after the run.
	ServerCPU func() (time.Duration, error)
}

// errInterrupted is returned when the caller's context ended before the run did.
var errInterrupted = errors.New("interrupted")

// worker is one goroutine's share of a run: counters and a histogram of its own, merged
// after the run so that recording a sample never contends with another worker.
type worker struct {
	rng     *rand.Rand
	key     []byte
	value   []byte
	hist    *hdrhistogram.Histogram
	ops     int64
	errs    int64
	empty   int64
	rows    int64
	samples []string
}

// runWorkload runs spec against st until its duration or operation count is reached, and
// measures it. It returns errInterrupted (with the partial result) when ctx ends first.
// Failed operations are counted in the result, not returned.
func runWorkload(ctx context.Context, st store, spec runSpec) (*result, error) {
	if spec.Duration <= 0 && spec.Ops <= 0 {
		return nil, errors.New("unbounded run: neither a duration nor an operation count")
	}
	if spec.Seq == nil {
		spec.Seq = new(atomic.Uint64)
	}
	var stop atomic.Bool
	var claimed atomic.Int64
	workers := make([]*worker, spec.Concurrency)

	// Everything a worker needs is allocated before the first reading, so that the figures
	// per operation hold the operations' cost alone.
	for i := range workers {
		rng := rand.New(rand.NewPCG(spec.Seed, uint64(i)+1))
		w := &worker{
			hist:    newHistogram(),
			rng:     rng,
			key:     make([]byte, 0, spec.KeySize),
			value:   make([]byte, spec.ValueSize),
			samples: make([]string, 0, maxErrorSamples),
		}
		for j := range w.value {
			w.value[j] = byte(rng.Uint32())
		}
		workers[i] = w
	}
	var wg sync.WaitGroup
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	server0, serverOK := spec.serverCPU()
	cpu0, cpuErr := cputime.Self()
	start := time.Now()
	if spec.Duration > 0 {
		t := time.AfterFunc(spec.Duration, func() { stop.Store(true) })
		defer t.Stop()
	}
	for _, w := range workers {
		wg.Go(func() { w.run(ctx, st, &spec, &stop, &claimed) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, cpuErr1 := cputime.Self()
	server1, serverOK1 := spec.serverCPU()
	runtime.ReadMemStats(&ms1)

	r := newResult(spec.Kind, spec.Mode)
	r.elapsed = elapsed
	if cpuErr == nil && cpuErr1 == nil {
		r.cpu = cpu1 - cpu0
	}
	if serverOK && serverOK1 {
		r.server, r.serverKnown = server1-server0, true
	}
	r.mallocs = ms1.Mallocs - ms0.Mallocs
	r.bytes = ms1.TotalAlloc - ms0.TotalAlloc
	for _, w := range workers {
		r.Ops += w.ops
		r.Errors += w.errs
		r.Empty += w.empty
		r.Rows += w.rows
		r.hist.Merge(w.hist)
		for _, s := range w.samples {
			r.addErrorSample(s)
		}
	}
	r.finish()
	if ctx.Err() != nil {
		return r, fmt.Errorf("%s: %w: %v", spec.Kind, errInterrupted, context.Cause(ctx))
	}
	return r, nil
}

func (w *worker) run(ctx context.Context, st store, spec *runSpec, stop *atomic.Bool, claimed *atomic.Int64) {
	key, value := w.key, w.value
	for !stop.Load() && ctx.Err() == nil {
		if spec.Ops > 0 && claimed.Add(1) > spec.Ops {
			return
		}
		var row uint64
		if spec.Kind == seqWrite {
			row = (spec.Seq.Add(1) - 1) % uint64(spec.Rows)
		} else {
			row = w.rng.Uint64N(uint64(spec.Rows))
		}
		key = appendKey(key[:0], row, spec.KeySize)

		begin := time.Now()
		opCtx, cancel := context.WithTimeout(ctx, spec.OpTimeout)
		var err error
		switch spec.Kind {
		case randRead:
			var found bool
			if found, err = st.Get(opCtx, key); err == nil && !found {
				w.empty++
			}
		case randWrite, seqWrite:
			err = st.Put(opCtx, key, value)
		case scanRows:
			var n int
			if n, err = st.Scan(opCtx, key, spec.ScanRows); err == nil {
				w.rows += int64(n)
				if n == 0 {
					w.empty++
				}
			}
		default:
			err = fmt.Errorf("unknown workload %q", spec.Kind)
		}
		cancel()
		lat := time.Since(begin)
		if err != nil {
			if ctx.Err() != nil {
				return // interrupted: the failure is ours, not the server's
			}
			w.errs++
			if len(w.samples) < maxErrorSamples {
				w.samples = append(w.samples, err.Error())
			}
			continue
		}
		w.ops++
		recordLatency(w.hist, lat)
	}
}

// serverCPU reads the server's CPU time; false when there is no reading.
func (s *runSpec) serverCPU() (time.Duration, bool) {
	if s.ServerCPU == nil {
		return 0, false
	}
	d, err := s.ServerCPU()
	return d, err == nil
}
