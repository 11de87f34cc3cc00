package hrpc

import (
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

func TestAdminNames(t *testing.T) {
	for _, ok := range []string{"t", "ns:t", "a_b-c.d", "default:x", "hbase:meta", "T9"} {
		if err := CheckTableName(ok); err != nil {
			t.Errorf("CheckTableName(%q) = %v; want nil", ok, err)
		}
	}
	for _, bad := range []string{"", ":", "ns:", ":t", "-t", ".t", "a b", "n-s:t", "t/x", "é", "a:b:c"} {
		if err := CheckTableName(bad); !errors.Is(err, hberr.ErrInvalidName) {
			t.Errorf("CheckTableName(%q) = %v; want ErrInvalidName", bad, err)
		}
	}
	for _, bad := range []string{"", ".f", "a:b", "a\nb"} {
		if err := CheckFamilyName(bad); !errors.Is(err, hberr.ErrInvalidName) {
			t.Errorf("CheckFamilyName(%q) = %v; want ErrInvalidName", bad, err)
		}
	}
	if ns, q, err := SplitTableName("t"); err != nil || ns != "default" || q != "t" {
		t.Errorf("SplitTableName(t) = %q, %q, %v; want default, t", ns, q, err)
	}
	if got := TableNameString(&pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")}); got != "t" {
		t.Errorf("TableNameString(default:t) = %q; want t", got)
	}
}

func TestFamilyDescriptorRoundTrip(t *testing.T) {
	f, err := NewFamily("f", Versions(3), MinVersions(1), TTL(time.Hour), Compress(CompressionGZ), Bloom(BloomRowCol),
		BlockSize(16384), InMemory(true), BlockEncoding(EncodingDiff), FamilyAttribute("BLOCKCACHE", "false"))
	if err != nil {
		t.Fatal(err)
	}
	got := familyFromProto(f.proto())
	if got.MaxVersions != 3 || got.MinVersions != 1 || got.TTL != time.Hour || got.Compression != CompressionGZ ||
		got.BloomFilter != BloomRowCol || got.BlockSize != 16384 || !got.InMemory || got.Encoding != EncodingDiff ||
		got.Attributes["BLOCKCACHE"] != "false" {
		t.Fatalf("round trip = %+v; want what was built", got)
	}
	// HBase's "forever" TTL reads as 0.
	fs := &pb.ColumnFamilySchema{Name: []byte("f"), Attributes: []*pb.BytesBytesPair{{First: []byte("TTL"), Second: []byte("2147483647")}}}
	if got := familyFromProto(fs); got.TTL != 0 {
		t.Fatalf("TTL FOREVER = %v; want 0", got.TTL)
	}
	for _, opts := range [][]FamilyOption{
		{Versions(-1)}, {Versions(1), MinVersions(2)}, {TTL(1500 * time.Millisecond)}, {TTL(-time.Second)},
		{Compress("FOO")}, {Bloom("X")}, {BlockEncoding("Y")}, {BlockSize(-1)}, {nil},
	} {
		if _, err := NewFamily("f", opts...); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("NewFamily with bad options: %v; want hberr.ErrBadRequest", err)
		}
	}
}

func TestTableDescriptorAndCreate(t *testing.T) {
	if _, err := NewTableDescriptor("t"); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("a table without family: %v; want hberr.ErrBadRequest", err)
	}
	if _, err := NewTableDescriptor("t", WithFamily("f"), WithFamily("f")); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("a family twice: %v; want hberr.ErrBadRequest", err)
	}
	if _, err := NewTableDescriptor("bad name", WithFamily("f")); !errors.Is(err, hberr.ErrInvalidName) {
		t.Errorf("bad table name: %v; want ErrInvalidName", err)
	}
	td, err := NewTableDescriptor("ns:t", WithFamily("f"), TableAttribute("READONLY", "true"), TableConfiguration("k", "v"))
	if err != nil {
		t.Fatal(err)
	}
	req, err := CreateTableRequest(td, Nonce{1, 2}, SplitKeys([]byte("b"), []byte("a")))
	if err != nil {
		t.Fatal(err)
	}
	if s := req.GetSplitKeys(); len(s) != 2 || string(s[0]) != "a" || string(s[1]) != "b" {
		t.Fatalf("split keys = %q; want sorted [a b]", s)
	}
	if string(req.GetTableSchema().GetTableName().GetNamespace()) != "ns" || req.GetNonce() != 2 || req.GetNonceGroup() != 1 {
		t.Fatalf("request = %v", req)
	}
	back := TableFromProto(req.GetTableSchema())
	if back.Name != "ns:t" || back.Attributes["READONLY"] != "true" || back.Configuration["k"] != "v" || back.Family("f") == nil {
		t.Fatalf("TableFromProto = %+v", back)
	}
	for _, opt := range []CreateTableOption{SplitKeys([]byte("a"), []byte("a")), SplitKeys(nil), UniformSplits(1), HexStringSplits(0)} {
		if _, err := CreateTableRequest(td, Nonce{}, opt); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("bad split option: %v; want hberr.ErrBadRequest", err)
		}
	}
	if _, err := CreateTableRequest(td, Nonce{}, UniformSplits(2), HexStringSplits(2)); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("two split options: %v; want hberr.ErrBadRequest", err)
	}
	req, _ = CreateTableRequest(td, Nonce{}, HexStringSplits(3))
	if s := req.GetSplitKeys(); len(s) != 2 || string(s[0]) != "55555555" || string(s[1]) != "aaaaaaaa" {
		t.Fatalf("HexStringSplits(3) = %q", s)
	}
}

func TestRegionNames(t *testing.T) {
	name := []byte("ns:t,a,b,1700000000000.0123456789abcdef0123456789abcdef.")
	if tb, start, ok := ParseRegionName(name); !ok || tb != "ns:t" || string(start) != "a,b" {
		t.Fatalf("ParseRegionName = %q, %q, %v; want ns:t, \"a,b\"", tb, start, ok)
	}
	if got := EncodedRegionName(name); got != "0123456789abcdef0123456789abcdef" {
		t.Fatalf("EncodedRegionName = %q", got)
	}
	if got := EncodedRegionName([]byte("hbase:meta,,1")); got != "1588230740" {
		t.Fatalf("EncodedRegionName(meta) = %q", got)
	}
	if _, _, ok := ParseRegionName([]byte("0123456789abcdef0123456789abcdef")); ok {
		t.Fatal("an encoded name parsed as a full name")
	}
}

func TestProcedureResult(t *testing.T) {
	class, msg := "org.apache.hadoop.hbase.TableExistsException", "t"
	resp := &pb.GetProcedureResultResponse{State: pb.GetProcedureResultResponse_FINISHED.Enum(),
		Exception: &pb.ForeignExceptionMessage{GenericException: &pb.GenericExceptionMessage{ClassName: &class, Message: &msg}}}
	st, err := ParseProcedureResult(resp)
	if st != ProcedureFinished || !errors.Is(err, hberr.ErrTableExists) || !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("ParseProcedureResult = %v, %v; want finished, ErrTableExists", st, err)
	}
	if st, err := ParseProcedureResult(&pb.GetProcedureResultResponse{State: pb.GetProcedureResultResponse_RUNNING.Enum()}); st != ProcedureRunning || err != nil {
		t.Fatalf("running = %v, %v", st, err)
	}
}
