package hrpc

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

func testCells(n int) []Cell {
	cells := make([]Cell, n)
	for i := range cells {
		cells[i] = Cell{Row: []byte("row"), Family: []byte("f"), Qualifier: []byte(fmt.Sprintf("q%03d", i)),
			Timestamp: uint64(1000 + i), Type: CellTypePut, Value: []byte(fmt.Sprintf("value-%d", i))}
	}
	return cells
}

func encodeCells(cells []Cell) []byte {
	var b []byte
	for i := range cells {
		b = appendCell(b, &cells[i])
	}
	return b
}

func TestParseResultRoundTrip(t *testing.T) {
	cells := testCells(5)
	block := encodeCells(cells[:3])
	pbCells := []*pb.Cell{}
	for _, c := range cells[3:] {
		pbCells = append(pbCells, &pb.Cell{Row: c.Row, Family: c.Family, Qualifier: c.Qualifier,
			Timestamp: ptr(c.Timestamp), CellType: pb.CellType(c.Type).Enum(), Value: c.Value})
	}
	r := &pb.Result{AssociatedCellCount: ptr(int32(3)), Cell: pbCells, Stale: ptr(true), Partial: ptr(true)}
	res, err := parseResult(r, wire.NewCellReader(block))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 5 || !res.Stale || !res.Partial || res.Exists != nil {
		t.Fatalf("result %+v", res)
	}
	for i := range cells {
		if !cellEqual(res.Cells[i], cells[i]) {
			t.Fatalf("cell %d = %+v, want %+v", i, res.Cells[i], cells[i])
		}
	}
}

func TestParseResultShared(t *testing.T) {
	// Two results sharing one cellblock, as in a MultiResponse.
	cells := testCells(4)
	reader := wire.NewCellReader(encodeCells(cells))
	a, err := parseResult(&pb.Result{AssociatedCellCount: ptr(int32(1))}, reader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseResult(&pb.Result{AssociatedCellCount: ptr(int32(3))}, reader)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) != 1 || len(b.Cells) != 3 || !cellEqual(b.Cells[0], cells[1]) || reader.Remaining() != 0 {
		t.Fatalf("a %d cells, b %d cells", len(a.Cells), len(b.Cells))
	}
}

func TestParseResultExistsAndEmpty(t *testing.T) {
	res, err := parseResult(&pb.Result{Exists: ptr(true)}, nil)
	if err != nil || res.Exists == nil || !*res.Exists {
		t.Fatalf("%+v %v", res, err)
	}
	res, err = parseResult(&pb.Result{}, nil)
	if err != nil || len(res.Cells) != 0 || res.Exists != nil {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := parseResult(&pb.Result{Exists: ptr(true), AssociatedCellCount: ptr(int32(1))}, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("exists with cells: %v", err)
	}
	if _, err := parseResult(&pb.Result{AssociatedCellCount: ptr(int32(2))}, wire.NewCellReader(encodeCells(testCells(1)))); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("missing cells: %v", err)
	}
	if _, err := parseResult(&pb.Result{AssociatedCellCount: ptr(int32(-1))}, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("negative count: %v", err)
	}
	block := encodeCells(testCells(1))
	block[5] = 0xff // key length beyond the cell, but enough bytes to pass the size check
	if _, err := parseResult(&pb.Result{AssociatedCellCount: ptr(int32(1))}, wire.NewCellReader(block)); !errors.Is(err, wire.ErrCorruptCellBlock) {
		t.Fatalf("corrupt cell: %v", err)
	}
}

func TestDecodeGetAndMutation(t *testing.T) {
	get, _ := NewGet("t", []byte("row"))
	cells := testCells(2)
	res, err := get.decode(&pb.GetResponse{Result: &pb.Result{AssociatedCellCount: ptr(int32(2))}}, encodeCells(cells))
	if err != nil || len(res.Cells) != 2 || !cellEqual(res.Cells[1], cells[1]) {
		t.Fatalf("%+v %v", res, err)
	}
	res, err = get.decode(&pb.GetResponse{}, nil)
	if err != nil || res == nil || len(res.Cells) != 0 {
		t.Fatalf("missing row: %+v %v", res, err)
	}
	ex, _ := NewGet("t", []byte("row"), ExistsOnly())
	res, err = ex.decode(&pb.GetResponse{Result: &pb.Result{Exists: ptr(false)}}, nil)
	if err != nil || res.Exists == nil || *res.Exists {
		t.Fatalf("exists: %+v %v", res, err)
	}
	if _, err := get.decode(&pb.MutateResponse{}, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("wrong type: %v", err)
	}
	inc, _ := NewIncrement("t", []byte("row"), Amount([]byte("f"), []byte("q000"), 1))
	res, err = inc.decode(&pb.MutateResponse{Result: &pb.Result{AssociatedCellCount: ptr(int32(1))}}, encodeCells(cells[:1]))
	if err != nil || len(res.Cells) != 1 {
		t.Fatalf("increment: %+v %v", res, err)
	}
	if _, err := inc.decode(&pb.GetResponse{}, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("wrong type: %v", err)
	}
}

func TestParseScanResponse(t *testing.T) {
	cells := testCells(6)
	resp := &pb.ScanResponse{
		CellsPerResult:       []uint32{2, 0, 4},
		PartialFlagPerResult: []bool{false, false, true},
		Stale:                ptr(true),
	}
	results, err := appendScanResults(nil, resp, encodeCells(cells))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 || len(results[0].Cells) != 2 || len(results[1].Cells) != 0 || len(results[2].Cells) != 4 {
		t.Fatalf("results %+v", results)
	}
	if results[0].Partial || !results[2].Partial || !results[1].Stale {
		t.Fatal("flags")
	}
	if !cellEqual(results[2].Cells[3], cells[5]) {
		t.Fatal("last cell")
	}
	// Appending to one result's cells must not overwrite the next result's.
	_ = append(results[0].Cells, Cell{})
	if !cellEqual(results[2].Cells[0], cells[2]) {
		t.Fatal("results share capacity")
	}

	// Without cellblock support the results carry their cells.
	pr := &pb.Result{Cell: []*pb.Cell{{Row: []byte("r"), Family: []byte("f"), Value: []byte("v")}}}
	results, err = appendScanResults(nil, &pb.ScanResponse{Results: []*pb.Result{pr, {}}}, nil)
	if err != nil || len(results) != 2 || string(results[0].Cells[0].Value) != "v" {
		t.Fatalf("%+v %v", results, err)
	}

	bad := []*pb.ScanResponse{
		{CellsPerResult: []uint32{7}},
		{CellsPerResult: []uint32{1}, PartialFlagPerResult: []bool{true, false}},
		{CellsPerResult: []uint32{1 << 31, 1 << 31}},
	}
	for i, b := range bad {
		if _, err := appendScanResults(nil, b, encodeCells(cells)); !errors.Is(err, wire.ErrBadResponse) {
			t.Errorf("bad response %d: %v", i, err)
		}
	}
	if _, err := appendScanResults(nil, &pb.ScanResponse{CellsPerResult: []uint32{5}}, encodeCells(cells)); !errors.Is(err, wire.ErrBadResponse) {
		t.Errorf("left-over cells: %v", err)
	}
	if _, err := appendScanResults(nil, nil, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Error("nil response")
	}
}
