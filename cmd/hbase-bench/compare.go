package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// -compare reads the -json reports of earlier runs and sets them side by side: a table of
// every workload in every run against the first run, and with -plot one chart of their p50
// and p99 over time, as the seeds compared encryption modes.

// compareConfig validates `-compare [-plot f.svg] a.json b.json ...`.
func compareConfig(c *config, files []string, set map[string]bool) (*config, error) {
	for name := range set {
		if name != "compare" && name != "plot" && name != "v" {
			return nil, usageErr("-%s does not go with -compare: it reads finished runs and connects to nothing", name)
		}
	}
	if len(files) == 0 {
		return nil, usageErr("-compare: name the -json reports to compare, e.g. hbase-bench -compare a.json b.json")
	}
	if c.Plot != "" && !plotFile(c.Plot) {
		return nil, usageErr("-plot: want a file name ending in .svg or .png, got %q", c.Plot)
	}
	c.Compare = files
	return c, nil
}

// comparedRun is one report and what to call it.
type comparedRun struct {
	label string
	rep   *report
}

// readReports reads the -json reports; a file that is not one is a usage error.
func readReports(files []string) ([]comparedRun, error) {
	var runs []comparedRun
	labels := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, usageErr("-compare: %v", err)
		}
		var rep report
		if err := json.Unmarshal(b, &rep); err != nil || len(rep.Results) == 0 {
			if err == nil {
				err = fmt.Errorf("no results")
			}
			return nil, usageErr("-compare: %s is not an hbase-bench -json report: %v", f, err)
		}
		label := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if labels[label]++; labels[label] > 1 {
			label = f
		}
		runs = append(runs, comparedRun{label: label, rep: &rep})
	}
	return runs, nil
}

// resultKey names a workload (and mode) across runs.
func resultKey(r *result) string {
	if r.Mode == "" {
		return r.Workload
	}
	return r.Workload + " " + r.Mode
}

// compareKeys lists every workload of the runs, in the order they first appear.
func compareKeys(runs []comparedRun) []string {
	var keys []string
	seen := map[string]bool{}
	for _, run := range runs {
		for _, r := range run.rep.Results {
			if k := resultKey(r); !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

func findResult(rep *report, key string) *result {
	for _, r := range rep.Results {
		if resultKey(r) == key {
			return r
		}
	}
	return nil
}

// writeComparison prints each workload of each run with its throughput and p99 as ratios of
// the first run's (the reference) that has it.
func writeComparison(w io.Writer, runs []comparedRun) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\trun\tcallers\tops/s\tp50 µs\tp95 µs\tp99 µs\terrors\tops/s ratio\tp99 ratio\t")
	for _, key := range compareKeys(runs) {
		var ref *result
		for _, run := range runs {
			r := findResult(run.rep, key)
			if r == nil {
				continue
			}
			if ref == nil {
				ref = r
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%d\t%d\t%d\t%d\t%s\t%s\t\n", key, run.label, run.rep.Settings.Concurrency,
				r.OpsPerSec, r.P50Micros, r.P95Micros, r.P99Micros, r.Errors,
				ratio(r.OpsPerSec, ref.OpsPerSec), ratio(float64(r.P99Micros), float64(ref.P99Micros)))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "ratios against the first run that has the workload (%s for the first)\n", runs[0].label)
	return nil
}

func ratio(a, ref float64) string {
	if ref <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/ref)
}

// comparePanels is -compare -plot: a panel per workload, each run's p50 (solid) and p99
// (dashed) in a colour of its own.
func comparePanels(runs []comparedRun) []panel {
	var out []panel
	for _, key := range compareKeys(runs) {
		pn := panel{title: key + " (solid p50, dashed p99)"}
		for i, run := range runs {
			r := findResult(run.rep, key)
			if r == nil {
				continue
			}
			pn.lines = append(pn.lines,
				chartLine{name: run.label + " p50", xys: percentileLine(r.Series, pickP50), color: i},
				chartLine{name: run.label + " p99", xys: percentileLine(r.Series, pickP99), color: i, dashed: true})
		}
		out = append(out, pn)
	}
	return out
}

// runCompare is the whole of -compare.
func runCompare(c *config, stdout io.Writer) error {
	runs, err := readReports(c.Compare)
	if err != nil {
		return err
	}
	if err := writeComparison(stdout, runs); err != nil {
		return err
	}
	if c.Plot == "" {
		return nil
	}
	labels := make([]string, len(runs))
	for i, r := range runs {
		labels[i] = r.label
	}
	if err := drawChart(c.Plot, "hbase-bench: "+strings.Join(labels, " vs "), comparePanels(runs)); err != nil {
		return fmt.Errorf("-plot %s: %w", c.Plot, err)
	}
	return nil
}
