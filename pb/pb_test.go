package pb_test

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/pb"
)

// The expected bytes below are written out by hand from the protobuf wire
// format (tag = field<<3 | wiretype) and HBase's field numbers, so a wrong
// field number, type or packing in our .proto files makes these tests fail.

func requireBytes(t *testing.T, want []byte, m proto.Message) {
	t.Helper()
	got, err := proto.Marshal(m)
	require.NoError(t, err)
	require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
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
	require.NoError(t, proto.Unmarshal(in, &h))
	require.Equal(t, uint32(7), h.GetCallId())
	require.Equal(t, "org.apache.hadoop.hbase.NotServingRegionException", h.GetException().GetExceptionClassName())
	require.Equal(t, "rs1", h.GetException().GetHostname())
	require.Equal(t, int32(16020), h.GetException().GetPort())
	require.NotNil(t, h.GetException().DoNotRetry, "an explicit false must stay distinguishable from unset")
	require.False(t, h.GetException().GetDoNotRetry())
	require.Equal(t, uint32(300), h.GetCellBlockMeta().GetLength())
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
	require.Equal(t, int32(0), int32(pb.MutationProto_DELETE_ONE_VERSION))
	require.Equal(t, int32(1), int32(pb.MutationProto_DELETE_MULTIPLE_VERSIONS))
	require.Equal(t, int32(2), int32(pb.MutationProto_DELETE_FAMILY))
	require.Equal(t, int32(3), int32(pb.MutationProto_DELETE_FAMILY_VERSION))
	require.Equal(t, int32(4), int32(pb.CellType_PUT))
	require.Equal(t, int32(14), int32(pb.CellType_DELETE_FAMILY))
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
	require.Equal(t, uint32(1), g.GetMaxVersions())
	require.True(t, g.GetCacheBlocks())
	require.Equal(t, pb.Consistency_STRONG, g.GetConsistency())
	require.True(t, (&pb.Scan{}).GetIncludeStartRow())
	require.Equal(t, int32(-1), (&pb.ClusterStatus{}).GetMasterInfoPort())
}

func TestTimestampsFilterIsPacked(t *testing.T) {
	f := &pb.TimestampsFilter{Timestamps: []int64{1, 300}}
	requireBytes(t, []byte{0x0a, 0x03, 0x01, 0xac, 0x02}, f)
}

func TestRequiredFieldsAreEnforced(t *testing.T) {
	// A RegionSpecifier without its value is a bug on our side: marshalling
	// must refuse it rather than send something the server rejects.
	_, err := proto.Marshal(&pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum()})
	require.Error(t, err)

	// A GetRequest with only a region (field 1) lacks the required get.
	_, err = proto.Marshal(&pb.GetRequest{Region: &pb.RegionSpecifier{
		Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("x"),
	}})
	require.Error(t, err)
	var r pb.GetRequest
	require.Error(t, proto.Unmarshal([]byte{0x0a, 0x05, 0x08, 0x01, 0x12, 0x01, 'x'}, &r))
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
	require.Positive(t, i)

	var got pb.MetaRegionServer
	require.NoError(t, proto.Unmarshal(znode[i+4:], &got))
	require.True(t, proto.Equal(m, &got))
	require.Equal(t, "rs1.example", got.GetServer().GetHostName())
	require.Equal(t, uint32(16020), got.GetServer().GetPort())
	require.Equal(t, pb.RegionState_OPEN, got.GetState())

	// Without state (older servers) the getter reports OFFLINE, the enum's
	// first value; only the nil pointer tells "unset" apart.
	var old pb.MetaRegionServer
	require.NoError(t, proto.Unmarshal(want[:2+0x12], &old))
	require.Nil(t, old.State)
	require.Equal(t, pb.RegionState_OFFLINE, old.GetState())
}

func TestMasterZnodeRoundTrip(t *testing.T) {
	m := &pb.Master{
		Master:   &pb.ServerName{HostName: proto.String("m"), Port: proto.Uint32(16000), StartCode: proto.Uint64(9)},
		InfoPort: proto.Uint32(16010),
	}
	b, err := proto.Marshal(m)
	require.NoError(t, err)
	var got pb.Master
	require.NoError(t, proto.Unmarshal(b, &got))
	require.True(t, proto.Equal(m, &got))
	require.Equal(t, uint32(16010), got.GetInfoPort())
}

func TestDroppedFieldsSurviveDecoding(t *testing.T) {
	// ServerLoad omits replication load (field 11); a server that sends it must
	// still decode, and the bytes are kept rather than lost.
	in := []byte{0x08, 0x07, 0x5a, 0x04, 0x08, 0x01, 0x10, 0x02}
	var l pb.ServerLoad
	require.NoError(t, proto.Unmarshal(in, &l))
	require.Equal(t, uint64(7), l.GetNumberOfRequests())
	out, err := proto.Marshal(&l)
	require.NoError(t, err)
	require.Equal(t, in, out)
}
