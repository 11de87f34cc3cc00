package hrpc

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// FuzzParseScanResponse feeds scan responses and cellblocks as a server might send them:
// never a panic, and a response that passes gives results of one row each that account for
// every cell.
func FuzzParseScanResponse(f *testing.F) {
	block := encodeCells(testCells(3))
	msg, _ := proto.Marshal(&pb.ScanResponse{CellsPerResult: []uint32{2, 1}, PartialFlagPerResult: []bool{true, false}})
	f.Add(msg, block)
	msg, _ = proto.Marshal(&pb.ScanResponse{Results: []*pb.Result{{Cell: []*pb.Cell{{Row: []byte("r")}}}}})
	f.Add(msg, []byte(nil))
	msg, _ = proto.Marshal(&pb.ScanResponse{CellsPerResult: []uint32{1 << 30}})
	f.Add(msg, block)
	f.Fuzz(func(t *testing.T, msg, block []byte) {
		var resp pb.ScanResponse
		if proto.Unmarshal(msg, &resp) != nil {
			return
		}
		results, err := appendScanResults(nil, &resp, block)
		if err != nil {
			return
		}
		cells := 0
		for _, r := range results {
			cells += len(r.Cells)
			for _, c := range r.Cells {
				if !bytes.Equal(c.Row, r.Cells[0].Row) {
					t.Fatalf("a result holds rows %q and %q", r.Cells[0].Row, c.Row)
				}
			}
		}
		if len(resp.CellsPerResult) > 0 {
			want := 0
			for _, n := range resp.CellsPerResult {
				want += int(n)
			}
			if cells != want {
				t.Fatalf("%d cells decoded, %d announced", cells, want)
			}
		}
	})
}

// FuzzCheckGetResponse: a Get response that passes the check decodes to cells of the Get's
// row only, as many as it announces.
func FuzzCheckGetResponse(f *testing.F) {
	block := encodeCells(testCells(2))
	msg, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(2)}})
	f.Add(msg, block)
	msg, _ = proto.Marshal(&pb.GetResponse{Result: &pb.Result{Exists: proto.Bool(true)}})
	f.Add(msg, []byte(nil))
	f.Fuzz(func(t *testing.T, msg, block []byte) {
		var resp pb.GetResponse
		if proto.Unmarshal(msg, &resp) != nil {
			return
		}
		g, _ := NewGet("t", []byte("row"))
		if getW(g).CheckResponse(&resp, block) != nil {
			return
		}
		res, err := g.decode(&resp, block)
		if err != nil {
			t.Fatalf("passed the check but does not decode: %v", err)
		}
		for _, c := range res.Cells {
			if string(c.Row) != "row" {
				t.Fatalf("passed the check with a cell of row %q", c.Row)
			}
		}
		if n := int(resp.GetResult().GetAssociatedCellCount()) + len(resp.GetResult().GetCell()); len(res.Cells) != n {
			t.Fatalf("%d cells, %d announced", len(res.Cells), n)
		}
	})
}
