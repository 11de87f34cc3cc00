package main

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func testSpec(kind workloadKind) runSpec {
	return runSpec{
		Kind: kind, Concurrency: 4, OpTimeout: time.Second, Rows: 1000,
		KeySize: 10, ValueSize: 20, ScanRows: 10, Seed: 1,
	}
}

func TestRunWorkloadStopsAtOps(t *testing.T) {
	st := newMemStore()
	spec := testSpec(randWrite)
	spec.Ops = 777
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 777 || r.Errors != 0 || st.calls.Load() != 777 {
		t.Errorf("ops %d errors %d calls %d, want exactly 777 successful calls", r.Ops, r.Errors, st.calls.Load())
	}
	if r.hist.TotalCount() != 777 {
		t.Errorf("histogram holds %d samples, want 777", r.hist.TotalCount())
	}
	if r.P50Micros < 1 || r.P50Micros > r.P99Micros || r.P99Micros > r.MaxMicros {
		t.Errorf("percentiles out of order: p50 %d p99 %d max %d", r.P50Micros, r.P99Micros, r.MaxMicros)
	}
	if r.OpsPerSec <= 0 || r.AllocsPerOp <= 0 {
		t.Errorf("ops/s %v allocs/op %v, want both positive", r.OpsPerSec, r.AllocsPerOp)
	}
}

func TestRunWorkloadStopsAtDuration(t *testing.T) {
	st := newMemStore()
	st.delay = time.Millisecond
	spec := testSpec(randRead)
	spec.Duration = 150 * time.Millisecond
	start := time.Now()
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 150*time.Millisecond || el > 2*time.Second {
		t.Errorf("a 150ms run took %v", el)
	}
	if r.Ops == 0 || r.Empty != r.Ops {
		t.Errorf("ops %d empty %d: every read of an empty table finds nothing", r.Ops, r.Empty)
	}
	if r.P50Micros < 1000 {
		t.Errorf("p50 %dµs below the store's 1ms delay", r.P50Micros)
	}
	if r.CPUMicrosOp <= 0 {
		t.Errorf("CPU per op %v, want positive", r.CPUMicrosOp)
	}
}

func TestRunWorkloadCountsErrors(t *testing.T) {
	st := newMemStore()
	st.failN = 10
	spec := testSpec(randWrite)
	spec.Ops = 1000
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Errors != 100 || r.Ops != 900 {
		t.Errorf("ops %d errors %d, want 900 and 100", r.Ops, r.Errors)
	}
	if len(r.ErrorSamples) != 1 || r.ErrorSamples[0] != errInjected.Error() {
		t.Errorf("error samples %q, want the one injected error once", r.ErrorSamples)
	}
	if r.hist.TotalCount() != 900 {
		t.Errorf("histogram holds %d samples; failed operations must not be in it", r.hist.TotalCount())
	}
}

func TestRunWorkloadRequestDeadline(t *testing.T) {
	st := newMemStore()
	st.delay = time.Hour // only the per-request deadline ends a call
	spec := testSpec(randRead)
	spec.Ops, spec.Concurrency, spec.OpTimeout = 3, 1, 20*time.Millisecond
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Errors != 3 || !strings.Contains(r.ErrorSamples[0], "deadline exceeded") {
		t.Errorf("errors %d %q, want 3 deadline errors", r.Errors, r.ErrorSamples)
	}
}

func TestRunWorkloadInterrupted(t *testing.T) {
	st := newMemStore()
	st.delay = time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	spec := testSpec(randWrite)
	spec.Duration = time.Hour
	start := time.Now()
	r, err := runWorkload(ctx, st, spec)
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("error %v, want errInterrupted", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("interrupted run took %v to return", time.Since(start))
	}
	if r == nil || r.Ops == 0 || r.Errors != 0 {
		t.Errorf("partial result %+v: want the completed ops and no errors for the cancelled ones", r)
	}
}

func TestRunWorkloadUnbounded(t *testing.T) {
	if _, err := runWorkload(t.Context(), newMemStore(), testSpec(randRead)); err == nil {
		t.Error("a run with neither duration nor ops started")
	}
}

func TestSeqWriteCoversRowsInOrder(t *testing.T) {
	st := newMemStore()
	st.putKeys = make(chan []byte, 100)
	spec := testSpec(seqWrite)
	spec.Concurrency, spec.Ops, spec.Rows = 1, 100, 60
	spec.Seq = new(atomic.Uint64)
	if _, err := runWorkload(t.Context(), st, spec); err != nil {
		t.Fatal(err)
	}
	close(st.putKeys)
	i := uint64(0)
	for k := range st.putKeys {
		if want := string(appendKey(nil, i%60, 10)); string(k) != want {
			t.Fatalf("put %d wrote %q, want %q (wrapping at -rows)", i, k, want)
		}
		i++
	}
	if st.len() != 60 {
		t.Errorf("%d rows written, want all 60", st.len())
	}
	if spec.Seq.Load() != 100 {
		t.Errorf("sequence at %d, want 100 so the next round continues", spec.Seq.Load())
	}
}

func TestScanCountsRows(t *testing.T) {
	st := newMemStore()
	load := testSpec(seqWrite)
	load.Ops, load.Rows = 1000, 1000
	if _, err := runWorkload(t.Context(), st, load); err != nil {
		t.Fatal(err)
	}
	spec := testSpec(randomSeekScan)
	spec.Ops, spec.ScanRows = 200, 10
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	// Scans start at a random row; only those in the last 9 rows read fewer than 10.
	if r.Rows < 200*10-200*9 || r.Rows > 200*10 || r.Ops != 200 {
		t.Errorf("200 scans of 10 rows read %d rows (ops %d)", r.Rows, r.Ops)
	}
}

// TestRunWorkloadServerCPU: the server's CPU is read around the run and divided by its
// operations; merging rounds adds it up, and a round without a reading drops the figure.
func TestRunWorkloadServerCPU(t *testing.T) {
	var clock atomic.Int64
	spec := testSpec(randWrite)
	spec.Ops = 100
	spec.ServerCPU = func() (time.Duration, error) {
		return time.Duration(clock.Add(int64(5 * time.Millisecond))), nil // 5ms per reading
	}
	r, err := runWorkload(t.Context(), newMemStore(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if !r.serverKnown || r.ServerCPUMicrosOp != 50 {
		t.Fatalf("server CPU %vµs/op (known %v), want 5ms over 100 ops = 50", r.ServerCPUMicrosOp, r.serverKnown)
	}
	other, err := runWorkload(t.Context(), newMemStore(), spec)
	if err != nil {
		t.Fatal(err)
	}
	r.merge(other)
	if r.ServerCPUMicrosOp != 50 || r.Ops != 200 {
		t.Errorf("merged: server CPU %vµs/op over %d ops, want 50 over 200", r.ServerCPUMicrosOp, r.Ops)
	}
	spec.ServerCPU = func() (time.Duration, error) { return 0, errors.New("no /proc") }
	blind, err := runWorkload(t.Context(), newMemStore(), spec)
	if err != nil {
		t.Fatal(err)
	}
	r.merge(blind)
	if r.serverKnown || r.ServerCPUMicrosOp != 0 {
		t.Errorf("a round without a reading left %vµs/op (known %v)", r.ServerCPUMicrosOp, r.serverKnown)
	}
}

// TestBufferedWriteClosesWriters: with -buffered each worker writes through a writer of its own,
// closed within the run, so every row is in the store when the run returns.
func TestBufferedWriteClosesWriters(t *testing.T) {
	st := newMemStore()
	spec := testSpec(seqWrite)
	spec.Concurrency, spec.Ops, spec.Rows = 3, 90, 90
	spec.Buffered, spec.WriteBuffer = true, 1<<20
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 90 || r.Errors != 0 || st.len() != 90 {
		t.Errorf("ops %d, errors %d, %d rows in the store; want 90, 0, 90", r.Ops, r.Errors, st.len())
	}
	if st.writers.Load() != 3 || st.closedWriters.Load() != 3 {
		t.Errorf("%d writers made, %d closed; want 3 and 3", st.writers.Load(), st.closedWriters.Load())
	}
}
