package hbasetest

import (
	"context"
	"fmt"
	"strings"
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
