package zk

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// withMetadata frames payload the way RecoverableZooKeeper does: 0xFF, be32 id length, id.
func withMetadata(id string, payload []byte) []byte {
	b := []byte{metaMagic, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(id)))
	b = append(b, id...)
	return append(b, payload...)
}

func pbufOf(t testing.TB, m proto.Message) []byte {
	b, err := proto.MarshalOptions{AllowPartial: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(pbMagic), b...)
}

func serverName(host string, port uint32) *pb.ServerName {
	return &pb.ServerName{HostName: proto.String(host), Port: proto.Uint32(port), StartCode: proto.Uint64(1732248000000)}
}

// hbaseID is the shape of the id HBase writes: "<pid>@<host>" plus an 8-byte salt.
const hbaseID = "12345@localhost\x01\x02\x03\x04\x05\x06\x07\x08"

func TestParseMetaRegionServer(t *testing.T) {
	meta := func(sn *pb.ServerName, state *pb.RegionState_State) []byte {
		return pbufOf(t, &pb.MetaRegionServer{Server: sn, RpcVersion: proto.Uint32(0), State: state})
	}
	opening := pb.RegionState_OPENING
	open := pb.RegionState_OPEN
	for _, tc := range []struct {
		name      string
		data      []byte
		wantAddr  string
		wantState pb.RegionState_State
		wantErr   bool
	}{
		{name: "HBase framing", data: withMetadata(hbaseID, meta(serverName("localhost", 16020), &open)), wantAddr: "localhost:16020", wantState: open},
		{name: "no state means open", data: withMetadata(hbaseID, meta(serverName("rs1.example.com", 1), nil)), wantAddr: "rs1.example.com:1", wantState: open},
		{name: "in transition", data: withMetadata(hbaseID, meta(serverName("localhost", 16020), &opening)), wantAddr: "localhost:16020", wantState: opening},
		{name: "without metadata header", data: meta(serverName("localhost", 16020), nil), wantAddr: "localhost:16020", wantState: open},
		{name: "empty id", data: withMetadata("", meta(serverName("localhost", 16020), nil)), wantAddr: "localhost:16020", wantState: open},
		{name: "IPv6 host", data: withMetadata(hbaseID, meta(serverName("::1", 16020), nil)), wantAddr: "[::1]:16020", wantState: open},
		{name: "empty", data: nil, wantErr: true},
		{name: "magic only", data: []byte{metaMagic}, wantErr: true},
		{name: "truncated id length", data: []byte{metaMagic, 0, 0}, wantErr: true},
		{name: "id longer than data", data: withMetadata(hbaseID, nil)[:10], wantErr: true},
		{name: "id length negative as int32", data: append([]byte{metaMagic, 0xFF, 0xFF, 0xFF, 0xFE}, "PBUF"...), wantErr: true},
		{name: "no PBUF magic", data: withMetadata(hbaseID, []byte("localhost,16020,1732248000000")), wantErr: true},
		{name: "PBUF and nothing", data: withMetadata(hbaseID, []byte(pbMagic)), wantErr: true},
		{name: "garbage protobuf", data: withMetadata(hbaseID, append([]byte(pbMagic), 0x0a, 0x7f, 0x01)), wantErr: true},
		{name: "no host", data: withMetadata(hbaseID, meta(&pb.ServerName{HostName: proto.String(""), Port: proto.Uint32(16020)}, nil)), wantErr: true},
		{name: "no port", data: withMetadata(hbaseID, meta(&pb.ServerName{HostName: proto.String("localhost")}, nil)), wantErr: true},
		{name: "port out of range", data: withMetadata(hbaseID, meta(serverName("localhost", 70000), nil)), wantErr: true},
		{name: "Master message, not MetaRegionServer", data: withMetadata(hbaseID, pbufOf(t, &pb.Master{Master: serverName("localhost", 16000)})), wantAddr: "localhost:16000", wantState: open},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc, err := parseMetaRegionServer(tc.data)
			if tc.wantErr {
				if !errors.Is(err, ErrBadZNode) {
					t.Fatalf("parseMetaRegionServer = %+v, %v; want an ErrBadZNode error", loc, err)
				}
				return
			}
			if err != nil || loc.addr != tc.wantAddr || loc.state != tc.wantState {
				t.Fatalf("parseMetaRegionServer = %+v, %v; want %s %v", loc, err, tc.wantAddr, tc.wantState)
			}
		})
	}
}

func TestParseMaster(t *testing.T) {
	for _, tc := range []struct {
		name    string
		data    []byte
		want    string
		wantErr bool
	}{
		{name: "HBase framing", data: withMetadata(hbaseID, pbufOf(t, &pb.Master{Master: serverName("localhost", 16000), RpcVersion: proto.Uint32(0), InfoPort: proto.Uint32(16010)})), want: "localhost:16000"},
		{name: "without metadata header", data: pbufOf(t, &pb.Master{Master: serverName("m.example.com", 60000)}), want: "m.example.com:60000"},
		{name: "required master missing", data: withMetadata(hbaseID, pbufOf(t, &pb.Master{InfoPort: proto.Uint32(16010)})), wantErr: true},
		{name: "empty", data: []byte{}, wantErr: true},
		{name: "old host:port form", data: []byte("localhost:16000"), wantErr: true},
		{name: "truncated protobuf", data: withMetadata(hbaseID, pbufOf(t, &pb.Master{Master: serverName("localhost", 16000)})[:12]), wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseMaster(tc.data)
			if tc.wantErr {
				if !errors.Is(err, ErrBadZNode) {
					t.Fatalf("parseMaster = %q, %v; want an ErrBadZNode error", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("parseMaster = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// FuzzParseZNode checks that no input makes the parsers panic, and that whatever they accept
// is a usable address. Seeds live in testdata/fuzz/FuzzParseZNode.
func FuzzParseZNode(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if loc, err := parseMetaRegionServer(data); err == nil && loc.addr == "" {
			t.Fatalf("parseMetaRegionServer accepted %x with an empty address", data)
		} else if err != nil && !errors.Is(err, ErrBadZNode) {
			t.Fatalf("parseMetaRegionServer error %v is not ErrBadZNode", err)
		}
		if addr, err := parseMaster(data); err == nil && addr == "" {
			t.Fatalf("parseMaster accepted %x with an empty address", data)
		} else if err != nil && !errors.Is(err, ErrBadZNode) {
			t.Fatalf("parseMaster error %v is not ErrBadZNode", err)
		}
	})
}

// TestWriteFuzzSeeds regenerates the committed seed corpus when ZK_WRITE_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("ZK_WRITE_SEEDS") != "1" {
		t.Skip("set ZK_WRITE_SEEDS=1 to rewrite testdata/fuzz/FuzzParseZNode")
	}
	open := pb.RegionState_OPEN
	seeds := map[string][]byte{
		"meta":           withMetadata(hbaseID, pbufOf(t, &pb.MetaRegionServer{Server: serverName("localhost", 16020), RpcVersion: proto.Uint32(0), State: &open})),
		"master":         withMetadata(hbaseID, pbufOf(t, &pb.Master{Master: serverName("localhost", 16000), RpcVersion: proto.Uint32(0), InfoPort: proto.Uint32(16010)})),
		"no-header":      pbufOf(t, &pb.MetaRegionServer{Server: serverName("localhost", 16020)}),
		"huge-id-length": append([]byte{metaMagic, 0x7F, 0xFF, 0xFF, 0xFF}, "PBUF"...),
		"legacy":         []byte("localhost,16020,1732248000000"),
		"empty":          {},
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzParseZNode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range seeds {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestQuorumChroot(t *testing.T) {
	for _, tc := range []struct{ quorum, parent, wantParent string }{
		{"h1:2181,h2:2181", "/hbase", "/hbase"},
		{"h1:2181,h2:2181/apps", "/hbase", "/apps/hbase"},
		{"h1:2181/apps/x", "hbase-unsecure", "/apps/x/hbase-unsecure"},
		{"h1:2181/hbase", "/", "/hbase"},
		{"h1:2181/", "/hbase/", "/hbase"},
		{"h1:2181", "/", "/"},
	} {
		c := mustNew(t, tc.quorum, WithZNodeParent(tc.parent))
		if c.parent != tc.wantParent || len(c.servers) == 0 || strings.Contains(strings.Join(c.servers, ","), "/") {
			t.Errorf("New(%q, parent %q): parent %q, servers %q; want parent %q", tc.quorum, tc.parent, c.parent, c.servers, tc.wantParent)
		}
	}
}
