package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// multiResponseSeeds are MultiResponses with every field the fast path decodes, and some it
// leaves to proto.Unmarshal.
func multiResponseSeeds(t testing.TB) [][]byte {
	exc := &pb.NameBytesPair{Name: proto.String("org.apache.hadoop.hbase.NotServingRegionException"), Value: []byte("x")}
	msgs := []*pb.MultiResponse{
		{},
		{RegionActionResult: []*pb.RegionActionResult{{}}},
		{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{
			{Index: proto.Uint32(0), Result: &pb.Result{}},
			{Index: proto.Uint32(7), Result: &pb.Result{AssociatedCellCount: proto.Int32(2), Stale: proto.Bool(false)}},
			{Index: proto.Uint32(1), Exception: exc},
			{Result: &pb.Result{Exists: proto.Bool(true)}},
			{Index: proto.Uint32(3), Result: &pb.Result{Cell: []*pb.Cell{{Row: []byte("r\x00,")}}}},
		}}, {Exception: exc}, {Processed: proto.Bool(true)}},
			Processed: proto.Bool(false)},
		{RegionStatistics: &pb.MultiRegionLoadStats{}},
		{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{
			{Index: proto.Uint32(0), Result: &pb.Result{AssociatedCellCount: proto.Int32(0)}},
			{Index: proto.Uint32(1), Result: &pb.Result{AssociatedCellCount: proto.Int32(-1), Stale: proto.Bool(true), Partial: proto.Bool(true)}},
			{Index: proto.Uint32(2), Result: &pb.Result{Exists: proto.Bool(false), Stale: proto.Bool(false)}},
		}}}},
		{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{
			{Index: proto.Uint32(0), LoadStats: &pb.RegionLoadStats{}},
			{Index: proto.Uint32(1), ServiceResult: &pb.CoprocessorServiceResult{}},
		}}}},
	}
	var seeds [][]byte
	for _, m := range msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	// Fields seen twice (proto merges them), an unknown field, a wrong wire type, a
	// truncation, a NameBytesPair without its required name.
	seeds = append(seeds,
		[]byte{0x0a, 0x08, 0x0a, 0x06, 0x08, 0x01, 0x12, 0x00, 0x12, 0x00},
		[]byte{0x0a, 0x04, 0x0a, 0x02, 0x08, 0x01, 0x0a, 0x04, 0x0a, 0x02, 0x28, 0x01},
		[]byte{0x0a, 0x02, 0x08, 0x01},
		[]byte{0x0a, 0x05, 0x0a, 0x03, 0x08},
		[]byte{0x0a, 0x04, 0x12, 0x02, 0x12, 0x00},
		[]byte{0x0a, 0x06, 0x12, 0x02, 0x0a, 0x00, 0x12, 0x00},
		[]byte{0x10, 0x02, 0x10, 0x00},
		// A Result's associated_cell_count of 2^32+1 (int32 truncates), then as a wrong type.
		[]byte{0x0a, 0x0b, 0x0a, 0x09, 0x12, 0x07, 0x10, 0x81, 0x80, 0x80, 0x80, 0x10, 0x20},
		[]byte{0x0a, 0x06, 0x0a, 0x04, 0x12, 0x02, 0x15, 0x00},
	)
	return seeds
}

// checkDecodeMultiResponse: DecodeMultiResponse fails where proto.Unmarshal fails, and
// otherwise gives the same message; so does d, a decoder that has decoded other responses
// before (and that one, decoded again in d's blocks after this one, is still its own).
func checkDecodeMultiResponse(t *testing.T, d *MultiDecoder, b, other []byte) {
	var got, want pb.MultiResponse
	errGot := DecodeMultiResponse(b, &got)
	errWant := proto.Unmarshal(b, &want)
	if (errGot == nil) != (errWant == nil) {
		t.Fatalf("% x: DecodeMultiResponse: %v, proto.Unmarshal: %v", b, errGot, errWant)
	}
	if errGot == nil && !proto.Equal(&got, &want) {
		t.Fatalf("% x: DecodeMultiResponse gives %v, proto.Unmarshal %v", b, &got, &want)
	}
	var reused, second, secondWant pb.MultiResponse
	errReused := d.Decode(b, &reused)
	errSecond := d.Decode(other, &second)
	errSecondWant := proto.Unmarshal(other, &secondWant)
	if (errReused == nil) != (errWant == nil) || (errSecond == nil) != (errSecondWant == nil) {
		t.Fatalf("% x then % x: MultiDecoder: %v, %v; proto.Unmarshal: %v, %v", b, other, errReused, errSecond, errWant, errSecondWant)
	}
	if errReused == nil && !proto.Equal(&reused, &want) {
		t.Fatalf("% x: MultiDecoder gives %v, proto.Unmarshal %v", b, &reused, &want)
	}
	if errSecond == nil && !proto.Equal(&second, &secondWant) {
		t.Fatalf("% x after % x: MultiDecoder gives %v, proto.Unmarshal %v", other, b, &second, &secondWant)
	}
	d.Release()
}

func TestDecodeMultiResponse(t *testing.T) {
	seeds := multiResponseSeeds(t)
	var d MultiDecoder
	for i, b := range seeds {
		checkDecodeMultiResponse(t, &d, b, seeds[(i+3)%len(seeds)])
	}
}

// TestMultiDecoderRelease: Release clears what the responses decoded point to in the blocks,
// and the next response reuses them.
func TestMultiDecoderRelease(t *testing.T) {
	rar := &pb.RegionActionResult{}
	for i := range 100 {
		rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(uint32(i)),
			Result: &pb.Result{AssociatedCellCount: proto.Int32(1)}})
	}
	b, err := proto.Marshal(&pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar, rar}})
	if err != nil {
		t.Fatal(err)
	}
	var d MultiDecoder
	var first pb.MultiResponse
	if err := d.Decode(b, &first); err != nil {
		t.Fatal(err)
	}
	roe := first.RegionActionResult[1].ResultOrException[99]
	if roe.GetIndex() != 99 || roe.GetResult().GetAssociatedCellCount() != 1 {
		t.Fatalf("decoded %v", roe)
	}
	d.Release()
	if roe.Index != nil || roe.Result != nil {
		t.Fatalf("after Release, a result still points to %v", roe)
	}
	allocs := testing.AllocsPerRun(20, func() {
		var m pb.MultiResponse
		if err := d.Decode(b, &m); err != nil || len(m.RegionActionResult[1].ResultOrException) != 100 {
			t.Fatal(err)
		}
		d.Release()
	})
	if allocs > 6 { // the message, its RegionActionResults and their slice: none per result
		t.Errorf("%v allocations with the blocks reused, want at most 6", allocs)
	}
}

func FuzzDecodeMultiResponse(f *testing.F) {
	seeds := multiResponseSeeds(f)
	for _, b := range seeds {
		f.Add(b)
	}
	var d MultiDecoder // the fuzz function runs one input at a time in a process
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecodeMultiResponse(t, &d, b, seeds[len(b)%len(seeds)])
	})
}

// TestDecodeMultiResponseAllocations: the response of a batch of 1000 Puts decodes in a few
// allocations, not three per action.
func TestDecodeMultiResponseAllocations(t *testing.T) {
	rar := &pb.RegionActionResult{}
	for i := range 1000 {
		r := &pb.Result{}
		if i%2 == 1 {
			r.AssociatedCellCount = proto.Int32(0) // as HBase's ProtobufUtil.EMPTY_RESULT_PB
		}
		rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(uint32(i)), Result: r})
	}
	b, err := proto.Marshal(&pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar}})
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		var m pb.MultiResponse
		if err := DecodeMultiResponse(b, &m); err != nil || len(m.RegionActionResult[0].ResultOrException) != 1000 {
			t.Fatal(err)
		}
	})
	if allocs > 6 {
		t.Errorf("%v allocations, want at most 6", allocs)
	}
}
