package benchmarks

import (
	"math"
	"testing"
)

// pairedRatio is the mean over rounds of a's block rate over b's in the same round, with a
// 95% confidence interval (Student's t over the rounds): how precisely one run measures the
// ratio of two sides' throughputs, which a single ratio of totals does not say. ok is false
// with fewer than 3 paired rounds.
func pairedRatio(a, b *peAcc) (mean, lo, hi float64, ok bool) {
	n := min(len(a.blockRates), len(b.blockRates))
	if n < 3 {
		return 0, 0, 0, false
	}
	rs := make([]float64, 0, n)
	for i := range n {
		if b.blockRates[i] > 0 {
			rs = append(rs, a.blockRates[i]/b.blockRates[i])
		}
	}
	if len(rs) < 3 {
		return 0, 0, 0, false
	}
	var sum float64
	for _, r := range rs {
		sum += r
	}
	mean = sum / float64(len(rs))
	var ss float64
	for _, r := range rs {
		ss += (r - mean) * (r - mean)
	}
	half := studentT975(len(rs)-1) * math.Sqrt(ss/float64(len(rs)-1)/float64(len(rs)))
	return mean, mean - half, mean + half, true
}

// studentT975 is the 97.5th percentile of Student's t with df degrees of freedom (the two-
// sided 95% interval); past 30, the normal's.
func studentT975(df int) float64 {
	table := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df >= 1 && df <= len(table) {
		return table[df-1]
	}
	return 1.960
}

func TestPairedRatio(t *testing.T) {
	a := &peAcc{blockRates: []float64{90, 100, 110, 95}}
	b := &peAcc{blockRates: []float64{100, 100, 100, 100}}
	mean, lo, hi, ok := pairedRatio(a, b)
	// Ratios 0.90, 1.00, 1.10, 0.95: mean 0.9875, sd 0.0854, t(3) 3.182: ±0.1359.
	if !ok || math.Abs(mean-0.9875) > 1e-9 || math.Abs(hi-mean-0.1359) > 5e-4 || math.Abs(mean-lo-(hi-mean)) > 1e-9 {
		t.Fatalf("pairedRatio = %v [%v, %v] %v; want 0.9875 ± 0.1359", mean, lo, hi, ok)
	}
	if _, _, _, ok := pairedRatio(&peAcc{blockRates: []float64{1, 2}}, b); ok {
		t.Fatal("2 rounds: want no interval")
	}
}
