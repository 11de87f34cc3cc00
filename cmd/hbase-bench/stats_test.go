package main

import (
	"testing"
	"time"
)

// Per-worker histograms merged must give the percentiles of all samples together.
func TestMergedPercentiles(t *testing.T) {
	a, b := newResult(randRead, ""), newResult(randRead, "")
	for v := 1; v <= 1000; v++ {
		recordLatency(a.hist, time.Duration(v)*time.Microsecond)      // 1 .. 1000 µs
		recordLatency(b.hist, time.Duration(v+1000)*time.Microsecond) // 1001 .. 2000 µs
	}
	a.Ops, b.Ops = 1000, 1000
	a.elapsed, b.elapsed = time.Second, time.Second
	a.cpu, b.cpu = 10*time.Millisecond, 30*time.Millisecond
	a.mallocs, b.mallocs = 5000, 7000
	a.ErrorSamples, b.ErrorSamples = []string{"x"}, []string{"x", "y"}
	a.finish()
	if a.P50Micros != 500 || a.P99Micros != 990 {
		t.Errorf("one worker: p50 %d p99 %d, want 500 and 990", a.P50Micros, a.P99Micros)
	}
	a.merge(b)
	check := func(name string, got, want int64) {
		t.Helper()
		// 3 significant digits: a value is within 0.1% of the true one.
		if d := got - want; d < -want/1000-1 || d > want/1000+1 {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	check("p50", a.P50Micros, 1000)
	check("p75", a.P75Micros, 1500)
	check("p95", a.P95Micros, 1900)
	check("p99", a.P99Micros, 1980)
	check("max", a.MaxMicros, 2000)
	if a.Ops != 2000 || a.OpsPerSec != 1000 {
		t.Errorf("ops %d ops/s %v, want 2000 over 2 s", a.Ops, a.OpsPerSec)
	}
	if a.CPUMicrosOp != 20 || a.AllocsPerOp != 6 {
		t.Errorf("CPU %v µs/op allocs %v/op, want 20 and 6", a.CPUMicrosOp, a.AllocsPerOp)
	}
	if len(a.ErrorSamples) != 2 {
		t.Errorf("error samples %q, want x and y once each", a.ErrorSamples)
	}
}

func TestRecordLatencyClamps(t *testing.T) {
	r := newResult(randRead, "")
	recordLatency(r.hist, 0)
	recordLatency(r.hist, time.Hour)
	r.finish()
	if r.hist.TotalCount() != 2 {
		t.Fatalf("%d samples recorded, want both", r.hist.TotalCount())
	}
	if r.P50Micros != 1 || r.MaxMicros < histMaxMicros*999/1000 {
		t.Errorf("p50 %d max %d, want 1 and about %d", r.P50Micros, r.MaxMicros, histMaxMicros)
	}
}

func TestEmptyResult(t *testing.T) {
	r := newResult(randomSeekScan, "")
	r.finish()
	if r.P50Micros != 0 || r.MaxMicros != 0 || r.OpsPerSec != 0 || r.CPUMicrosOp != 0 {
		t.Errorf("empty result has figures: %+v", r)
	}
}
