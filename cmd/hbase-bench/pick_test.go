package main

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestScanRangeRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const rows = 1000
	seenLow, seenHigh := false, false
	for range 10000 {
		start, stop, hasStop := scanRangeRows(rng, rows, 100, 26)
		if start >= rows || stop != start+100 || !hasStop {
			t.Fatalf("range [%d, %d) has stop %v; want start in [0, %d), stop = start+100", start, stop, hasStop, rows)
		}
		seenLow = seenLow || start < 10
		seenHigh = seenHigh || start >= rows-10
	}
	if !seenLow || !seenHigh {
		t.Errorf("starts do not cover the key space: low %v high %v", seenLow, seenHigh)
	}
	// Row 999's stop (1099) does not fit in three digits: no stop row, the scan runs to the end.
	for range 1000 {
		if start, _, hasStop := scanRangeRows(rng, rows, 100, 3); hasStop != (start+100 <= 999) {
			t.Fatalf("start %d with 3-digit keys: hasStop %v", start, hasStop)
		}
	}
}

func TestExpectedRangeRows(t *testing.T) {
	for _, tc := range []struct {
		start     uint64
		n         int
		rows, out uint64
	}{{0, 100, 1000, 100}, {900, 100, 1000, 100}, {950, 100, 1000, 50}, {999, 10, 1000, 1}, {1000, 10, 1000, 0}} {
		if got := expectedRangeRows(tc.start, tc.n, tc.rows); got != tc.out {
			t.Errorf("expectedRangeRows(%d, %d, %d) = %d, want %d", tc.start, tc.n, tc.rows, got, tc.out)
		}
	}
}

func TestScanShareCoversRowsOnce(t *testing.T) {
	for _, tc := range []struct {
		workers int
		rows    uint64
	}{{1, 10}, {3, 10}, {16, 100000}, {7, 7}} {
		next := uint64(0)
		for i := range tc.workers {
			lo, hi := scanShare(i, tc.workers, tc.rows)
			if lo != next || hi <= lo {
				t.Fatalf("%d workers, %d rows: share %d is [%d, %d), want it to start at %d", tc.workers, tc.rows, i, lo, hi, next)
			}
			next = hi
		}
		if next != tc.rows {
			t.Errorf("%d workers, %d rows: shares end at %d", tc.workers, tc.rows, next)
		}
	}
	// More workers than rows: the empty shares scan the whole table rather than nothing.
	if lo, hi := scanShare(0, 4, 2); lo != 0 || hi != 2 {
		t.Errorf("empty share = [%d, %d), want the whole table", lo, hi)
	}
}

func TestCASRowsOverlap(t *testing.T) {
	// Every worker walks the same rows from 0, wrapping at the key space, as PE's CAS tests.
	for n, want := range []uint64{0, 1, 2, 0, 1} {
		if got := casRow(uint64(n), 3); got != want {
			t.Errorf("casRow(%d, 3) = %d, want %d", n, got, want)
		}
	}
}

func TestFillValueIsPEShaped(t *testing.T) {
	b := make([]byte, 1000)
	fillValue(rand.New(rand.NewPCG(3, 4)), b)
	for i := 0; i < len(b); i += 8 {
		run := b[i:min(i+8, len(b))]
		if run[0] < 'A' || run[0] > 'Z' || strings.Count(string(run), string(run[:1])) != len(run) {
			t.Fatalf("bytes %d..%d = %q, want 8 equal upper-case letters", i, i+len(run), run)
		}
	}
}

func TestMaxRowFor(t *testing.T) {
	for size, want := range map[int]uint64{1: 9, 3: 999, 19: 9999999999999999999, 26: ^uint64(0)} {
		if got := maxRowFor(size); got != want {
			t.Errorf("maxRowFor(%d) = %d, want %d", size, got, want)
		}
	}
}

func TestParseWorkloadsPENamesAndAliases(t *testing.T) {
	got, err := parseWorkloads("randread,randwrite,seqwrite,scan,scanrange100,checkAndMutate,RandomRead")
	if err != nil {
		t.Fatal(err)
	}
	want := []workloadKind{randRead, randWrite, seqWrite, seqScan, scanRange100, checkAndMutate, randRead}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("workload %d = %s, want %s", i, got[i], want[i])
		}
	}
	for _, w := range allWorkloads {
		if workloadHelp[w] == "" {
			t.Errorf("workload %s has no -h line", w)
		}
	}
	if scanRangeOf(scanRange10) != 10 || scanRangeOf(scanRange1000) != 1000 || scanRangeOf(randRead) != 0 {
		t.Error("scanRangeOf")
	}
	if readsTable(randWrite) || readsTable(increment) || !readsTable(filterScan) || !readsTable(mixed) {
		t.Error("readsTable")
	}
}

func TestPESplitKeys(t *testing.T) {
	// PE's getSplits: jump = rows/regions, keys at jump*(1+i).
	keys := peSplitKeys(1000, 3, 26)
	if len(keys) != 2 || string(keys[0]) != string(appendKey(nil, 333, 26)) || string(keys[1]) != string(appendKey(nil, 666, 26)) {
		t.Errorf("split keys %q", keys)
	}
}
