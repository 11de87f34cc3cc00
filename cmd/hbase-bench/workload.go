package main

import (
	"context"
	"fmt"
	"strings"
)

// workloadKind names one kind of load.
type workloadKind string

const (
	randRead  workloadKind = "randread"  // Get of a uniformly random row
	randWrite workloadKind = "randwrite" // Put of a uniformly random row
	seqWrite  workloadKind = "seqwrite"  // Put of rows 0, 1, 2, ... shared by all workers
	scanRows  workloadKind = "scan"      // a scan of -scan-rows rows from a random row
)

var allWorkloads = []workloadKind{randRead, randWrite, seqWrite, scanRows}

func workloadNames() []string {
	names := make([]string, len(allWorkloads))
	for i, w := range allWorkloads {
		names[i] = string(w)
	}
	return names
}

// parseWorkloads parses a comma list; a workload may appear more than once (to run it again).
func parseWorkloads(s string) ([]workloadKind, error) {
	var out []workloadKind
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, w := range allWorkloads {
			if name == string(w) {
				out = append(out, w)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown workload %q (want a comma list of %s)", name, strings.Join(workloadNames(), ", "))
		}
	}
	return out, nil
}

// store is the table a workload drives. The real one is a go-hbase client (hbaseStore); the
// runner's tests use an in-memory one. Implementations must be safe for concurrent use.
type store interface {
	// Get reads row and reports whether it had any cell.
	Get(ctx context.Context, row []byte) (found bool, err error)
	// Put writes value into row.
	Put(ctx context.Context, row, value []byte) error
	// Scan reads at most n rows from start on and returns how many it read.
	Scan(ctx context.Context, start []byte, n int) (int, error)
}
