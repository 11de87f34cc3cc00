package main

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestLocalBench runs a tiny `hbase-bench -local` end to end: a real HBase mini cluster,
// a pre-split table, the load and all four workloads through go-hbase, JSON output.
func TestLocalBench(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase cluster")
	}
	// Everything the run started (clients, cluster watchers) must be gone when it returns.
	defer goleak.VerifyNone(t)
	const ops, rows, perScan = 300, 2000, 20
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	var stdout, stderr strings.Builder
	code := run(ctx, []string{
		"-local", "-regions", "4", "-rows", "2000", "-workload", "randwrite,randread,seqwrite,randomSeekScan",
		"-ops", "300", "-concurrency", "4", "-scan-rows", "20", "-json",
	}, env(), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	var rep report
	if err := json.Unmarshal([]byte(stdout.String()), &rep); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, stdout.String())
	}
	if len(rep.Results) != 4 {
		t.Fatalf("%d results, want 4:\n%s", len(rep.Results), stdout.String())
	}
	for i, want := range []workloadKind{randWrite, randRead, seqWrite, randomSeekScan} {
		r := rep.Results[i]
		if r.Workload != string(want) {
			t.Errorf("result %d is %s, want %s", i, r.Workload, want)
		}
		if r.Ops != ops || r.Errors != 0 {
			t.Errorf("%s: ops %d errors %d, want %d and 0 (%q)", r.Workload, r.Ops, r.Errors, ops, r.ErrorSamples)
		}
		if r.P50Micros <= 0 || r.P50Micros > r.P99Micros || r.P99Micros > r.MaxMicros || r.OpsPerSec <= 0 || r.CPUMicrosOp <= 0 || (r.ServerCPUMicrosOp <= 0) == (runtime.GOOS == "linux") {
			t.Errorf("%s: implausible figures %+v", r.Workload, r)
		}
	}
	// The load wrote every row, so no Get comes back empty and every scan finds rows: a
	// scan from row k reads min(20, rows-k) rows.
	if r := rep.Results[1]; r.Empty != 0 {
		t.Errorf("randread: %d of %d Gets found nothing after the load", r.Empty, r.Ops)
	}
	if r := rep.Results[3]; r.Empty != 0 || r.Rows < ops*perScan*9/10 || r.Rows > ops*perScan {
		t.Errorf("scan: %d rows in %d scans of %d (empty %d)", r.Rows, r.Ops, perScan, r.Empty)
	}
	if rep.Settings.Rows != rows || !rep.Settings.Local || len(rep.Settings.Clusters) != 1 {
		t.Errorf("settings %+v", rep.Settings)
	}
}

// TestLocalCompareSecurity runs a tiny -compare-security end to end: Kerberos clients with no
// encryption, GSS wrap and AES against real secure clusters, one comparison table. Opt-in
// like the other secure-cluster tests: GOHBASE_SECURE_CLUSTER=1.
func TestLocalCompareSecurity(t *testing.T) {
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	defer goleak.VerifyNone(t)
	const ops = 200
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	var stdout, stderr strings.Builder
	code := run(ctx, []string{
		"-local", "-compare-security", "-regions", "2", "-rows", "1000", "-ops", "200",
		"-concurrency", "4", "-warmup", "0", "-json",
	}, env(), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	var rep report
	if err := json.Unmarshal([]byte(stdout.String()), &rep); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, stdout.String())
	}
	want := []string{
		"randomRead/" + modeNone, "randomRead/" + modeGSS, "randomRead/" + modeAES, "randomRead/" + modeTLS,
		"randomWrite/" + modeNone, "randomWrite/" + modeGSS, "randomWrite/" + modeAES, "randomWrite/" + modeTLS,
	}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results, want %d:\n%s", len(rep.Results), len(want), stdout.String())
	}
	for i, r := range rep.Results {
		if got := r.Workload + "/" + r.Mode; got != want[i] {
			t.Errorf("result %d is %s, want %s", i, got, want[i])
		}
		if r.Ops != ops || r.Errors != 0 || r.Empty != 0 {
			t.Errorf("%s/%s: ops %d errors %d empty %d, want %d, 0, 0 (%q)", r.Workload, r.Mode, r.Ops, r.Errors, r.Empty, ops, r.ErrorSamples)
		}
	}
	if len(rep.Comparison) != 8 {
		t.Fatalf("%d comparisons, want 8", len(rep.Comparison))
	}
	for _, c := range rep.Comparison {
		if c.RefMicros <= 0 || c.Ratio <= 0 || (c.ServerCPURatio <= 0) == (runtime.GOOS == "linux") || (c.Mode == modeNone && c.Ratio != 1) {
			t.Errorf("comparison %+v", c)
		}
	}
}
