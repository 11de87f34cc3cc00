package engine

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// A scan with hrpc.CursorResults returns a heartbeat's cursor as a Result with no cells and
// Cursor set, between the rows, which come as without it; a scan without the option never
// returns one, whatever the server sends.
func TestScanCursorResults(t *testing.T) {
	for _, want := range []bool{false, true} {
		fs := newFakeScans(t, 30, threeRegions()...)
		fs.heartbeats, fs.cursors = true, true
		c := fs.client(t)
		opts := []hrpc.ScanOption{hrpc.NumberOfRows(4)}
		if want {
			opts = append(opts, hrpc.CursorResults())
		}
		s, err := hrpc.NewScan("t", opts...)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var rows []string
		var cursors [][]byte
		for r, err := range c.Scan(ctx, s) {
			if err != nil {
				t.Fatal(err)
			}
			if r.Cursor != nil {
				if len(r.Cells) != 0 {
					t.Fatalf("cursor result with cells: %+v", r)
				}
				cursors = append(cursors, r.Cursor)
				continue
			}
			rows = append(rows, string(r.Cells[0].Row))
		}
		cancel()
		if !slices.Equal(rows, fs.rows) {
			t.Fatalf("CursorResults=%v: rows %v, want %v", want, rows, fs.rows)
		}
		if !want {
			if len(cursors) != 0 {
				t.Fatalf("cursor results without CursorResults: %q", cursors)
			}
			continue
		}
		if len(cursors) == 0 {
			t.Fatal("no cursor result")
		}
		if !slices.IsSortedFunc(cursors, func(a, b []byte) int { return slices.Compare(a, b) }) {
			t.Fatalf("cursors out of order: %q", cursors)
		}
	}
}
