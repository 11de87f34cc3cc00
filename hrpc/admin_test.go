package hrpc

import (
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

func TestFamilyDescriptorRoundTrip(t *testing.T) {
	f, err := NewFamily("f", Versions(3), MinVersions(1), TTL(time.Hour), Compress(CompressionGZ), Bloom(BloomRowCol),
		BlockSize(16384), InMemory(true), BlockEncoding(EncodingDiff), FamilyAttribute("BLOCKCACHE", "false"))
	if err != nil {
		t.Fatal(err)
	}
	got := familyFromProto(f.proto())
	if got.MaxVersions != 3 || got.MinVersions != 1 || got.TTL != time.Hour || got.Compression != CompressionGZ ||
		got.BloomFilter != BloomRowCol || got.BlockSize != 16384 || !got.InMemory || got.Encoding != EncodingDiff ||
		got.BlockCache != FlagOff || len(got.Attributes) != 0 {
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
	s, err := splitKeys([]CreateTableOption{SplitKeys([]byte("b"), []byte("a"))})
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || string(s[0]) != "a" || string(s[1]) != "b" {
		t.Fatalf("split keys = %q; want sorted [a b]", s)
	}
	schema, err := td.proto()
	if err != nil {
		t.Fatal(err)
	}
	if string(schema.GetTableName().GetNamespace()) != "ns" {
		t.Fatalf("schema = %v", schema)
	}
	back := tableFromProto(schema)
	if back.Name != "ns:t" || back.ReadOnly != FlagOn || len(back.Attributes) != 0 || back.Configuration["k"] != "v" || back.Family("f") == nil {
		t.Fatalf("tableFromProto = %+v", back)
	}
	for _, opt := range []CreateTableOption{SplitKeys([]byte("a"), []byte("a")), SplitKeys(nil), UniformSplits(1), HexStringSplits(0)} {
		if _, err := splitKeys([]CreateTableOption{opt}); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("bad split option: %v; want hberr.ErrBadRequest", err)
		}
	}
	if _, err := splitKeys([]CreateTableOption{UniformSplits(2), HexStringSplits(2)}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("two split options: %v; want hberr.ErrBadRequest", err)
	}
	s, _ = splitKeys([]CreateTableOption{HexStringSplits(3)})
	if len(s) != 2 || string(s[0]) != "55555555" || string(s[1]) != "aaaaaaaa" {
		t.Fatalf("HexStringSplits(3) = %q", s)
	}
}
