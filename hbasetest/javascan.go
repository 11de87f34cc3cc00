package hbasetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ScanShapes scans the whole table with the Java client's Scan.setBatch(batch) (0: none),
// setMaxResultSize(maxResultSize) (0: the default) and setAllowPartialResults(allowPartial),
// and describes each Result it returned as "row:cells", with "+" appended when the Result
// may have more cells of its row (Result.mayHaveMoreCellsInRow): the shapes another client
// can be compared with. Rows are printed as Bytes.toStringBinary does (printable ASCII as
// is).
func (j *JavaClient) ScanShapes(ctx context.Context, table string, batch int, maxResultSize int64, allowPartial bool) ([]string, error) {
	if j.broken != nil {
		return nil, j.broken
	}
	command := fmt.Sprintf("scan %s %d %d %t", table, batch, maxResultSize, allowPartial)
	line, err := j.answer(ctx, command)
	if err != nil {
		j.broken = err
		return nil, err
	}
	return strings.Fields(line), nil
}

// answer sends one command and returns what follows the "OK" of its answer.
func (j *JavaClient) answer(ctx context.Context, command string) (string, error) {
	if _, err := fmt.Fprintln(j.stdin, command); err != nil {
		return "", j.failure(command, "", err)
	}
	line, err := j.readLine(ctx)
	if err != nil {
		return "", j.failure(command, "", err)
	}
	rest, ok := strings.CutPrefix(line, "OK")
	if !ok {
		return "", j.failure(command, line, nil)
	}
	return rest, nil
}

// ParallelScan scans every region of table with the Java client, threads scans at a time
// (one per region, its keys from the table's RegionLocator, each with Scan.setCaching(caching),
// 0: the default), as a batch job does, and returns the wall time from listing the regions to
// the last row, and the rows.
func (j *JavaClient) ParallelScan(ctx context.Context, table string, threads, caching int) (time.Duration, int64, error) {
	if j.broken != nil {
		return 0, 0, j.broken
	}
	command := fmt.Sprintf("pscan %s %d %d", table, max(threads, 1), caching)
	line, err := j.answer(ctx, command)
	if err != nil {
		j.broken = err
		return 0, 0, err
	}
	f := strings.Fields(line)
	if len(f) != 2 {
		return 0, 0, j.failure(command, "OK"+line, fmt.Errorf("%d fields, want 2", len(f)))
	}
	wall, err1 := strconv.ParseInt(f[0], 10, 64)
	rows, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || wall < 0 {
		return 0, 0, j.failure(command, "OK"+line, errors.Join(err1, err2))
	}
	return time.Duration(wall), rows, nil
}
