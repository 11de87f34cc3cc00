package histogram

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkRecord records latency-like values (log-normal around 1 ms, in µs) into a
// histogram of the client's latencies.
func BenchmarkRecord(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	values := make([]int64, 4096)
	for i := range values {
		values[i] = int64(math.Exp(r.NormFloat64()*1.5 + math.Log(1000)))
	}
	h := New(int64(10*time.Minute/time.Microsecond), 2)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		h.Record(values[i&4095])
		i++
	}
}

// BenchmarkPercentile reads a percentile of a histogram of 100,000 latency-like values: the
// hedge delay reads one every 16 answers.
func BenchmarkPercentile(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	h := New(int64(time.Minute/time.Microsecond), 2)
	for range 100_000 {
		h.Record(int64(math.Exp(r.NormFloat64()*1.5 + math.Log(1000))))
	}
	b.ReportAllocs()
	for b.Loop() {
		h.Percentile(95)
	}
}
