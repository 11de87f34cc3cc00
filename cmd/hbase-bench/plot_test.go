package main

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// seriesReport is a report of one workload with a time series, as -json writes it.
func seriesReport(workload workloadKind, p50 int64) *report {
	r := fakeResult(workload, "", time.Duration(p50)*time.Microsecond, 5*time.Millisecond)
	for i := range 5 {
		r.Series = append(r.Series, point{T: float64(i + 1), Ops: 100, OpsPerSec: 100,
			P50Micros: p50 + int64(i), P95Micros: 2 * p50, P99Micros: 4 * p50, MaxMicros: 5 * p50})
	}
	return &report{Settings: settings{Table: "t", Concurrency: 8}, Results: []*result{r}}
}

// writeReport writes rep as -json does and returns the file.
func writeReport(t *testing.T, dir, name string, rep *report) string {
	t.Helper()
	f := filepath.Join(dir, name)
	var b strings.Builder
	if err := writeJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// checkSVG fails unless path is a well-formed SVG document holding drawn lines and the texts.
func checkSVG(t *testing.T, path string, texts ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(b)))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", path, root)
	}
	s := string(b)
	if strings.Count(s, "<path") < 3 {
		t.Errorf("%s: %d paths, want the lines drawn", path, strings.Count(s, "<path"))
	}
	for _, text := range texts {
		if !strings.Contains(s, text) {
			t.Errorf("%s lacks %q", path, text)
		}
	}
}

func TestReportSeriesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rep := seriesReport(randRead, 300)
	f := writeReport(t, dir, "a.json", rep)
	runs, err := readReports([]string{f})
	if err != nil {
		t.Fatal(err)
	}
	got := runs[0].rep.Results[0]
	if runs[0].label != "a" || len(got.Series) != 5 || got.Series[2] != rep.Results[0].Series[2] || got.P75Micros != rep.Results[0].P75Micros {
		t.Errorf("round trip: label %q series %+v", runs[0].label, got.Series)
	}
}

func TestPlotRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.svg")
	rep := seriesReport(randRead, 300)
	rep.Results = append(rep.Results, seriesReport(scanRange100, 2000).Results...)
	if err := drawChart(path, "hbase-bench test", runPanels(rep)); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, path, "randomRead", "scanRange100", "p50", "p95", "p99", "latency")
	png := filepath.Join(t.TempDir(), "run.png")
	if err := drawChart(png, "hbase-bench test", runPanels(rep)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(png); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("-plot .png wrote no PNG: %v", err)
	}
	// Nothing to draw is an error, not an empty chart.
	empty := &report{Results: []*result{fakeResult(randRead, "", time.Millisecond, time.Millisecond)}}
	if err := drawChart(filepath.Join(t.TempDir(), "e.svg"), "x", runPanels(empty)); err == nil {
		t.Error("a report without series drew a chart")
	}
}

func TestCompareRuns(t *testing.T) {
	dir := t.TempDir()
	a := writeReport(t, dir, "before.json", seriesReport(randRead, 400))
	b := writeReport(t, dir, "after.json", seriesReport(randRead, 200))
	svg := filepath.Join(dir, "cmp.svg")
	var stdout, stderr strings.Builder
	code := run(t.Context(), []string{"-compare", "-plot", svg, a, b}, env(), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"before", "after", "ops/s ratio", "p99 ratio"} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
	// after's p99 is half of before's (fakeResult: p99 = p50 samples).
	var afterLine string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " after ") {
			afterLine = l
		}
	}
	if f := strings.Fields(afterLine); len(f) < 10 || f[len(f)-1] != "0.50" {
		t.Errorf("after's row %q, want a p99 ratio of 0.50", afterLine)
	}
	checkSVG(t, svg, "before p50", "after p99", "randomRead")
}

func TestCompareBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte("{not json"), 0o644)
	for _, args := range [][]string{
		{"-compare"},
		{"-compare", filepath.Join(dir, "missing.json")},
		{"-compare", junk},
		{"-compare", "-zk", "127.0.0.1:1", junk},
		{"-compare", "-plot", "x.pdf", junk},
	} {
		var stdout, stderr strings.Builder
		code := run(t.Context(), args, env(), &stdout, &stderr)
		if code != 2 || strings.Count(stderr.String(), "\n") != 1 || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2 and one line", args, code, stderr.String(), stdout.String())
		}
	}
}
