package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
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
		cells = wire.AppendCell(cells, &wire.Cell{Row: fmt.Appendf(nil, "row%04d", i), Family: []byte("f"),
			Qualifier: []byte("q"), Timestamp: 1, Type: wire.CellTypePut, Value: make([]byte, 100)})
		resp.CellsPerResult = append(resp.CellsPerResult, 1)
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, false)
	}
	return startLeanRegionServer(tb, resp, cells)
}

// scanN scans n rows from "row" as hbase-bench's scan workload does: a new Scan, n rows in one
// RPC.
func scanN(ctx context.Context, c *Client, n int) (int, error) {
	scan, err := hrpc.NewScan("t", hrpc.StartRow([]byte("row")), hrpc.Limit(n), hrpc.NumberOfRows(n))
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

// TestScanAllocations: a scan allocates nothing per row returned. Client.Scan of 100 rows in
// one response allocates at most twice beyond the request the caller builds: the response's
// frame, which the cells alias, and one block of results and their cells (the scanner, its
// messages and buffers are reused, scanner_pool.go). A scan of 1,000 rows allocates no more.
// Before the pooled scanner it was 17 in all for 100 rows, 13 beyond the request.
func TestScanAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	request := testing.AllocsPerRun(100, func() {
		if _, err := hrpc.NewScan("t", hrpc.StartRow([]byte("row")), hrpc.Limit(100), hrpc.NumberOfRows(100)); err != nil {
			t.Fatal(err)
		}
	})
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
	if a100-request > 2 {
		t.Errorf("a scan of 100 rows allocates %.0f times, %.0f of them the request: want at most 2 more", a100, request)
	}
	if a1000 > a100 {
		t.Errorf("a scan of 1,000 rows allocates %.0f times, 100 rows %.0f: want no more", a1000, a100)
	}
	t.Logf("allocations per scan: %.0f for 100 rows, %.0f for 1,000 rows, %.0f of each the request", a100, a1000, request)
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
