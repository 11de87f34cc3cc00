package hbasetest

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The workloads JavaClient.Work runs, named as HBase's PerformanceEvaluation names them.
const (
	WorkloadRandomRead = "randomRead" // a Get of a random row
	// WorkloadTimelineRead is WorkloadRandomRead with TIMELINE consistency; WorkBlock.Rows then
	// counts the stale results.
	WorkloadTimelineRead = "timelineRead"
	WorkloadRandomWrite  = "randomWrite" // a Put into a random row
	WorkloadScanRange    = "scanRange"   // a scan of Work.Range rows from a random one (PE's scanRange100: Range 100)
	// PE's randomWrite and sequentialWrite with --autoFlush=false: each thread writes through a
	// BufferedMutator of its own with a buffer of Work.WriteBuffer bytes and closes it (a last
	// flush) within the block. A latency is one mutate() call. Sequential rows: SequentialRow.
	WorkloadBufferedRandomWrite     = "bufferedRandomWrite"
	WorkloadBufferedSequentialWrite = "bufferedSequentialWrite"
)

// PE's table layout, which Work uses: rows are PERowLength-digit zero-padded numbers (PEKey),
// one cell PEFamily:PEQualifier per row.
const (
	PERowLength = 26
	PEFamily    = "info0"
	PEQualifier = "0"
)

// Work is one block of a workload for JavaClient.Work.
type Work struct {
	Workload string // WorkloadRandomRead, WorkloadRandomWrite or WorkloadScanRange
	Table    string
	Rows     int64 // rows of the table: operation rows are drawn from [0, Rows)
	Range    int   // rows per scan (WorkloadScanRange)
	Seed     int64 // operation i's row is WorkRow(Seed, i, ...)
	N        int   // operations in the block
	Threads  int   // threads sharing them, operation i on thread i mod Threads
	ValueLen int   // bytes per value written (WorkloadRandomWrite)
	// WriteBuffer is the BufferedMutator's write buffer in bytes for the buffered workloads; 0
	// means the client's default (hbase.client.write.buffer, 2 MiB).
	WriteBuffer int64
}

// WorkBlock is what a block took, as the Java client measured it.
type WorkBlock struct {
	Wall      time.Duration   // from before the first operation to after the last
	Rows      int64           // rows the reads returned
	Latencies []time.Duration // one per operation (System.nanoTime around it), in order
}

// Work runs one block of w in the Java client: each operation on its own row (WorkRow), each
// thread with a Table of its own, the pool of threads kept for the next block of as many. A
// Get of a missing row or a scan of fewer than Range rows is an error: the table is expected
// to hold every row. The same block through another client does the same work when it draws
// its rows with WorkRow and formats them with PEKey.
func (j *JavaClient) Work(ctx context.Context, w Work) (WorkBlock, error) {
	if j.broken != nil {
		return WorkBlock{}, j.broken
	}
	command := fmt.Sprintf("work %s %s %d %d %d %d %d %d %d", w.Workload, w.Table, w.Rows, w.Range, w.Seed, w.N, max(w.Threads, 1), w.ValueLen, w.WriteBuffer)
	b, err := j.work(ctx, command, w.N)
	if err != nil {
		j.broken = err
	}
	return b, err
}

func (j *JavaClient) work(ctx context.Context, command string, n int) (WorkBlock, error) {
	rest, err := j.answer(ctx, command)
	if err != nil {
		return WorkBlock{}, err
	}
	fields := strings.Fields(rest)
	if len(fields) != n+2 {
		return WorkBlock{}, j.failure(command, "OK"+truncate(rest, 300), fmt.Errorf("%d fields, want %d", len(fields), n+2))
	}
	nums := make([]int64, len(fields))
	for i, f := range fields {
		if nums[i], err = strconv.ParseInt(f, 10, 64); err != nil {
			return WorkBlock{}, j.failure(command, "OK"+truncate(rest, 300), err)
		}
	}
	b := WorkBlock{Wall: time.Duration(nums[0]), Rows: nums[1], Latencies: make([]time.Duration, n)}
	for i, ns := range nums[2:] {
		b.Latencies[i] = time.Duration(ns)
	}
	return b, nil
}

// WorkRow is the row of operation i of a block with seed seed over a table of rows rows: the
// Java client's choice too. For WorkloadScanRange, pass rows minus the range, so that every
// scan finds its whole range.
func WorkRow(seed int64, i int, rows int64) int64 {
	return int64(mix64(uint64(seed+int64(i))) % uint64(rows))
}

// SequentialRow is the row of operation i of a WorkloadBufferedSequentialWrite block: (seed +
// i) mod rows, as the Java client draws it.
func SequentialRow(seed int64, i int, rows int64) int64 {
	return int64(uint64(seed+int64(i)) % uint64(rows))
}

// mix64 is splitmix64's finaliser (Workload.mix in the launcher).
func mix64(x uint64) uint64 {
	z := x + 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// PEKey appends PE's key of row to dst: PERowLength decimal digits, zero-padded.
func PEKey(dst []byte, row int64) []byte {
	n := len(dst)
	dst = slices.Grow(dst, PERowLength)[:n+PERowLength]
	for i := n + PERowLength - 1; i >= n; i-- {
		dst[i] = byte('0' + row%10)
		row /= 10
	}
	return dst
}
