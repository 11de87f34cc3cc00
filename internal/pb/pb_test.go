package pb_test

import (
	"bytes"
	"encoding/hex"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// The expected bytes below are written out by hand from the protobuf wire
// format (tag = field<<3 | wiretype) and HBase's field numbers, so a wrong
// field number, type or packing in our .proto files makes these tests fail.

func requireBytes(t *testing.T, want []byte, m proto.Message) {
	t.Helper()
	got, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(got) != hex.EncodeToString(want) {
		t.Fatalf("hex.EncodeToString(got) = %q; want %q", hex.EncodeToString(got), hex.EncodeToString(want))
	}
}

func TestRequestHeaderBytes(t *testing.T) {
	h := &pb.RequestHeader{
		CallId:       proto.Uint32(1),
		MethodName:   proto.String("Get"),
		RequestParam: proto.Bool(true),
	}
	requireBytes(t, []byte{0x08, 0x01, 0x1a, 0x03, 'G', 'e', 't', 0x20, 0x01}, h)

	// cell_block_meta is field 5 (length-delimited), priority 6, timeout 7.
	h.CellBlockMeta = &pb.CellBlockMeta{Length: proto.Uint32(300)}
	h.Priority = proto.Uint32(200)
	h.Timeout = proto.Uint32(60000)
	requireBytes(t, []byte{
		0x08, 0x01,
		0x1a, 0x03, 'G', 'e', 't',
		0x20, 0x01,
		0x2a, 0x03, 0x08, 0xac, 0x02, // CellBlockMeta{length: 300}
		0x30, 0xc8, 0x01, // priority 200
		0x38, 0xe0, 0xd4, 0x03, // timeout 60000
	}, h)
}

func TestConnectionHeaderBytes(t *testing.T) {
	h := &pb.ConnectionHeader{
		UserInfo:                      &pb.UserInformation{EffectiveUser: proto.String("hbase")},
		ServiceName:                   proto.String("ClientService"),
		CellBlockCodecClass:           proto.String("org.apache.hadoop.hbase.codec.KeyValueCodec"),
		RpcCryptoCipherTransformation: proto.String("AES/CTR/NoPadding"),
	}
	var want []byte
	want = append(want, 0x0a, 0x07, 0x0a, 0x05)
	want = append(want, "hbase"...)
	want = append(want, 0x12, 0x0d)
	want = append(want, "ClientService"...)
	want = append(want, 0x1a, 0x2b)
	want = append(want, "org.apache.hadoop.hbase.codec.KeyValueCodec"...)
	want = append(want, 0x32, 0x11) // field 6, 17 bytes
	want = append(want, "AES/CTR/NoPadding"...)
	requireBytes(t, want, h)
}

func TestResponseHeaderDecode(t *testing.T) {
	var in []byte
	in = append(in, 0x08, 0x07) // call_id 7
	in = append(in, 0x12, 0x3d) // exception, 61 bytes
	in = append(in, 0x0a, 0x31)
	in = append(in, "org.apache.hadoop.hbase.NotServingRegionException"...)
	in = append(in, 0x1a, 0x03, 'r', 's', '1')
	in = append(in, 0x20, 0x94, 0x7d) // port 16020
	in = append(in, 0x28, 0x00)       // do_not_retry false, but present
	in = append(in, 0x1a, 0x03, 0x08, 0xac, 0x02)

	var h pb.ResponseHeader
	if err := proto.Unmarshal(in, &h); err != nil {
		t.Fatal(err)
	}
	if h.GetCallId() != uint32(7) {
		t.Fatalf("h.GetCallId() = %v; want %v", h.GetCallId(), uint32(7))
	}
	if h.GetException().GetExceptionClassName() != "org.apache.hadoop.hbase.NotServingRegionException" {
		t.Fatalf("h.GetException().GetExceptionClassName() = %q; want %q", h.GetException().GetExceptionClassName(), "org.apache.hadoop.hbase.NotServingRegionException")
	}
	if h.GetException().GetHostname() != "rs1" {
		t.Fatalf("h.GetException().GetHostname() = %q; want %q", h.GetException().GetHostname(), "rs1")
	}
	if h.GetException().GetPort() != int32(16020) {
		t.Fatalf("h.GetException().GetPort() = %v; want %v", h.GetException().GetPort(), int32(16020))
	}
	if h.GetException().DoNotRetry == nil {
		t.Fatal("an explicit false must stay distinguishable from unset: h.GetException().DoNotRetry is nil")
	}
	if h.GetException().GetDoNotRetry() {
		t.Fatal("h.GetException().GetDoNotRetry() is true")
	}
	if h.GetCellBlockMeta().GetLength() != uint32(300) {
		t.Fatalf("h.GetCellBlockMeta().GetLength() = %v; want %v", h.GetCellBlockMeta().GetLength(), uint32(300))
	}
}

func TestMutationProtoBytes(t *testing.T) {
	m := &pb.MutationProto{
		Row:        []byte("r"),
		MutateType: pb.MutationProto_PUT.Enum(),
		ColumnValue: []*pb.MutationProto_ColumnValue{{
			Family: []byte("f"),
			QualifierValue: []*pb.MutationProto_ColumnValue_QualifierValue{{
				Qualifier: []byte("q"),
				Value:     []byte("v"),
			}},
		}},
		Timestamp:  proto.Uint64(300),
		Durability: pb.MutationProto_SKIP_WAL.Enum(),
		Nonce:      proto.Uint64(1),
	}
	requireBytes(t, []byte{
		0x0a, 0x01, 'r',
		0x10, 0x02, // PUT = 2
		0x1a, 0x0b, // ColumnValue, 11 bytes
		0x0a, 0x01, 'f',
		0x12, 0x06, 0x0a, 0x01, 'q', 0x12, 0x01, 'v',
		0x20, 0xac, 0x02, // timestamp 300
		0x30, 0x01, // SKIP_WAL = 1
		0x48, 0x01, // nonce (field 9)
	}, m)

	// With a cellblock the cells leave the message; only the count stays.
	d := &pb.MutationProto{
		Row:                 []byte("r"),
		MutateType:          pb.MutationProto_DELETE.Enum(),
		AssociatedCellCount: proto.Int32(2),
	}
	requireBytes(t, []byte{0x0a, 0x01, 'r', 0x10, 0x03, 0x40, 0x02}, d)
}

func TestDeleteTypeValues(t *testing.T) {
	// hrpc maps cell key types onto these; HBase's numbering is not the
	// KeyValue type byte, so pin it.
	if int32(pb.MutationProto_DELETE_ONE_VERSION) != int32(0) {
		t.Fatalf("int32(pb.MutationProto_DELETE_ONE_VERSION) = %v; want %v", int32(pb.MutationProto_DELETE_ONE_VERSION), int32(0))
	}
	if int32(pb.MutationProto_DELETE_MULTIPLE_VERSIONS) != int32(1) {
		t.Fatalf("int32(pb.MutationProto_DELETE_MULTIPLE_VERSIONS) = %v; want %v", int32(pb.MutationProto_DELETE_MULTIPLE_VERSIONS), int32(1))
	}
	if int32(pb.MutationProto_DELETE_FAMILY) != int32(2) {
		t.Fatalf("int32(pb.MutationProto_DELETE_FAMILY) = %v; want %v", int32(pb.MutationProto_DELETE_FAMILY), int32(2))
	}
	if int32(pb.MutationProto_DELETE_FAMILY_VERSION) != int32(3) {
		t.Fatalf("int32(pb.MutationProto_DELETE_FAMILY_VERSION) = %v; want %v", int32(pb.MutationProto_DELETE_FAMILY_VERSION), int32(3))
	}
	if int32(pb.CellType_PUT) != int32(4) {
		t.Fatalf("int32(pb.CellType_PUT) = %v; want %v", int32(pb.CellType_PUT), int32(4))
	}
	if int32(pb.CellType_DELETE_FAMILY) != int32(14) {
		t.Fatalf("int32(pb.CellType_DELETE_FAMILY) = %v; want %v", int32(pb.CellType_DELETE_FAMILY), int32(14))
	}
}

func TestScanRequestBytes(t *testing.T) {
	open := &pb.ScanRequest{
		Region: &pb.RegionSpecifier{
			Type:  pb.RegionSpecifier_REGION_NAME.Enum(),
			Value: []byte("t,,1"),
		},
		Scan: &pb.Scan{
			StartRow: []byte("a"),
			StopRow:  []byte("b"),
			Caching:  proto.Uint32(10),
		},
		NumberOfRows:            proto.Uint32(5),
		ClientHandlesPartials:   proto.Bool(true),
		ClientHandlesHeartbeats: proto.Bool(true),
	}
	requireBytes(t, []byte{
		0x0a, 0x08, 0x08, 0x01, 0x12, 0x04, 't', ',', ',', '1',
		0x12, 0x09,
		0x1a, 0x01, 'a',
		0x22, 0x01, 'b',
		0x88, 0x01, 0x0a, // caching is field 17: two-byte tag
		0x20, 0x05,
		0x38, 0x01,
		0x40, 0x01,
	}, open)

	next := &pb.ScanRequest{
		ScannerId:    proto.Uint64(42),
		NumberOfRows: proto.Uint32(5),
		CloseScanner: proto.Bool(false),
		NextCallSeq:  proto.Uint64(1),
	}
	// proto2: an explicitly set false is sent (28 00), unlike proto3.
	requireBytes(t, []byte{0x18, 0x2a, 0x20, 0x05, 0x28, 0x00, 0x30, 0x01}, next)
}

func TestGetDefaultsAreNotSent(t *testing.T) {
	g := &pb.Get{Row: []byte("r")}
	requireBytes(t, []byte{0x0a, 0x01, 'r'}, g)
	// The getters report HBase's defaults for unset fields.
	if g.GetMaxVersions() != uint32(1) {
		t.Fatalf("g.GetMaxVersions() = %v; want %v", g.GetMaxVersions(), uint32(1))
	}
	if !g.GetCacheBlocks() {
		t.Fatal("g.GetCacheBlocks() is false")
	}
	if g.GetConsistency() != pb.Consistency_STRONG {
		t.Fatalf("g.GetConsistency() = %v; want %v", g.GetConsistency(), pb.Consistency_STRONG)
	}
	if !(&pb.Scan{}).GetIncludeStartRow() {
		t.Fatal("(&pb.Scan{}).GetIncludeStartRow() is false")
	}
	if (&pb.ClusterStatus{}).GetMasterInfoPort() != int32(-1) {
		t.Fatalf("(&pb.ClusterStatus{}).GetMasterInfoPort() = %v; want %v", (&pb.ClusterStatus{}).GetMasterInfoPort(), int32(-1))
	}
}

func TestTimestampsFilterIsPacked(t *testing.T) {
	f := &pb.TimestampsFilter{Timestamps: []int64{1, 300}}
	requireBytes(t, []byte{0x0a, 0x03, 0x01, 0xac, 0x02}, f)
}

func TestRequiredFieldsAreEnforced(t *testing.T) {
	// A RegionSpecifier without its value is a bug on our side: marshalling
	// must refuse it rather than send something the server rejects.
	_, err := proto.Marshal(&pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum()})
	if err == nil {
		t.Fatal("err is nil; want an error")
	}

	// A GetRequest with only a region (field 1) lacks the required get.
	_, err = proto.Marshal(&pb.GetRequest{Region: &pb.RegionSpecifier{
		Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("x"),
	}})
	if err == nil {
		t.Fatal("err is nil; want an error")
	}
	var r pb.GetRequest
	if err := (proto.Unmarshal([]byte{0x0a, 0x05, 0x08, 0x01, 0x12, 0x01, 'x'}, &r)); err == nil {
		t.Fatal("proto.Unmarshal([]byte{0x0a, 0x05, 0x08, 0x01, 0x12, 0x01, 'x'}, &r) returned no error")
	}
}

func TestMetaRegionServerRoundTrip(t *testing.T) {
	m := &pb.MetaRegionServer{
		Server: &pb.ServerName{
			HostName:  proto.String("rs1.example"),
			Port:      proto.Uint32(16020),
			StartCode: proto.Uint64(5),
		},
		RpcVersion: proto.Uint32(0),
		State:      pb.RegionState_OPEN.Enum(),
	}
	var want []byte
	want = append(want, 0x0a, 0x12, 0x0a, 0x0b)
	want = append(want, "rs1.example"...)
	want = append(want, 0x10, 0x94, 0x7d, 0x18, 0x05)
	want = append(want, 0x10, 0x00, 0x18, 0x03)
	requireBytes(t, want, m)

	// What HBase stores in /hbase/meta-region-server: 0xff, a big-endian
	// id length, the id, "PBUF", then the message.
	znode := append([]byte{0xff, 0, 0, 0, 3, 'i', 'd', '1'}, "PBUF"...)
	znode = append(znode, want...)
	i := bytes.Index(znode, []byte("PBUF"))
	if i <= 0 {
		t.Fatalf("i = %v; want it positive", i)
	}

	var got pb.MetaRegionServer
	if err := proto.Unmarshal(znode[i+4:], &got); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(m, &got) {
		t.Fatal("proto.Equal(m, &got) is false")
	}
	if got.GetServer().GetHostName() != "rs1.example" {
		t.Fatalf("got.GetServer().GetHostName() = %q; want %q", got.GetServer().GetHostName(), "rs1.example")
	}
	if got.GetServer().GetPort() != uint32(16020) {
		t.Fatalf("got.GetServer().GetPort() = %v; want %v", got.GetServer().GetPort(), uint32(16020))
	}
	if got.GetState() != pb.RegionState_OPEN {
		t.Fatalf("got.GetState() = %v; want %v", got.GetState(), pb.RegionState_OPEN)
	}

	// Without state (older servers) the getter reports OFFLINE, the enum's
	// first value; only the nil pointer tells "unset" apart.
	var old pb.MetaRegionServer
	if err := proto.Unmarshal(want[:2+0x12], &old); err != nil {
		t.Fatal(err)
	}
	if old.State != nil {
		t.Fatalf("old.State = %v; want nil", old.State)
	}
	if old.GetState() != pb.RegionState_OFFLINE {
		t.Fatalf("old.GetState() = %v; want %v", old.GetState(), pb.RegionState_OFFLINE)
	}
}

func TestMasterZnodeRoundTrip(t *testing.T) {
	m := &pb.Master{
		Master:   &pb.ServerName{HostName: proto.String("m"), Port: proto.Uint32(16000), StartCode: proto.Uint64(9)},
		InfoPort: proto.Uint32(16010),
	}
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var got pb.Master
	if err := proto.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(m, &got) {
		t.Fatal("proto.Equal(m, &got) is false")
	}
	if got.GetInfoPort() != uint32(16010) {
		t.Fatalf("got.GetInfoPort() = %v; want %v", got.GetInfoPort(), uint32(16010))
	}
}

func TestDroppedFieldsSurviveDecoding(t *testing.T) {
	// ServerLoad omits replication load (field 11); a server that sends it must
	// still decode, and the bytes are kept rather than lost.
	in := []byte{0x08, 0x07, 0x5a, 0x04, 0x08, 0x01, 0x10, 0x02}
	var l pb.ServerLoad
	if err := proto.Unmarshal(in, &l); err != nil {
		t.Fatal(err)
	}
	if l.GetNumberOfRequests() != uint64(7) {
		t.Fatalf("l.GetNumberOfRequests() = %v; want %v", l.GetNumberOfRequests(), uint64(7))
	}
	out, err := proto.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) {
		t.Fatalf("out = %q; want %q", out, in)
	}
}
