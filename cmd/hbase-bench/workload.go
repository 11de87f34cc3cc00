package main

import (
	"context"
	"fmt"
	"strings"
)

// workloadKind names one kind of load. The names are those of HBase's PerformanceEvaluation
// (PE), so that a run here and a PE run of the same name measure the same thing.
type workloadKind string

const (
	randRead  workloadKind = "randomRead"      // Get of a uniformly random row
	randWrite workloadKind = "randomWrite"     // Put of a uniformly random row
	seqWrite  workloadKind = "sequentialWrite" // Put of rows 0, 1, 2, ... shared by all workers
	// scanRange10/100/1000: a scan from a random row start to start+N (exclusive), as PE's
	// RandomScanWithRangeNTest: N rows, fewer near the end of the key space.
	scanRange10   workloadKind = "scanRange10"
	scanRange100  workloadKind = "scanRange100"
	scanRange1000 workloadKind = "scanRange1000"
	// seqScan: PE's scan. Each worker holds one scanner over its share of the key space and an
	// operation is one row from it (most come from the client's cache of -caching rows); at the
	// end of its share the worker starts over.
	seqScan workloadKind = "scan"
	// increment and checkAndMutate walk rows 0, 1, 2, ... in every worker at once, so workers
	// contend on the same rows, as PE's CASTableTest does.
	increment      workloadKind = "increment"      // +1 on family:IncrementTest
	checkAndMutate workloadKind = "checkAndMutate" // Put family:CheckAndMutateTest=row, then CheckAndMutate(if it equals row, Put it again)
	mixed          workloadKind = "mixed"          // a Get (-read-ratio of the operations) or a Put of a random row
	// filterScan: PE's FilteredScanTest. A scan of the whole table with a server-side
	// SingleColumnValueFilter asking for a random value: the servers read every row and
	// return (almost surely) none.
	filterScan workloadKind = "filterScan"
	// randomSeekScan: -scan-rows rows from a random row (PE's randomSeekScan reads 120 with a
	// PageFilter); what hbase-bench called scan before it took PE's names.
	randomSeekScan workloadKind = "randomSeekScan"
)

var allWorkloads = []workloadKind{
	seqWrite, randWrite, randRead, scanRange10, scanRange100, scanRange1000, seqScan,
	increment, checkAndMutate, mixed, filterScan, randomSeekScan,
}

// workloadAliases are hbase-bench's names from before it took PE's: randread, randwrite and
// seqwrite. (Its old scan, -scan-rows rows from a random row, is randomSeekScan now: scan is
// PE's sequential scan.)
var workloadAliases = map[string]workloadKind{
	"randread":  randRead,
	"randwrite": randWrite,
	"seqwrite":  seqWrite,
}

func workloadNames() []string {
	names := make([]string, len(allWorkloads))
	for i, w := range allWorkloads {
		names[i] = string(w)
	}
	return names
}

// scanRangeOf is how many rows a scanRangeN workload asks for; 0 for other kinds.
func scanRangeOf(w workloadKind) int {
	switch w {
	case scanRange10:
		return 10
	case scanRange100:
		return 100
	case scanRange1000:
		return 1000
	}
	return 0
}

// readsTable reports whether w reads rows that must have been written first.
func readsTable(w workloadKind) bool {
	switch w {
	case randRead, scanRange10, scanRange100, scanRange1000, seqScan, mixed, filterScan, randomSeekScan:
		return true
	}
	return false
}

// parseWorkloads parses a comma list; a workload may appear more than once (to run it again).
func parseWorkloads(s string) ([]workloadKind, error) {
	var out []workloadKind
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		w, ok := workloadAliases[name]
		if !ok {
			for _, x := range allWorkloads {
				if strings.EqualFold(name, string(x)) {
					w, ok = x, true
					break
				}
			}
		}
		if !ok {
			return nil, fmt.Errorf("unknown workload %q (want a comma list of %s; or randread, randwrite, seqwrite)", name, strings.Join(workloadNames(), ", "))
		}
		out = append(out, w)
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
	// ScanRange reads the rows in [start, stop) (stop nil: to the end) and returns how many.
	ScanRange(ctx context.Context, start, stop []byte) (int, error)
	// Increment adds 1 to row's counter column and returns the new value.
	Increment(ctx context.Context, row []byte) (int64, error)
	// CheckAndMutate writes row's key into row's check column, then writes it again with a
	// CheckAndMutate that requires the column to hold it; it reports whether the check held.
	CheckAndMutate(ctx context.Context, row []byte) (bool, error)
	// FilterScan scans the whole table for rows whose value equals value, filtering on the
	// servers, and returns how many it found.
	FilterScan(ctx context.Context, value []byte) (int, error)
	// OpenScan starts a scan of [start, stop) that is read one row at a time; ctx bounds it
	// as a whole.
	OpenScan(ctx context.Context, start, stop []byte) rowCursor
}

// rowCursor is an open scan read one row at a time.
type rowCursor interface {
	// Next moves to the next row: false at the end of the scan or on an error (then err).
	Next() (ok bool, err error)
	Close()
}

// putWriter is a buffered writer of Puts (-buffered): Put accepts a Put, sent later; Close sends
// what is left and reports how many of the accepted Puts failed.
type putWriter interface {
	Put(ctx context.Context, row, value []byte) error
	Close(ctx context.Context) (failed int64, err error)
}

// bufferedStore is a store that can write through buffered writers.
type bufferedStore interface {
	NewPutWriter(writeBuffer int64) (putWriter, error)
}

// buffers reports whether w writes through a buffered writer when -buffered is given.
func buffers(w workloadKind) bool { return w == randWrite || w == seqWrite }
