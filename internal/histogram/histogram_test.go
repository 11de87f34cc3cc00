package histogram

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// bound is the relative error of a percentile the package documents: 1/(2H), H = 8, 64 and
// 512 sub-buckets per power of two for 1, 2 and 3 digits; within the promised 10^-digits.
func bound(digits int) float64 { return 1 / float64(2*[...]int{8, 64, 512}[digits-1]) }

func TestBoundWithinDigits(t *testing.T) {
	for digits := 1; digits <= 3; digits++ {
		if b, want := bound(digits), math.Pow(10, -float64(digits)); b > want {
			t.Fatalf("%d digits: error bound %v; want at most %v", digits, b, want)
		}
	}
}

// exactPercentile is the order statistic of sorted values of rank p·n/100 rounded to the
// nearest, at least 1.
func exactPercentile(sorted []int64, p float64) int64 {
	rank := int(math.Round(p * float64(len(sorted)) / 100))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

var percentiles = []float64{0, 0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100}

// checkAgainstExact records values into a new histogram and compares its count, minimum,
// maximum, mean and percentiles with the exact figures of the clamped values. It returns
// the largest relative error of a percentile.
func checkAgainstExact(t *testing.T, highest int64, digits int, values []int64) float64 {
	t.Helper()
	h := New(highest, digits)
	clamped := make([]int64, len(values))
	var sum float64
	for i, v := range values {
		h.Record(v)
		clamped[i] = min(max(v, 0), max(highest, 1))
		sum += float64(clamped[i])
	}
	slices.Sort(clamped)
	if got := h.Count(); got != int64(len(values)) {
		t.Fatalf("Count() = %d; want %d", got, len(values))
	}
	if got, want := h.Min(), clamped[0]; got != want {
		t.Fatalf("Min() = %d; want %d", got, want)
	}
	if got, want := h.Max(), clamped[len(clamped)-1]; got != want {
		t.Fatalf("Max() = %d; want %d", got, want)
	}
	if got, want := h.Mean(), sum/float64(len(values)); math.Abs(got-want) > 1e-9*want {
		t.Fatalf("Mean() = %v; want %v", got, want)
	}
	var worst float64
	for _, p := range percentiles {
		got, want := h.Percentile(p), exactPercentile(clamped, p)
		e := math.Abs(float64(got - want))
		if want > 0 {
			e /= float64(want)
		}
		if e > bound(digits) {
			t.Fatalf("%d digits, %d values: Percentile(%v) = %d; want %d within %v (error %v)",
				digits, len(values), p, got, want, bound(digits), e)
		}
		worst = max(worst, e)
	}
	return worst
}

func TestPercentilesAgainstExact(t *testing.T) {
	const minute = int64(time.Minute / time.Microsecond)
	r := rand.New(rand.NewPCG(1, 2))
	samples := []struct {
		name string
		next func() int64
	}{
		{"uniform", func() int64 { return r.Int64N(1_000_000) }},
		// Latency-like: median about 1 ms, a long tail.
		{"lognormal", func() int64 { return int64(math.Exp(r.NormFloat64()*1.5 + math.Log(1000))) }},
		// Most values near 500 µs, a few spikes, some past the range (clamped).
		{"spikes", func() int64 {
			switch x := r.IntN(1000); {
			case x < 5:
				return 2 * minute
			case x < 20:
				return 250_000 + r.Int64N(1000)
			default:
				return 480 + r.Int64N(40)
			}
		}},
	}
	worst := map[int]float64{}
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{1, 2, 3, 10, 101, 1000, 100_000} {
				values := make([]int64, n)
				for i := range values {
					values[i] = s.next()
				}
				for digits := 1; digits <= 3; digits++ {
					worst[digits] = max(worst[digits], checkAgainstExact(t, minute, digits, values))
				}
			}
		})
	}
	for digits := 1; digits <= 3; digits++ {
		t.Logf("%d digits: largest relative error of a percentile %.4f%% (bound %v%%)", digits, 100*worst[digits], 100*bound(digits))
	}
}

// TestBucketBounds walks every bucket boundary of a small histogram: each value lands in
// the bucket whose range holds it, and the bucket's middle is within the precision.
func TestBucketBounds(t *testing.T) {
	for digits := 1; digits <= 3; digits++ {
		h := New(1<<20, digits)
		prev := -1
		for v := int64(0); v <= 1<<20; v++ {
			i := h.index(v)
			if i != prev && i != prev+1 {
				t.Fatalf("%d digits: index(%d) = %d after %d; want consecutive buckets", digits, v, i, prev)
			}
			prev = i
			if m := h.value(i); math.Abs(float64(m-v)) > bound(digits)*float64(v) {
				t.Fatalf("%d digits: value(index(%d)) = %d; want within %v", digits, v, m, bound(digits))
			}
		}
		if prev != len(h.counts)-1 {
			t.Fatalf("%d digits: last index %d; want %d (the last counter)", digits, prev, len(h.counts)-1)
		}
	}
}

func TestEmpty(t *testing.T) {
	h := New(1000, 2)
	if h.Count() != 0 || h.Min() != 0 || h.Max() != 0 || h.Mean() != 0 || h.Percentile(50) != 0 || h.CountAbove(0) != 0 {
		t.Fatalf("empty: Count %d Min %d Max %d Mean %v P50 %d CountAbove(0) %d; want all 0",
			h.Count(), h.Min(), h.Max(), h.Mean(), h.Percentile(50), h.CountAbove(0))
	}
}

func TestOneValue(t *testing.T) {
	h := New(int64(10*time.Minute/time.Microsecond), 2)
	h.Record(123_457)
	for _, p := range []float64{math.NaN(), -5, 0, 50, 99.9, 100, 250} {
		if got := h.Percentile(p); got != 123_457 {
			t.Fatalf("Percentile(%v) = %d; want 123457 (the one value)", p, got)
		}
	}
	if h.Mean() != 123_457 || h.Min() != 123_457 || h.Max() != 123_457 {
		t.Fatalf("Mean %v Min %d Max %d; want 123457", h.Mean(), h.Min(), h.Max())
	}
}

func TestClamp(t *testing.T) {
	h := New(1000, 2)
	h.Record(-7)
	h.Record(5000)
	h.Record(math.MaxInt64)
	h.Record(math.MinInt64)
	if h.Count() != 4 || h.Min() != 0 || h.Max() != 1000 {
		t.Fatalf("Count %d Min %d Max %d; want 4, 0, 1000", h.Count(), h.Min(), h.Max())
	}
	if got := h.Mean(); got != 500 {
		t.Fatalf("Mean() = %v; want 500 (0, 1000, 1000, 0)", got)
	}
	if got := h.Percentile(75); got != 1000 {
		t.Fatalf("Percentile(75) = %d; want 1000", got)
	}
	// Bad arguments of New are clamped, not refused.
	for _, c := range []struct {
		highest int64
		digits  int
	}{{0, 2}, {-5, 0}, {10, 9}} {
		h := New(c.highest, c.digits)
		h.Record(3)
		if h.Max() != min(3, max(c.highest, 1)) {
			t.Fatalf("New(%d, %d): Max() = %d after Record(3)", c.highest, c.digits, h.Max())
		}
	}
}

// TestMeanDoesNotOverflow records values whose sum passes 2^64.
func TestMeanDoesNotOverflow(t *testing.T) {
	h := New(math.MaxInt64, 1)
	for range 10 {
		h.Record(math.MaxInt64)
	}
	if got, want := h.Mean(), float64(math.MaxInt64); got != want {
		t.Fatalf("Mean() = %v; want %v", got, want)
	}
}

func TestReset(t *testing.T) {
	h := New(1000, 2)
	for v := range int64(100) {
		h.Record(v * 10)
	}
	h.Reset()
	if h.Count() != 0 || h.Max() != 0 || h.Min() != 0 || h.Percentile(99) != 0 || h.CountAbove(0) != 0 {
		t.Fatalf("after Reset: Count %d Max %d Min %d P99 %d; want 0", h.Count(), h.Max(), h.Min(), h.Percentile(99))
	}
	h.Record(7)
	if h.Min() != 7 || h.Max() != 7 || h.Percentile(50) != 7 || h.Mean() != 7 {
		t.Fatalf("after Reset and Record(7): Min %d Max %d P50 %d Mean %v; want 7", h.Min(), h.Max(), h.Percentile(50), h.Mean())
	}
}

func TestCountAbove(t *testing.T) {
	h := New(int64(10*time.Second), 3)
	ms := int64(time.Millisecond)
	for _, v := range []int64{ms, 5 * ms, 9 * ms, 10 * ms, 10*ms + 1, 11 * ms, 20 * ms, time.Second.Nanoseconds()} {
		h.Record(v)
	}
	// 10 ms + 1 ns shares 10 ms's bucket; 11 ms does not (3 digits: buckets under 0.2% wide).
	if got := h.CountAbove(10 * ms); got != 3 {
		t.Fatalf("CountAbove(10ms) = %d; want 3 (11 ms, 20 ms, 1 s)", got)
	}
	if got := h.CountAbove(-1); got != 8 {
		t.Fatalf("CountAbove(-1) = %d; want 8 (every value is above 0's bucket)", got)
	}
	if got := h.CountAbove(math.MaxInt64); got != 0 {
		t.Fatalf("CountAbove(MaxInt64) = %d; want 0", got)
	}
}

// TestMemory holds the size of the latency histograms: 1 µs to 10 minutes at 2 digits.
func TestMemory(t *testing.T) {
	highest := int64(10 * time.Minute / time.Microsecond)
	const n = 100
	keep := make([]*Histogram, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range keep {
		keep[i] = New(highest, 2)
	}
	runtime.ReadMemStats(&after)
	if got := (after.TotalAlloc - before.TotalAlloc) / n; got > 14_000 {
		t.Fatalf("New(10 min in µs, 2) allocates %d bytes; want at most 14000", got)
	} else {
		t.Logf("New(10 min in µs, 2): %d bytes; New(1 min in µs, 2): %d counters; New(1 min in µs, 3): %d counters",
			got, len(New(highest/10, 2).counts), len(New(highest/10, 3).counts))
	}
}

func TestRecordAllocatesNothing(t *testing.T) {
	h := New(int64(time.Minute/time.Microsecond), 2)
	v := int64(0)
	if n := testing.AllocsPerRun(1000, func() { v = v*7 + 13; h.Record(v % 100_000_000) }); n != 0 {
		t.Fatalf("Record allocates %v times; want 0", n)
	}
}

// TestRankRounds holds the rank of a percentile to HDR histograms' (rounded to the nearest),
// which the adaptive hedge delay was tuned with: of 96 values, 5 slow, the 95th percentile is
// the 91st value, a fast one (a rank rounded up would be the 92nd, a slow one).
func TestRankRounds(t *testing.T) {
	h := New(int64(time.Minute/time.Microsecond), 2)
	for i := range 96 {
		if i%20 == 0 {
			h.Record(100_000)
		} else {
			h.Record(2000)
		}
	}
	if got := h.Percentile(95); math.Abs(float64(got-2000)) > 2000*bound(2) {
		t.Fatalf("Percentile(95) = %d; want 2000 within %v (the 91st of 96 values)", got, bound(2))
	}
	if got := h.Percentile(95.5); got < 99_000 {
		t.Fatalf("Percentile(95.5) = %d; want 100000 within %v (the 92nd of 96 values)", got, bound(2))
	}
}
