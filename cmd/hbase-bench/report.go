package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// report is everything one invocation measured; -json prints it as is.
type report struct {
	Settings   settings     `json:"settings"`
	Results    []*result    `json:"results"`
	Comparison []comparison `json:"comparison,omitempty"`
	// ServerLatency is the client's latency per region server and operation (go-hbase only).
	ServerLatency []serverLatency `json:"server_latency,omitempty"`
	// PeakRSSBytes is the most memory this process held resident during the whole invocation
	// (Linux); with -buffered it is compared with the writers' bound.
	PeakRSSBytes int64 `json:"peak_rss_bytes,omitempty"`
}

// settings echoes the parameters that shape the figures, so a JSON file is self-describing.
type settings struct {
	Local         bool     `json:"local"`
	RegionServers int      `json:"regionservers,omitempty"`
	Regions       int      `json:"regions,omitempty"`
	Table         string   `json:"table"`
	Family        string   `json:"family,omitempty"`
	Qualifier     string   `json:"qualifier,omitempty"`
	PE            bool     `json:"pe_layout,omitempty"`
	Workloads     []string `json:"workloads"`
	Rows          int64    `json:"rows"`
	KeySize       int      `json:"key_size"`
	ValueSize     int      `json:"value_size"`
	ScanRows      int      `json:"scan_rows"`
	Caching       int      `json:"caching,omitempty"`
	ReadRatio     float64  `json:"read_ratio,omitempty"` // with a mixed workload
	Rate          float64  `json:"rate,omitempty"`       // -rate: operations per second offered
	IntervalSec   float64  `json:"interval_sec,omitempty"`
	Concurrency   int      `json:"concurrency"`
	DurationSec   float64  `json:"duration_sec"`
	Ops           int64    `json:"ops"`
	Rounds        int      `json:"rounds"`
	Seed          uint64   `json:"seed"`
	WarmupSec     float64  `json:"warmup_sec,omitempty"`
	Security      string   `json:"security"`
	Clusters      []string `json:"clusters,omitempty"` // the local clusters, in the order they ran
	GOMAXPROCS    int      `json:"gomaxprocs"`
	// WriterBoundBytes, with -buffered, is what the buffered writers may hold together:
	// -concurrency writers of twice -write-buffer each.
	WriterBoundBytes int64 `json:"writer_bound_bytes,omitempty"`
}

// comparison is one security mode's p75 latency against the no-encryption reference
// measured in the same run.
type comparison struct {
	Workload  string  `json:"workload"`
	Mode      string  `json:"mode"`
	P75Micros int64   `json:"p75_us"`
	RefMicros int64   `json:"reference_p75_us"`
	Ratio     float64 `json:"p75_ratio"`
	CPURatio  float64 `json:"cpu_ratio"`
	// ServerCPURatio is the server's CPU per op against the reference's (-local only).
	ServerCPURatio float64 `json:"server_cpu_ratio,omitempty"`
}

// totalErrors sums failed operations over every result.
func (r *report) totalErrors() int64 {
	var n int64
	for _, x := range r.Results {
		n += x.Errors
	}
	return n
}

func writeJSON(w io.Writer, r *report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeTable prints the results as aligned columns, the comparison below them, then a line
// per workload that had errors.
func writeTable(w io.Writer, r *report) error {
	withServer := false
	for _, x := range r.Results {
		withServer = withServer || x.serverKnown
	}
	if err := writeResults(w, r.Results, withServer); err != nil {
		return err
	}
	for _, x := range r.Results {
		writeNotes(w, x)
	}
	writePeakRSS(w, r)
	if len(r.Comparison) > 0 {
		if err := writeSecurityComparison(w, r, withServer); err != nil {
			return err
		}
	}
	writeErrors(w, r.Results)
	return writeServerLatency(w, r.ServerLatency)
}

// writeResults prints a row per result; the mode column when a result has a mode, the
// server's CPU when withServer.
func writeResults(w io.Writer, results []*result, withServer bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	withMode := false
	for _, x := range results {
		withMode = withMode || x.Mode != ""
	}
	head := "workload\tops\tops/s\tp50 µs\tp75 µs\tp95 µs\tp99 µs\tmax µs\tCPU µs/op\tallocs/op\terrors\tempty\t"
	if withMode {
		head = "mode\t" + head
	}
	if withServer {
		head += "server CPU µs/op\t"
	}
	fmt.Fprintln(tw, head)
	for _, x := range results {
		if withMode {
			fmt.Fprintf(tw, "%s\t", x.Mode)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%d\t%d\t",
			x.Workload, x.Ops, x.OpsPerSec, x.P50Micros, x.P75Micros, x.P95Micros, x.P99Micros,
			x.MaxMicros, x.CPUMicrosOp, x.AllocsPerOp, x.Errors, x.Empty)
		if withServer {
			fmt.Fprintf(tw, "%.1f\t", x.ServerCPUMicrosOp)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// writePeakRSS prints the process's peak RSS, when known, against the buffered writers'
// bound.
func writePeakRSS(w io.Writer, r *report) {
	if r.PeakRSSBytes <= 0 {
		return
	}
	fmt.Fprintf(w, "\nclient peak RSS: %.1f MiB", float64(r.PeakRSSBytes)/(1<<20))
	if b := r.Settings.WriterBoundBytes; b > 0 {
		fmt.Fprintf(w, " (the buffered writers hold at most %.1f MiB: %.1f MiB over it)", float64(b)/(1<<20), float64(r.PeakRSSBytes-b)/(1<<20))
	}
	fmt.Fprintln(w)
}

// writeSecurityComparison prints each security mode against the reference, then whether privacy
// by AES met its target.
func writeSecurityComparison(w io.Writer, r *report, withServer bool) error {
	where := "same cluster, same run, modes interleaved"
	if len(r.Settings.Clusters) > 1 {
		// The reference ran on a cluster of its own: JVM and machine drift between the
		// clusters is in the ratios too.
		where = fmt.Sprintf("same run, but on %d clusters one after the other: %s", len(r.Settings.Clusters), strings.Join(r.Settings.Clusters, "; "))
	}
	fmt.Fprintf(w, "\nlatency at p75 and CPU per op against %q (%s):\n", modeNone, where)
	ct := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "workload\tmode\tp75 µs\treference µs\tp75 ratio\tCPU ratio\t"
	if withServer {
		head += "server CPU ratio\t"
	}
	fmt.Fprintln(ct, head)
	for _, c := range r.Comparison {
		fmt.Fprintf(ct, "%s\t%s\t%d\t%d\t%.2f\t%.2f\t", c.Workload, c.Mode, c.P75Micros, c.RefMicros, c.Ratio, c.CPURatio)
		if withServer {
			fmt.Fprintf(ct, "%.2f\t", c.ServerCPURatio)
		}
		fmt.Fprintln(ct)
	}
	if err := ct.Flush(); err != nil {
		return err
	}
	for _, c := range r.Comparison {
		if c.Mode == modeAES {
			verdict := "met"
			if c.Ratio > 1.10 {
				verdict = "NOT met"
			}
			fmt.Fprintf(w, "target privacy+AES within 10%% of no encryption at p75, %s: %.2f, %s\n", c.Workload, c.Ratio, verdict)
		}
	}
	return nil
}

// writeErrors prints a line per result with failed operations: how many, and samples.
func writeErrors(w io.Writer, results []*result) {
	for _, x := range results {
		if x.Errors > 0 {
			fmt.Fprintf(w, "%s%s: %d of %d operations failed, e.g. %s\n", modePrefix(x.Mode), x.Workload,
				x.Errors, x.Errors+x.Ops, strings.Join(x.ErrorSamples, "; "))
		}
	}
}

// writeNotes prints what the table's columns do not hold for x: rows scanned, the mix of a
// mixed run, the offered load of a paced one.
func writeNotes(w io.Writer, x *result) {
	name := modePrefix(x.Mode) + x.Workload
	if x.Rows > 0 && x.ElapsedSec > 0 {
		fmt.Fprintf(w, "%s: %d rows, %.0f rows/s, %.1f rows per operation\n", name, x.Rows, float64(x.Rows)/x.ElapsedSec, float64(x.Rows)/float64(max(x.Ops, 1)))
	}
	if x.Workload == string(mixed) && x.Ops+x.Errors > 0 {
		fmt.Fprintf(w, "%s: %d Gets, %d Puts\n", name, x.Reads, x.Ops+x.Errors-x.Reads)
	}
	if x.Workload == string(checkAndMutate) && x.Empty > 0 {
		fmt.Fprintf(w, "%s: %d checks did not hold\n", name, x.Empty)
	}
	if x.OfferedRate > 0 {
		fmt.Fprintf(w, "%s: offered %.0f ops/s, latency from each operation's due time", name, x.OfferedRate)
		if x.Missed > 0 {
			fmt.Fprintf(w, "; %d operations never sent (the callers fell behind: raise -concurrency)", x.Missed)
		}
		fmt.Fprintln(w)
	}
}

func modePrefix(mode string) string {
	if mode == "" {
		return ""
	}
	return mode + " "
}

// compare relates every result with a mode to the result of the same workload in modeNone.
func compare(results []*result) []comparison {
	ref := map[string]*result{}
	for _, x := range results {
		if x.Mode == modeNone {
			ref[x.Workload] = x
		}
	}
	var out []comparison
	for _, x := range results {
		base, ok := ref[x.Workload]
		if x.Mode == "" || !ok {
			continue
		}
		c := comparison{Workload: x.Workload, Mode: x.Mode, P75Micros: x.P75Micros, RefMicros: base.P75Micros}
		if base.P75Micros > 0 {
			c.Ratio = float64(x.P75Micros) / float64(base.P75Micros)
		}
		if base.CPUMicrosOp > 0 {
			c.CPURatio = x.CPUMicrosOp / base.CPUMicrosOp
		}
		if base.ServerCPUMicrosOp > 0 && x.serverKnown {
			c.ServerCPURatio = x.ServerCPUMicrosOp / base.ServerCPUMicrosOp
		}
		out = append(out, c)
	}
	return out
}
