package engine

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// TestScanCursorResultsAgainstHBase: a scan whose filter drops nearly every cell, with
// hrpc.CursorResults, gets cursor results from the server's heartbeats. The server sends a
// heartbeat once a scan RPC has used half of its remaining time (the deadline the client sends
// with each call) and checks that every 10000 cells, so the scan runs with short deadlines,
// longer and longer until one brings a heartbeat.
func TestScanCursorResultsAgainstHBase(t *testing.T) {
	c := newTestClient(t)
	table := createTable(t, []string{"f"}, nil)
	ctx := testContext(t, 2*time.Minute)
	const rows, cells = 1500, 40
	var batch []hrpc.Batchable
	for i := range rows {
		var vals []hrpc.PutOption
		for j := range cells {
			v := fmt.Appendf(nil, "v%02d", j)
			if i == rows-1 && j == 0 {
				v = []byte("match")
			}
			vals = append(vals, hrpc.Value(famF, fmt.Appendf(nil, "q%02d", j), v))
		}
		p, err := hrpc.NewPut(table, fmt.Appendf(nil, "c%04d", i), vals...)
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, p)
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("loading row %d: %v", i, r.Err)
		}
	}
	filter := hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "^match$"}}
	for d := 20 * time.Millisecond; d < 3*time.Second; d *= 2 {
		s, err := hrpc.NewScan(table, hrpc.WithFilter(filter), hrpc.CursorResults())
		if err != nil {
			t.Fatal(err)
		}
		sctx, cancel := context.WithTimeout(ctx, d)
		var cursors [][]byte
		var found []string
		var scanErr error
		for r, err := range c.Scan(sctx, s) {
			if err != nil {
				scanErr = err
				break
			}
			if r.Cursor != nil {
				if len(r.Cells) != 0 {
					t.Fatalf("cursor result with cells: %+v", r)
				}
				cursors = append(cursors, r.Cursor)
				continue
			}
			found = append(found, string(r.Cells[0].Row))
		}
		cancel()
		t.Logf("deadline %v: %d cursor results, rows %v, err %v", d, len(cursors), found, scanErr)
		if len(cursors) == 0 {
			continue
		}
		for i, cur := range cursors {
			if bytes.Compare(cur, []byte("c0000")) < 0 || bytes.Compare(cur, fmt.Appendf(nil, "c%04d", rows-1)) > 0 {
				t.Errorf("cursor %q outside the table's rows", cur)
			}
			if i > 0 && bytes.Compare(cur, cursors[i-1]) < 0 {
				t.Errorf("cursor %q after cursor %q", cur, cursors[i-1])
			}
		}
		if scanErr == nil && (len(found) != 1 || found[0] != fmt.Sprintf("c%04d", rows-1)) {
			t.Errorf("rows %v, want only the matching one", found)
		}
		return
	}
	t.Fatal("no deadline brought a heartbeat with a cursor")
}
