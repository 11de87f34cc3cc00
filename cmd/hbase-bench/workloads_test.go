package main

import (
	"context"
	"testing"
	"time"
)

// loadedStore is a memStore holding rows [0, rows) with keys of keySize digits.
func loadedStore(t *testing.T, rows int64, keySize int) *memStore {
	t.Helper()
	st := newMemStore()
	spec := testSpec(seqWrite)
	spec.Ops, spec.Rows, spec.KeySize = rows, rows, keySize
	if _, err := runWorkload(t.Context(), st, spec); err != nil {
		t.Fatal(err)
	}
	st.calls.Store(0)
	return st
}

func TestScanRangeWorkloads(t *testing.T) {
	st := loadedStore(t, 1000, 10)
	for _, kind := range []workloadKind{scanRange10, scanRange100, scanRange1000} {
		spec := testSpec(kind)
		spec.Ops = 300
		r, err := runWorkload(t.Context(), st, spec)
		if err != nil {
			t.Fatal(err)
		}
		n := int64(scanRangeOf(kind))
		// Each scan returns min(n, 1000-start) rows: at most n, and only starts in the last
		// n rows return fewer.
		if r.Ops != 300 || r.Errors != 0 || r.Rows > 300*n || r.Rows < 300 {
			t.Errorf("%s: %d ops read %d rows, want at most %d", kind, r.Ops, r.Rows, 300*n)
		}
		if kind != scanRange1000 && r.Rows < 300*n*8/10 {
			t.Errorf("%s: %d rows in 300 scans of %d over 1000 rows: too few", kind, r.Rows, n)
		}
	}
}

func TestSequentialScanReadsEveryRowOnce(t *testing.T) {
	st := loadedStore(t, 1000, 10)
	spec := testSpec(seqScan)
	spec.Ops, spec.Concurrency = 1000, 1
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 1000 || r.Rows != 1000 || r.Empty != 0 {
		t.Errorf("scan: ops %d rows %d empty %d, want one row per operation over all 1000", r.Ops, r.Rows, r.Empty)
	}
	// Past its share a worker starts over: 4 workers, 2500 operations, every row read twice
	// or three times, none skipped.
	spec.Ops, spec.Concurrency = 2500, 4
	if r, err = runWorkload(t.Context(), st, spec); err != nil || r.Rows != 2500 {
		t.Fatalf("rows %d, %v", r.Rows, err)
	}
}

func TestIncrementCountsEveryOperation(t *testing.T) {
	st := newMemStore()
	spec := testSpec(increment)
	spec.Ops, spec.Rows, spec.Concurrency = 1000, 7, 4
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, v := range st.counts {
		sum += v
	}
	if r.Ops != 1000 || sum != 1000 || len(st.counts) != 7 {
		t.Errorf("ops %d, counters sum to %d over %d rows; want 1000 over all 7", r.Ops, sum, len(st.counts))
	}
}

func TestCheckAndMutateWorkload(t *testing.T) {
	st := newMemStore()
	spec := testSpec(checkAndMutate)
	spec.Ops = 200
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 200 || r.Empty != 0 {
		t.Errorf("ops %d failed checks %d; want 200 and 0", r.Ops, r.Empty)
	}
	// Every worker walks rows 0, 1, 2, ...: the rows touched are a prefix of the key space,
	// as long as the busiest worker's walk (at least 50 of the 4 workers' 200).
	if n := len(st.checks); n < 50 || n > 200 {
		t.Errorf("%d rows checked", n)
	}
	for i := range len(st.checks) {
		if _, ok := st.checks[string(appendKey(nil, uint64(i), spec.KeySize))]; !ok {
			t.Errorf("row %d not checked, yet %d rows were", i, len(st.checks))
		}
	}
}

func TestMixedWorkloadRatio(t *testing.T) {
	st := loadedStore(t, 1000, 10)
	spec := testSpec(mixed)
	spec.Ops, spec.ReadRatio = 4000, 0.8
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	// Seeded: the share of reads is deterministic per seed, near 0.8.
	if r.Ops != 4000 || r.Reads < 3000 || r.Reads > 3400 || r.Empty != 0 {
		t.Errorf("ops %d reads %d empty %d, want about 3200 reads of loaded rows", r.Ops, r.Reads, r.Empty)
	}
	spec.ReadRatio = 0
	if r, _ = runWorkload(t.Context(), st, spec); r.Reads != 0 {
		t.Errorf("-read-ratio 0: %d reads", r.Reads)
	}
}

func TestFilterScanFindsNothingRandom(t *testing.T) {
	st := loadedStore(t, 100, 10)
	spec := testSpec(filterScan)
	spec.Ops = 20
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 20 || r.Rows != 0 {
		t.Errorf("ops %d rows %d, want 20 scans finding nothing", r.Ops, r.Rows)
	}
}

func TestSeriesWindows(t *testing.T) {
	st := newMemStore()
	st.delay = time.Millisecond
	spec := testSpec(randWrite)
	spec.Duration, spec.Interval = 250*time.Millisecond, 50*time.Millisecond
	var updates []progressUpdate
	spec.Progress = func(u progressUpdate) { updates = append(updates, u) }
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) < 2 || len(updates) < len(r.Series) {
		t.Fatalf("%d windows, %d progress updates for a 250 ms run of 50 ms windows", len(r.Series), len(updates))
	}
	var ops int64
	for i, p := range r.Series {
		ops += p.Ops
		if i > 0 && p.T <= r.Series[i-1].T {
			t.Errorf("window %d ends at %v, not after %v", i, p.T, r.Series[i-1].T)
		}
		if p.Ops > 0 && (p.P50Micros < 1000 || p.P50Micros > p.P99Micros || p.OpsPerSec <= 0) {
			t.Errorf("window %d: %+v", i, p)
		}
	}
	if ops > r.Ops || ops < r.Ops*3/4 {
		t.Errorf("windows hold %d of %d operations", ops, r.Ops)
	}
	// The last update is the last window kept: a short final window is neither in the series
	// nor shown.
	if last := updates[len(updates)-1]; last.Ops != ops || last.Label != string(randWrite) || last.Window != r.Series[len(r.Series)-1] {
		t.Errorf("last progress update %+v, want the last window and the %d operations of the series", last, ops)
	}
	// Rounds merge their series one after the other.
	before := len(r.Series)
	end := r.Series[before-1].T
	other := &result{Series: []point{{T: 0.05, Ops: 1}}, hist: newHistogram()}
	r.merge(other)
	if len(r.Series) != before+1 || r.Series[before].T <= end {
		t.Errorf("merged series %v", r.Series[before-1:])
	}
}

// TestWorkerStopsOnCancelWhilePaced: a paced worker waiting for its next due time returns
// when the run is cancelled.
func TestWorkerStopsOnCancelWhilePaced(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	spec := testSpec(randRead)
	spec.Rate, spec.Duration = 0.5, time.Hour // the second operation is due in 2 s
	start := time.Now()
	_, err := runWorkload(ctx, newMemStore(), spec)
	if err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("error %v after %v, want an interruption at once", err, time.Since(start))
	}
}
