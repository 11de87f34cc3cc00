package hrpc

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// FuzzMutateResponses feeds MutateResponses and MultiResponses to what reads them after an
// Increment, a CheckAndMutate and a CheckAndMutate of RowMutations (the conditional Multi):
// never a panic, and a response that passes its check decodes to cells of the request's row.
func FuzzMutateResponses(f *testing.F) {
	row := []byte("r")
	block := appendCell(nil, &Cell{Row: row, Family: []byte("f"), Qualifier: []byte("n"), Type: CellTypePut,
		Value: []byte{0, 0, 0, 0, 0, 0, 0, 1}})
	msg, _ := proto.Marshal(&pb.MutateResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1)}, Processed: proto.Bool(true)})
	f.Add(msg, block)
	msg, _ = proto.Marshal(&pb.MutateResponse{Processed: proto.Bool(false)})
	f.Add(msg, []byte(nil))
	msg, _ = proto.Marshal(&pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{
		ResultOrException: []*pb.ResultOrException{{Index: proto.Uint32(0), Result: &pb.Result{AssociatedCellCount: proto.Int32(1)}}}}}})
	f.Add(msg, block)
	msg, _ = proto.Marshal(&pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{
		Exception: &pb.NameBytesPair{Name: proto.String("org.apache.hadoop.hbase.NotServingRegionException"), Value: []byte("x")}}}})
	f.Add(msg, []byte(nil))

	inc, _ := NewIncrement("t", row, Amount([]byte("f"), []byte("n"), 1))
	put, _ := NewPut("t", row, Value([]byte("f"), []byte("q"), []byte("v")))
	cam, _ := NewCheckAndMutate(IfNotExists([]byte("f"), []byte("q")), put)
	rm, _ := NewRowMutations([]Mutation{put})
	camRows, _ := NewCheckAndMutateRow(IfNotExists([]byte("f"), []byte("q")), rm)
	rowOnly := func(t *testing.T, what string, res *Result) {
		if res == nil {
			return
		}
		for _, c := range res.Cells {
			if !bytes.Equal(c.Row, row) {
				t.Fatalf("%s: passed the check but holds a cell of row %q", what, c.Row)
			}
		}
	}
	f.Fuzz(func(t *testing.T, msg, block []byte) {
		var mr pb.MutateResponse
		if proto.Unmarshal(msg, &mr) == nil {
			if mutW(inc).CheckResponse(&mr, block) == nil {
				res, err := inc.decode(&mr, block)
				if err != nil {
					t.Fatalf("Increment: passed the check but does not decode: %v", err)
				}
				rowOnly(t, "Increment", res)
			}
			if camW(cam).CheckResponse(&mr, block) == nil {
				_, res, _ := cam.decode(&mr, block)
				rowOnly(t, "CheckAndMutate", res)
			}
		}
		var multi pb.MultiResponse
		if proto.Unmarshal(msg, &multi) == nil && camW(camRows).CheckResponse(&multi, block) == nil {
			_, res, _ := camRows.decode(&multi, block)
			rowOnly(t, "CheckAndMutate of RowMutations", res)
			for _, rar := range multi.GetRegionActionResult() {
				if ex := rar.GetException(); ex != nil {
					if e := wire.ActionException(ex); e.Error() == "" {
						t.Fatal("empty action exception text")
					}
				}
			}
		}
	})
}
