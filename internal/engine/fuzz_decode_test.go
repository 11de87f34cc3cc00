package engine

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// FuzzMetaRows feeds hbase:meta scan responses: never a panic, and every row decoded has a
// region info.
func FuzzMetaRows(f *testing.F) {
	info, _ := proto.Marshal(&pb.RegionInfo{RegionId: proto.Uint64(1),
		TableName: &pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")}})
	row := []byte("t,,1.abc.")
	block := wire.AppendCell(nil, &wire.Cell{Row: row, Family: infoFamily, Qualifier: regionInfoCol,
		Type: wire.CellTypePut, Value: append([]byte("PBUF"), info...)})
	block = wire.AppendCell(block, &wire.Cell{Row: row, Family: infoFamily, Qualifier: serverCol,
		Type: wire.CellTypePut, Value: []byte("localhost:16020")})
	msg, _ := proto.Marshal(&pb.ScanResponse{CellsPerResult: []uint32{2}})
	f.Add(msg, block)
	f.Fuzz(func(t *testing.T, msg, block []byte) {
		var resp pb.ScanResponse
		if proto.Unmarshal(msg, &resp) != nil {
			return
		}
		rows, err := metaRows(&resp, block)
		if err != nil {
			return
		}
		for _, r := range rows {
			if r.info == nil {
				t.Fatalf("meta row %q without region info", r.name)
			}
		}
	})
}

// FuzzMultiCheck feeds MultiResponses for three Gets: never a panic, and a response that
// passes the check decodes to results of each Get's own row.
func FuzzMultiCheck(f *testing.F) {
	var calls []hrpc.Batchable
	var block []byte
	mr := &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{}}}
	for i, row := range []string{"a", "b", "c"} {
		g, _ := hrpc.NewGet("t", []byte(row))
		calls = append(calls, g)
		block = wire.AppendCell(block, &wire.Cell{Row: []byte(row), Family: []byte("f"), Type: wire.CellTypePut})
		mr.RegionActionResult[0].ResultOrException = append(mr.RegionActionResult[0].ResultOrException,
			&pb.ResultOrException{Index: proto.Uint32(uint32(i)), Result: &pb.Result{AssociatedCellCount: proto.Int32(1)}})
	}
	msg, _ := proto.Marshal(mr)
	f.Add(msg, block)
	f.Fuzz(func(t *testing.T, msg, block []byte) {
		var resp pb.MultiResponse
		if proto.Unmarshal(msg, &resp) != nil {
			return
		}
		if (multiCheck{calls: calls}).CheckResponse(&resp, block) != nil {
			return
		}
		rd := wire.NewCellReader(block)
		for _, rar := range resp.RegionActionResult {
			for _, roe := range rar.ResultOrException {
				res, err := hrpcwire.ParseResult(roe.GetResult(), rd)
				if err != nil {
					t.Fatalf("passed the check but does not decode: %v", err)
				}
				for _, c := range res.Cells {
					if want := wireOf(calls[roe.GetIndex()]).Key(); string(c.Row) != string(want) {
						t.Fatalf("action %d: cell of row %q, want %q", roe.GetIndex(), c.Row, want)
					}
				}
			}
		}
	})
}
