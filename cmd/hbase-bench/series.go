package main

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// point is one window of a run (-interval wide): what -json keeps as the time series and
// -plot draws. Latencies are of the window's successful operations.
type point struct {
	T         float64 `json:"t_sec"` // end of the window, seconds since the run began
	Ops       int64   `json:"ops"`
	Errors    int64   `json:"errors"`
	OpsPerSec float64 `json:"ops_per_sec"`
	P50Micros int64   `json:"p50_us"`
	P95Micros int64   `json:"p95_us"`
	P99Micros int64   `json:"p99_us"`
	MaxMicros int64   `json:"max_us"`
}

// Window histograms need less precision than the run's (2 significant digits: 1%), which
// keeps the one each worker fills small (about 20 KB instead of 140).
const windowSigFigs = 2

func newWindowHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(histMinMicros, histMaxMicros, windowSigFigs)
}

// sampler cuts a run into windows: each tick it takes what every worker recorded since the
// last one (under the worker's own lock, which only the sampler ever contends for).
type sampler struct {
	workers []*worker
	agg     *hdrhistogram.Histogram
	start   time.Time
	last    time.Time
	ops     int64 // totals so far, for the progress line
	errs    int64
	series  []point
}

func newSampler(workers []*worker, start time.Time) *sampler {
	return &sampler{workers: workers, agg: newWindowHistogram(), start: start, last: start}
}

// collect closes the window ending at now and appends it to the series.
func (s *sampler) collect(now time.Time) point {
	s.agg.Reset()
	var p point
	for _, w := range s.workers {
		w.mu.Lock()
		s.agg.Merge(w.win)
		w.win.Reset()
		p.Ops += w.winOps
		p.Errors += w.winErrs
		w.winOps, w.winErrs = 0, 0
		w.mu.Unlock()
	}
	p.T = now.Sub(s.start).Seconds()
	if d := now.Sub(s.last); d > 0 {
		p.OpsPerSec = float64(p.Ops) / d.Seconds()
	}
	if s.agg.TotalCount() > 0 {
		p.P50Micros = s.agg.ValueAtPercentile(50)
		p.P95Micros = s.agg.ValueAtPercentile(95)
		p.P99Micros = s.agg.ValueAtPercentile(99)
		p.MaxMicros = s.agg.Max()
	}
	s.last = now
	s.ops += p.Ops
	s.errs += p.Errors
	s.series = append(s.series, p)
	return p
}

// progressUpdate is what the live progress line shows after each window.
type progressUpdate struct {
	Label   string        // workload, and mode or warm-up
	Elapsed time.Duration // since the run began
	Planned time.Duration // -duration of the run (0: bounded by -ops)
	Ops     int64         // successful operations so far
	Errors  int64
	Window  point
}
