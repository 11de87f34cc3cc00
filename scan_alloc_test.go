package hbase

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/pb"
)

// scanRows is the number of rows each scan of the lean scan server returns, as hbase-bench's
// scan workload (scanRange100) reads them: one RPC.
const scanRows = 100

// startLeanScanServer answers every call as a region server answers the opening of a scan
// whose limit its one response reaches: rows rows of one 100-byte cell in the cellblock, the
// scanner closed by the server.
func startLeanScanServer(tb testing.TB, rows int) *Client {
	resp := &pb.ScanResponse{ScannerId: proto.Uint64(7), MoreResults: proto.Bool(false),
		MoreResultsInRegion: proto.Bool(false), Ttl: proto.Uint32(60000), MvccReadPoint: proto.Uint64(42),
		HeartbeatMessage: proto.Bool(false), Stale: proto.Bool(false)}
	var cells []byte
	for i := range rows {
		cells = hrpc.AppendCell(cells, &hrpc.Cell{Row: fmt.Appendf(nil, "row%04d", i), Family: []byte("f"),
			Qualifier: []byte("q"), Timestamp: 1, Type: hrpc.CellTypePut, Value: make([]byte, 100)})
		resp.CellsPerResult = append(resp.CellsPerResult, 1)
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, false)
	}
	return startLeanRegionServer(tb, resp, cells)
}

// scanN scans n rows from "row" as hbase-bench's scan workload does: a new Scan, n rows in one
// RPC.
func scanN(ctx context.Context, c *Client, n int) (int, error) {
	scan, err := hrpc.NewScan([]byte("t"), hrpc.StartRow([]byte("row")), hrpc.Limit(n), hrpc.NumberOfRows(n))
	if err != nil {
		return 0, err
	}
	rows := 0
	for _, err := range c.Scan(ctx, scan) {
		if err != nil {
			return rows, err
		}
		rows++
	}
	return rows, nil
}

// TestScanAllocations: a scan allocates nothing per row returned. A scan of 100 rows in one
// response allocates at most 30 times in all (Scanner, contexts, request, response, one slab
// of cells and results), and one of 1,000 rows at most 8 times more, not 900 (the response's
// per-result fields growing past the room made for them in advance).
func TestScanAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	allocs := func(rows int) float64 {
		c := startLeanScanServer(t, rows)
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		if _, err := scanN(ctx, c, rows); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(100, func() {
			if n, err := scanN(ctx, c, rows); err != nil || n != rows {
				t.Fatalf("%d rows, %v; want %d", n, err, rows)
			}
		})
	}
	a100, a1000 := allocs(100), allocs(1000)
	if a100 > 20 {
		t.Errorf("a scan of 100 rows allocates %.0f times, want at most 20", a100)
	}
	if a1000 > a100+8 {
		t.Errorf("a scan of 1,000 rows allocates %.0f times, 100 rows %.0f: want at most 8 more", a1000, a100)
	}
	t.Logf("allocations per scan: %.0f for 100 rows, %.0f for 1,000 rows", a100, a1000)
}

// BenchmarkClientScanLean: one scan of scanRows rows at a time through a whole Client (as
// hbase-bench's scan workload: a new Scan per operation) against a server that allocates
// nothing, so B/op and allocs/op are the client's.
func BenchmarkClientScanLean(b *testing.B) {
	c := startLeanScanServer(b, scanRows)
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		if n, err := scanN(ctx, c, scanRows); err != nil || n != scanRows {
			b.Fatalf("%d rows, %v; want %d", n, err, scanRows)
		}
	}
}
