// Command hbase-bench loads an HBase table with random reads, random writes, sequential
// writes and scans, and reports latency percentiles, throughput, client CPU and allocations
// per operation.
//
// It runs against an existing cluster (-zk) or starts a local mini cluster itself (-local,
// what `make bench` uses). With -local -compare-security it measures Get and Put against one
// secure cluster with no encryption, privacy by GSS wrap and privacy by AES, and prints each
// mode's p75 latency as a ratio of the no-encryption reference measured in the same run.
//
//	go run ./cmd/hbase-bench -local -workload randwrite,randread,seqwrite,scan -duration 20s
//	go run ./cmd/hbase-bench -local -compare-security -duration 30s
//	go run ./cmd/hbase-bench -zk 127.0.0.1:2181 -table t -workload randread -ops 100000 -json
//
// The exit status is 0 when every operation succeeded, 1 when any failed (the table says how
// many and why) or the run could not start, 2 for a bad command line.
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
	level := slog.LevelInfo
	if c.Verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	rep, err := execute(ctx, c, log)
	if rep != nil && len(rep.Results) > 0 {
		var werr error
		if c.JSON {
			werr = writeJSON(stdout, rep)
		} else {
			werr = writeTable(stdout, rep)
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

// execute starts the local clusters when asked, then benchmarks the table through go-hbase.
func execute(ctx context.Context, c *config, log *slog.Logger) (*report, error) {
	open := hbaseOpener(log)
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
