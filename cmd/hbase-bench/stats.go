package main

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are recorded in microseconds from 1 µs to a minute (no request may take longer:
// -op-timeout is capped below that) with 3 significant digits.
const (
	histMinMicros = 1
	histMaxMicros = int64(time.Minute / time.Microsecond)
	histSigFigs   = 3
	maxOpTimeout  = time.Minute
)

func newHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(histMinMicros, histMaxMicros, histSigFigs)
}

// recordLatency records d in h, clamped into the histogram's range so no sample is lost.
func recordLatency(h *hdrhistogram.Histogram, d time.Duration) {
	us := d.Microseconds()
	if us < histMinMicros {
		us = histMinMicros
	}
	if us > histMaxMicros {
		us = histMaxMicros
	}
	_ = h.RecordValue(us) // cannot fail: us is in range
}

// maxErrorSamples is how many distinct error messages a result keeps.
const maxErrorSamples = 5

// result is what one workload (in one security mode) measured. Results of the same workload
// from several rounds merge into one.
type result struct {
	Workload string `json:"workload"`
	Mode     string `json:"mode,omitempty"`

	Ops    int64 `json:"ops"`    // operations that completed without error
	Errors int64 `json:"errors"` // operations that failed
	// Empty counts Gets that found no cell, scans that found no row and checkAndMutates
	// whose check did not hold.
	Empty int64 `json:"empty"`
	Rows  int64 `json:"rows"`            // rows read by scans
	Reads int64 `json:"reads,omitempty"` // mixed: how many of the operations were Gets
	// OfferedRate is -rate (operations per second offered; latency from each one's due time).
	OfferedRate float64 `json:"offered_ops_per_sec,omitempty"`
	// Missed counts paced operations never sent: due before the end, still unsent an
	// operation timeout after it (the workers could not keep up).
	Missed int64 `json:"missed,omitempty"`

	ElapsedSec  float64 `json:"elapsed_sec"`
	OpsPerSec   float64 `json:"ops_per_sec"`
	P50Micros   int64   `json:"p50_us"`
	P75Micros   int64   `json:"p75_us"`
	P95Micros   int64   `json:"p95_us"`
	P99Micros   int64   `json:"p99_us"`
	MaxMicros   int64   `json:"max_us"`
	MeanMicros  float64 `json:"mean_us"`
	CPUMicrosOp float64 `json:"cpu_us_per_op"`
	// ServerCPUMicrosOp is the CPU the cluster's JVM used per operation (-local only): its
	// region servers, master, ZooKeeper and KDC, of which the serving region server is nearly
	// all during a run.
	ServerCPUMicrosOp float64  `json:"server_cpu_us_per_op,omitempty"`
	AllocsPerOp       float64  `json:"allocs_per_op"`
	BytesPerOp        float64  `json:"bytes_per_op"`
	ErrorSamples      []string `json:"error_samples,omitempty"`
	// Series is the run cut into -interval windows (rounds one after the other).
	Series []point `json:"series,omitempty"`

	// Raw sums behind the derived figures, kept so rounds can merge.
	elapsed time.Duration
	cpu     time.Duration
	server  time.Duration
	// serverKnown: every merged run read the server's CPU time.
	serverKnown bool
	mallocs     uint64
	bytes       uint64
	hist        *hdrhistogram.Histogram // latency of successful operations, µs
}

func newResult(w workloadKind, mode string) *result {
	return &result{Workload: string(w), Mode: mode, hist: newHistogram()}
}

// merge adds other (another round of the same workload) into r.
func (r *result) merge(other *result) {
	shift := r.elapsed.Seconds()
	for _, p := range other.Series {
		p.T += shift
		r.Series = append(r.Series, p)
	}
	r.Ops += other.Ops
	r.Errors += other.Errors
	r.Empty += other.Empty
	r.Rows += other.Rows
	r.Reads += other.Reads
	r.Missed += other.Missed
	r.elapsed += other.elapsed
	r.cpu += other.cpu
	r.server += other.server
	r.serverKnown = r.serverKnown && other.serverKnown
	r.mallocs += other.mallocs
	r.bytes += other.bytes
	r.hist.Merge(other.hist)
	for _, e := range other.ErrorSamples {
		r.addErrorSample(e)
	}
	r.finish()
}

func (r *result) addErrorSample(msg string) {
	if len(r.ErrorSamples) >= maxErrorSamples {
		return
	}
	for _, e := range r.ErrorSamples {
		if e == msg {
			return
		}
	}
	r.ErrorSamples = append(r.ErrorSamples, msg)
}

// finish computes the derived figures from the raw sums.
func (r *result) finish() {
	r.ElapsedSec = r.elapsed.Seconds()
	r.OpsPerSec, r.CPUMicrosOp, r.ServerCPUMicrosOp, r.AllocsPerOp, r.BytesPerOp = 0, 0, 0, 0, 0
	if r.elapsed > 0 {
		r.OpsPerSec = float64(r.Ops) / r.elapsed.Seconds()
	}
	// Failed operations cost CPU and allocations too, so they count in the divisor.
	if n := r.Ops + r.Errors; n > 0 {
		r.CPUMicrosOp = float64(r.cpu.Microseconds()) / float64(n)
		if r.serverKnown {
			r.ServerCPUMicrosOp = float64(r.server.Microseconds()) / float64(n)
		}
		r.AllocsPerOp = float64(r.mallocs) / float64(n)
		r.BytesPerOp = float64(r.bytes) / float64(n)
	}
	r.P50Micros = r.hist.ValueAtPercentile(50)
	r.P75Micros = r.hist.ValueAtPercentile(75)
	r.P95Micros = r.hist.ValueAtPercentile(95)
	r.P99Micros = r.hist.ValueAtPercentile(99)
	r.MaxMicros = 0
	if r.hist.TotalCount() > 0 {
		r.MaxMicros = r.hist.Max()
	}
	r.MeanMicros = r.hist.Mean()
}
