// Command hbase-bench loads an HBase table with the workloads of HBase's PerformanceEvaluation
// (sequentialWrite, randomWrite, randomRead, scanRange10/100/1000, scan, increment,
// checkAndMutate, filterScan) and a mixed one, and reports latency percentiles, throughput,
// client CPU and allocations per operation, with a live progress line, a time series (-json,
// -plot) and, with -rate, latency at a fixed offered load.
//
// It runs against an existing cluster (-zk; -pe for a table PerformanceEvaluation laid out)
// or starts a local mini cluster itself (-local, what `make bench` uses). With -local
// -compare-security it measures Get and Put against one secure cluster with no encryption,
// privacy by GSS wrap and privacy by AES, and prints each mode's p75 latency as a ratio of
// the no-encryption reference measured in the same run. -compare sets earlier -json runs side
// by side.
//
//	go run ./cmd/hbase-bench -local -workload randomWrite,randomRead,scanRange100 -duration 20s
//	go run ./cmd/hbase-bench -zk 127.0.0.1:2181 -pe -workload randomRead -ops 100000 -json
//	go run ./cmd/hbase-bench -compare -plot runs.svg a.json b.json
//
// The exit status is 0 when every operation succeeded, 1 when any failed (the table says how
// many and why) or the run broke off, 2 for a bad command line, an unreachable cluster, a
// missing table or -compare files that are not reports.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program with its surroundings passed in, so tests can drive it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	c, err := parseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "hbase-bench: %v\n", err)
		return 2
	}
	if c.Compare != nil {
		if err := runCompare(c, stdout); err != nil {
			fmt.Fprintf(stderr, "hbase-bench: %v\n", err)
			return exitCode(nil, err)
		}
		return 0
	}
	level := slog.LevelInfo
	if c.Verbose {
		level = slog.LevelDebug
	}
	progress := newProgressPrinter(stderr, isTerminal(stderr), c.Progress)
	if c.Progress > 0 {
		c.progress = progress.update
	}
	log := slog.New(slog.NewTextHandler(progress, &slog.HandlerOptions{Level: level}))
	// The client's own news (sessions established, regions located) is noise in a benchmark's
	// output: its warnings and errors only, unless -v.
	clientLevel := slog.LevelWarn
	if c.Verbose {
		clientLevel = slog.LevelDebug
	}
	clientLog := slog.New(slog.NewTextHandler(progress, &slog.HandlerOptions{Level: clientLevel})).With("component", "go-hbase")

	stopProfile, err := startCPUProfile(c.CPUProfile)
	if err != nil {
		fmt.Fprintf(stderr, "hbase-bench: %v\n", err)
		return 2
	}
	rep, err := execute(ctx, c, log, clientLog)
	if perr := stopProfile(); perr != nil {
		fmt.Fprintf(stderr, "hbase-bench: %v\n", perr)
	}
	progress.finish()
	if rep != nil {
		if n, rerr := peakRSS(); rerr == nil {
			rep.PeakRSSBytes = n
		}
	}
	if rep != nil && len(rep.Results) > 0 {
		var werr error
		if c.JSON {
			werr = writeJSON(stdout, rep)
		} else {
			werr = writeTable(stdout, rep)
		}
		if werr == nil && c.Plot != "" {
			if werr = drawChart(c.Plot, "hbase-bench "+describeRun(rep), runPanels(rep)); werr != nil {
				werr = fmt.Errorf("-plot %s: %w", c.Plot, werr)
			}
		}
		if werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "hbase-bench: %v\n", err)
	} else if n := rep.totalErrors(); n > 0 {
		fmt.Fprintf(stderr, "hbase-bench: %d operations failed\n", n)
	}
	return exitCode(rep, err)
}

// execute starts the local clusters when asked, then benchmarks the table through go-hbase
// (whose client logs to clientLog).
func execute(ctx context.Context, c *config, log, clientLog *slog.Logger) (*report, error) {
	open := hbaseOpener(log, clientLog)
	if !c.Local {
		return benchmark(ctx, c, modesFor(c), open, log)
	}
	return runLocal(ctx, c, planClusters(c), open, log)
}

// runLocal runs the benchmark against each planned cluster in turn, never two at once.
func runLocal(ctx context.Context, c *config, plans []clusterPlan, open openFunc, log *slog.Logger) (*report, error) {
	all := &report{Settings: settingsOf(c)}
	for _, p := range plans {
		all.Settings.Clusters = append(all.Settings.Clusters, describePlan(p))
		lc, err := startLocal(ctx, c, p, log)
		if err != nil {
			return all, err
		}
		cc, modes, err := lc.withCredentials(c, p.Modes)
		if err != nil {
			lc.stop(log)
			return all, err
		}
		rep, err := benchmark(ctx, cc, modes, open, log)
		lc.stop(log)
		if rep != nil {
			all.Results = append(all.Results, rep.Results...)
			all.ServerLatency = append(all.ServerLatency, rep.ServerLatency...)
		}
		if err != nil {
			return all, err
		}
	}
	sortResults(all.Results, c)
	all.Comparison = compare(all.Results)
	return all, nil
}
