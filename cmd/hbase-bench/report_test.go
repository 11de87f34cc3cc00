package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"
)

func fakeResult(w workloadKind, mode string, p75 time.Duration, cpu time.Duration) *result {
	r := newResult(w, mode)
	for range 100 {
		recordLatency(r.hist, p75)
	}
	r.Ops, r.elapsed, r.cpu, r.mallocs = 100, time.Second, cpu, 2500
	r.finish()
	return r
}

func TestWriteTable(t *testing.T) {
	r := fakeResult(randRead, "", 300*time.Microsecond, 5*time.Millisecond)
	s := fakeResult(randomSeekScan, "", time.Millisecond, 5*time.Millisecond)
	s.Rows, s.Errors, s.ErrorSamples = 5000, 2, []string{"hbase: region unavailable"}
	var b strings.Builder
	if err := writeTable(&b, &report{Results: []*result{r, s}}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	for _, col := range []string{"workload", "ops/s", "p50 µs", "p75 µs", "p95 µs", "p99 µs", "max µs", "CPU µs/op", "allocs/op", "errors"} {
		if !strings.Contains(lines[0], col) {
			t.Errorf("header %q lacks %q", lines[0], col)
		}
	}
	if strings.Contains(lines[0], "mode") {
		t.Errorf("header %q has a mode column without modes", lines[0])
	}
	fields := strings.Fields(lines[1])
	want := []string{"randomRead", "100", "100", "300", "300", "300", "300", "300", "50.0", "25.0", "0", "0"}
	if strings.Join(fields, " ") != strings.Join(want, " ") {
		t.Errorf("row %q, want fields %q", lines[1], want)
	}
	for _, s := range []string{"randomSeekScan: 5000 rows, 5000 rows/s", "randomSeekScan: 2 of 102 operations failed, e.g. hbase: region unavailable"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestCompareSecurityTable(t *testing.T) {
	results := []*result{
		fakeResult(randRead, modeNone, 200*time.Microsecond, 4*time.Millisecond),
		fakeResult(randRead, modeGSS, 300*time.Microsecond, 8*time.Millisecond),
		fakeResult(randRead, modeAES, 210*time.Microsecond, 5*time.Millisecond),
		fakeResult(randWrite, modeNone, 400*time.Microsecond, 4*time.Millisecond),
		fakeResult(randWrite, modeAES, 480*time.Microsecond, 4*time.Millisecond),
	}
	cmp := compare(results)
	if len(cmp) != 5 {
		t.Fatalf("%d comparisons, want 5", len(cmp))
	}
	byKey := map[string]comparison{}
	for _, c := range cmp {
		byKey[c.Workload+"/"+c.Mode] = c
	}
	for key, want := range map[string]float64{"randomRead/none": 1, "randomRead/privacy-gss": 1.5, "randomRead/privacy-aes": 1.05, "randomWrite/privacy-aes": 1.2} {
		if got := byKey[key].Ratio; got < want-0.01 || got > want+0.01 {
			t.Errorf("%s p75 ratio %.3f, want %.2f", key, got, want)
		}
	}
	if got := byKey["randomRead/privacy-gss"].CPURatio; got != 2 {
		t.Errorf("GSS CPU ratio %v, want 2", got)
	}
	var b strings.Builder
	if err := writeTable(&b, &report{Results: results, Comparison: cmp}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var two strings.Builder
	if err := writeTable(&two, &report{Settings: settings{Clusters: []string{"a", "b"}}, Results: results, Comparison: cmp}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(two.String(), "on 2 clusters one after the other: a; b") {
		t.Errorf("two-cluster comparison does not say so:\n%s", two.String())
	}
	for _, s := range []string{
		"mode",
		"(same cluster, same run, modes interleaved)",
		"target privacy+AES within 10% of no encryption at p75, randomRead: 1.05, met",
		"target privacy+AES within 10% of no encryption at p75, randomWrite: 1.20, NOT met",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestServerCPUColumns: with the server's CPU known (-local), the table and the comparison
// get a column for it; without, neither has one (TestWriteTable).
func TestServerCPUColumns(t *testing.T) {
	none := fakeResult(randRead, modeNone, 200*time.Microsecond, 4*time.Millisecond)
	aes := fakeResult(randRead, modeAES, 210*time.Microsecond, 5*time.Millisecond)
	none.server, none.serverKnown = 20*time.Millisecond, true
	aes.server, aes.serverKnown = 25*time.Millisecond, true
	none.finish()
	aes.finish()
	cmp := compare([]*result{none, aes})
	if got := cmp[1].ServerCPURatio; got != 1.25 {
		t.Errorf("server CPU ratio %v, want 1.25", got)
	}
	var b strings.Builder
	if err := writeTable(&b, &report{Results: []*result{none, aes}, Comparison: cmp}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "server CPU µs/op") {
		t.Errorf("header %q does not end in the server column", lines[0])
	}
	if f := strings.Fields(lines[2]); f[len(f)-1] != "250.0" {
		t.Errorf("row %q: server CPU per op is not 25ms/100 = 250.0", lines[2])
	}
	if !strings.Contains(b.String(), "server CPU ratio") || !strings.Contains(b.String(), "1.25") {
		t.Errorf("comparison lacks the server CPU ratio:\n%s", b.String())
	}
	var plain strings.Builder
	if err := writeTable(&plain, &report{Results: []*result{fakeResult(randRead, "", time.Millisecond, time.Millisecond)}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "server") {
		t.Errorf("a table without server readings has a server column:\n%s", plain.String())
	}
}

func TestWriteJSON(t *testing.T) {
	rep := &report{
		Settings: settings{Table: "t", Rows: 10, Workloads: []string{"randomRead"}},
		Results:  []*result{fakeResult(randRead, modeNone, 250*time.Microsecond, time.Millisecond)},
	}
	rep.Comparison = compare(rep.Results)
	var b strings.Builder
	if err := writeJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Settings struct {
			Table string `json:"table"`
		} `json:"settings"`
		Results    []map[string]any `json:"results"`
		Comparison []struct {
			Ratio float64 `json:"p75_ratio"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if back.Settings.Table != "t" || len(back.Results) != 1 || len(back.Comparison) != 1 || back.Comparison[0].Ratio != 1 {
		t.Fatalf("round trip lost data: %+v", back)
	}
	res := back.Results[0]
	for key, want := range map[string]float64{"ops": 100, "p75_us": 250, "cpu_us_per_op": 10, "allocs_per_op": 25, "errors": 0} {
		if res[key] != want {
			t.Errorf("%s = %v, want %v", key, res[key], want)
		}
	}
	if res["mode"] != modeNone || res["workload"] != "randomRead" {
		t.Errorf("mode %v workload %v", res["mode"], res["workload"])
	}
}

func TestPeakRSSLine(t *testing.T) {
	r := fakeResult(randWrite, "", 300*time.Microsecond, 5*time.Millisecond)
	var b strings.Builder
	rep := &report{Results: []*result{r}, PeakRSSBytes: 40 << 20, Settings: settings{WriterBoundBytes: 32 << 20}}
	if err := writeTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	if want := "client peak RSS: 40.0 MiB (the buffered writers hold at most 32.0 MiB: 8.0 MiB over it)"; !strings.Contains(b.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, b.String())
	}
	if n, err := peakRSS(); runtime.GOOS == "linux" && (err != nil || n < 1<<20) {
		t.Errorf("peakRSS() = %d, %v", n, err)
	}
}
