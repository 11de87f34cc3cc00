package hbase

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/pb"
)

// scanRows is the number of rows each scan of the lean scan server returns, as hbase-bench's
// scan workload (scanRange100) reads them: one RPC.
const scanRows = 100

// startLeanScanServer answers every call as a region server answers the opening of a scan
// whose limit its one response reaches: scanRows rows of one 100-byte cell in the cellblock,
// the scanner closed by the server.
func startLeanScanServer(tb testing.TB) *Client {
	resp := &pb.ScanResponse{ScannerId: proto.Uint64(7), MoreResults: proto.Bool(false),
		MoreResultsInRegion: proto.Bool(false), Ttl: proto.Uint32(60000), MvccReadPoint: proto.Uint64(42),
		HeartbeatMessage: proto.Bool(false), Stale: proto.Bool(false)}
	var cells []byte
	for i := range scanRows {
		cells = hrpc.AppendCell(cells, &hrpc.Cell{Row: fmt.Appendf(nil, "row%04d", i), Family: []byte("f"),
			Qualifier: []byte("q"), Timestamp: 1, Type: hrpc.CellTypePut, Value: make([]byte, 100)})
		resp.CellsPerResult = append(resp.CellsPerResult, 1)
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, false)
	}
	return startLeanRegionServer(tb, resp, cells)
}

// BenchmarkClientScanLean: one scan of scanRows rows at a time through a whole Client (as
// hbase-bench's scan workload: a new Scan per operation) against a server that allocates
// nothing, so B/op and allocs/op are the client's.
func BenchmarkClientScanLean(b *testing.B) {
	c := startLeanScanServer(b)
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		scan, err := hrpc.NewScan([]byte("t"), hrpc.StartRow([]byte("row")), hrpc.Limit(scanRows), hrpc.NumberOfRows(scanRows))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, err := range c.Scan(ctx, scan) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != scanRows {
			b.Fatalf("%d rows, want %d", n, scanRows)
		}
	}
}
