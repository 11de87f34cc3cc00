package pb_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// These give the region and hrpc code a baseline for the generated code on the
// hot path: header + request marshalled into one reused buffer, and a scan
// response decoded.

func BenchmarkMarshalAppendHeaderAndGet(b *testing.B) {
	hdr := &pb.RequestHeader{
		CallId:       proto.Uint32(1),
		MethodName:   proto.String("Get"),
		RequestParam: proto.Bool(true),
	}
	req := &pb.GetRequest{
		Region: &pb.RegionSpecifier{
			Type:  pb.RegionSpecifier_REGION_NAME.Enum(),
			Value: []byte("usertable,user4000,1700000000000.0123456789abcdef0123456789abcdef."),
		},
		Get: &pb.Get{Row: []byte("user4711"), Column: []*pb.Column{{Family: []byte("cf")}}},
	}
	opts := proto.MarshalOptions{}
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = opts.MarshalAppend(buf[:0], hdr)
		if err != nil {
			b.Fatal(err)
		}
		buf, err = opts.MarshalAppend(buf, req)
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalAppendMutateRequest(b *testing.B) {
	req := &pb.MutateRequest{
		Region: &pb.RegionSpecifier{
			Type:  pb.RegionSpecifier_REGION_NAME.Enum(),
			Value: []byte("usertable,user4000,1700000000000.0123456789abcdef0123456789abcdef."),
		},
		Mutation: &pb.MutationProto{
			Row:                 []byte("user4711"),
			MutateType:          pb.MutationProto_PUT.Enum(),
			AssociatedCellCount: proto.Int32(10),
		},
	}
	opts := proto.MarshalOptions{}
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = opts.MarshalAppend(buf[:0], req)
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalScanResponse(b *testing.B) {
	resp := &pb.ScanResponse{
		CellsPerResult:       make([]uint32, 100),
		ScannerId:            proto.Uint64(123456789),
		MoreResults:          proto.Bool(true),
		MoreResultsInRegion:  proto.Bool(true),
		PartialFlagPerResult: make([]bool, 100),
		MvccReadPoint:        proto.Uint64(42),
	}
	for i := range resp.CellsPerResult {
		resp.CellsPerResult[i] = 10
	}
	in, err := proto.Marshal(resp)
	if err != nil {
		b.Fatal(err)
	}
	var out pb.ScanResponse
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		proto.Reset(&out)
		if err := proto.Unmarshal(in, &out); err != nil {
			b.Fatal(err)
		}
	}
}
