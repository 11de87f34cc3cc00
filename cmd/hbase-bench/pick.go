package main

import "math/rand/v2"

// The rows each workload touches, as pure functions of the worker's state, so the layout can
// be tested without a cluster.

// maxRowFor is the largest row number a key of size decimal digits holds (size <= 19).
func maxRowFor(size int) uint64 {
	if size >= 20 {
		return ^uint64(0)
	}
	n := uint64(1)
	for range size {
		n *= 10
	}
	return n - 1
}

// scanRangeRows is the [start, stop) of a scanRangeN operation: start uniform in [0, rows),
// stop = start+n, as PE's generateStartAndStopRows. The stop row may lie beyond the key space
// (the scan then returns fewer than n rows); hasStop is false when start+n does not fit in a
// key of keySize digits, and the scan runs to the end of the table.
func scanRangeRows(rng *rand.Rand, rows uint64, n int, keySize int) (start, stop uint64, hasStop bool) {
	start = rng.Uint64N(rows)
	stop = start + uint64(n)
	return start, stop, stop <= maxRowFor(keySize)
}

// expectedRangeRows is how many rows a scan of [start, start+n) returns from a table holding
// rows [0, rows): what scanRangeN should see after a full load.
func expectedRangeRows(start uint64, n int, rows uint64) uint64 {
	if start >= rows {
		return 0
	}
	return min(uint64(n), rows-start)
}

// scanShare is worker i's part [lo, hi) of rows [0, rows) for the sequential scan: the key
// space cut into workers nearly equal parts, as PE gives each client its own rows. A worker
// whose share is empty (more workers than rows) scans the whole table.
func scanShare(i, workers int, rows uint64) (lo, hi uint64) {
	lo = uint64(i) * rows / uint64(workers)
	hi = uint64(i+1) * rows / uint64(workers)
	if lo == hi {
		return 0, rows
	}
	return lo, hi
}

// casRow is the row of a worker's n-th increment or checkAndMutate: every worker walks rows
// 0, 1, 2, ... (wrapping at rows), so workers overlap on the same rows as in PE's CAS tests.
func casRow(n uint64, rows uint64) uint64 { return n % rows }

// fillValue fills b the way PE's generateData does: runs of 8 equal upper-case letters (so a
// table with compression compresses PE's and hbase-bench's values alike).
func fillValue(rng *rand.Rand, b []byte) {
	i := 0
	for ; i+8 < len(b); i += 8 {
		c := byte('A' + rng.IntN(26))
		for j := range 8 {
			b[i+j] = c
		}
	}
	c := byte('A' + rng.IntN(26))
	for ; i < len(b); i++ {
		b[i] = c
	}
}
