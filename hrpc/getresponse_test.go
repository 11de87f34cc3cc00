package hrpc

import (
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// mergeInto decodes a wire message as region does: merged into the message given.
func mergeInto(t *testing.T, wire []byte, resp proto.Message) {
	t.Helper()
	if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(wire, resp); err != nil {
		t.Fatal(err)
	}
}

// A recycled GetResponse decodes what it is given, with nothing left of the response it held
// before: flags, cells carried in the message, unknown fields.
func TestRecycledGetResponseHoldsOnlyTheLatest(t *testing.T) {
	get, _ := NewGet("t", []byte("row"))
	cells := testCells(2)
	first, err := proto.Marshal(&pb.GetResponse{Result: &pb.Result{
		AssociatedCellCount: ptr(int32(1)), Stale: ptr(true), Partial: ptr(true),
		Cell: []*pb.Cell{{Row: cells[1].Row, Family: cells[1].Family, Qualifier: cells[1].Qualifier, Value: cells[1].Value}}}})
	if err != nil {
		t.Fatal(err)
	}
	resp := getW(get).NewResponse()
	mergeInto(t, first, resp)
	res, err := get.decode(resp, encodeCells(cells[:1]))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 2 || !res.Stale || !res.Partial || string(res.Cells[1].Value) != string(cells[1].Value) {
		t.Fatalf("first result = %+v", res)
	}
	for _, next := range []*pb.GetResponse{{}, {Result: &pb.Result{}}, {Result: &pb.Result{AssociatedCellCount: ptr(int32(1))}}} {
		wire, err := proto.Marshal(next)
		if err != nil {
			t.Fatal(err)
		}
		var block []byte
		if next.GetResult().GetAssociatedCellCount() == 1 {
			block = encodeCells(cells[:1])
		}
		resp := getW(get).NewResponse()
		mergeInto(t, wire, resp)
		if err := getW(get).CheckResponse(resp, block); err != nil {
			t.Fatalf("CheckResponse(%v) = %v", next, err)
		}
		res, err := get.decode(resp, block)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stale || res.Partial || res.Exists != nil || len(res.Cells) != len(block)/max(len(block), 1) {
			t.Errorf("after a stale partial response, %v decodes as %+v", next, res)
		}
	}
	// The first result is the caller's: recycling its response changed nothing in it.
	if len(res.Cells) != 2 || string(res.Cells[1].Value) != string(cells[1].Value) || string(res.Cells[0].Value) != string(cells[0].Value) {
		t.Errorf("first result changed to %+v", res)
	}
	// Exists-only Gets get fresh messages: an absent result is the answer false.
	ex, _ := NewGet("t", []byte("row"), ExistsOnly())
	resp = getW(ex).NewResponse()
	mergeInto(t, nil, resp)
	if res, err := ex.decode(resp, nil); err != nil || res.Exists == nil || *res.Exists {
		t.Errorf("exists-only Get of an empty response = %+v, %v; want Exists false", res, err)
	}
}

// TestGetResponseDoesNotAllocate: decoding the GetResponse a region server sends (a Result with
// associated_cell_count and stale, the cell in the cellblock) into a recycled message allocates
// nothing, and decoding it into a Result allocates once.
func TestGetResponseDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates, and drops pooled items")
	}
	get, _ := NewGet("t", []byte("row"))
	wire, err := proto.Marshal(&pb.GetResponse{Result: &pb.Result{AssociatedCellCount: ptr(int32(1)), Stale: ptr(false)}})
	if err != nil {
		t.Fatal(err)
	}
	block := encodeCells(testCells(1))
	merge := proto.UnmarshalOptions{Merge: true}
	decode := testing.AllocsPerRun(200, func() {
		resp := getW(get).NewResponse()
		if err := merge.Unmarshal(wire, resp); err != nil {
			t.Fatal(err)
		}
		if err := getW(get).CheckResponse(resp, block); err != nil {
			t.Fatal(err)
		}
		if _, err := get.decode(resp, block); err != nil {
			t.Fatal(err)
		}
	})
	if decode > 1 {
		t.Errorf("decoding a one-cell GetResponse allocates %.1f times, want 1 (the Result with its cell)", decode)
	}
}
