package hrpc

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// Every typed attribute goes out under HBase's name and comes back into its field.
func TestTypedAttributesRoundTrip(t *testing.T) {
	td, err := NewTableDescriptor("ns:t",
		WithFamily("f", KeepDeleted(KeepDeletedTTL), CompactionCompress(CompressionGZ), BlockCache(false),
			CacheOnWrite(true, false, true), PrefetchBlocksOnOpen(true), EvictBlocksOnClose(true), CompressTags(false),
			NewVersionBehavior(true), ReplicationScope(1), DFSReplication(2), StoragePolicy("ALL_SSD"),
			InMemoryCompaction(MemoryCompactionBasic), Mob(4096), MobCompactPartition(MobPartitionWeekly),
			FamilyConfiguration("hbase.hstore.blockingStoreFiles", "20")),
		MaxFileSize(1<<30), MemStoreFlushSize(64<<20), ReadOnly(true), CompactionEnabled(false), SplitEnabled(false),
		MergeEnabled(false), NormalizationEnabled(true), TableDurability(AsyncWAL), RegionReplication(2),
		RegionMemStoreReplication(false), TablePriority(7), Owner("alice"), FlushPolicy("a.Flush"), SplitPolicy("a.Split"),
		NormalizerTarget(5, 300),
		WithCoprocessor(Coprocessor{Class: "a.B", Priority: 5, Properties: map[string]string{"k": "v", "x": "y=z"}}),
		WithCoprocessor(Coprocessor{Class: "a.C", JarPath: "hdfs:///c.jar"}),
		TableAttribute("ERASURE_CODING_POLICY", "XOR-2-1-1024k"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := td.proto()
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]string{}
	for _, p := range s.GetAttributes() {
		sent[string(p.GetFirst())] = string(p.GetSecond())
	}
	want := map[string]string{"MAX_FILESIZE": "1073741824", "MEMSTORE_FLUSHSIZE": "67108864", "READONLY": "true",
		"COMPACTION_ENABLED": "false", "SPLIT_ENABLED": "false", "MERGE_ENABLED": "false", "NORMALIZATION_ENABLED": "true",
		"DURABILITY": "ASYNC_WAL", "REGION_REPLICATION": "2", "REGION_MEMSTORE_REPLICATION": "false", "PRIORITY": "7",
		"OWNER": "alice", "FLUSH_POLICY": "a.Flush", "SPLIT_POLICY": "a.Split", "NORMALIZER_TARGET_REGION_COUNT": "5",
		"NORMALIZER_TARGET_REGION_SIZE_MB": "300", "coprocessor$1": "|a.B|5|k=v,x=y=z",
		"coprocessor$2": "hdfs:///c.jar|a.C|1073741823|", "ERASURE_CODING_POLICY": "XOR-2-1-1024k"}
	if !maps.Equal(sent, want) {
		t.Fatalf("table attributes sent = %v; want %v", sent, want)
	}
	fsent := map[string]string{}
	for _, p := range s.GetColumnFamilies()[0].GetAttributes() {
		fsent[string(p.GetFirst())] = string(p.GetSecond())
	}
	fwant := map[string]string{"KEEP_DELETED_CELLS": "TTL", "COMPRESSION_COMPACT": "GZ", "BLOCKCACHE": "false",
		"CACHE_DATA_ON_WRITE": "true", "CACHE_INDEX_ON_WRITE": "false", "CACHE_BLOOMS_ON_WRITE": "true",
		"PREFETCH_BLOCKS_ON_OPEN": "true", "EVICT_BLOCKS_ON_CLOSE": "true", "COMPRESS_TAGS": "false",
		"NEW_VERSION_BEHAVIOR": "true", "REPLICATION_SCOPE": "1", "DFS_REPLICATION": "2", "STORAGE_POLICY": "ALL_SSD",
		"IN_MEMORY_COMPACTION": "BASIC", "IS_MOB": "true", "MOB_THRESHOLD": "4096", "MOB_COMPACT_PARTITION_POLICY": "WEEKLY"}
	if !maps.Equal(fsent, fwant) {
		t.Fatalf("family attributes sent = %v; want %v", fsent, fwant)
	}
	back := tableFromProto(s)
	back.Families[0].Attributes = nil
	td.Coprocessors[1].Priority = CoprocessorPriorityUser // what HBase stores for 0
	if len(back.Attributes) != 1 || back.Attributes["ERASURE_CODING_POLICY"] != "XOR-2-1-1024k" {
		t.Fatalf("attributes read back = %v; want the untyped one only", back.Attributes)
	}
	back.Attributes, td.Attributes = nil, nil
	if !equalTables(back, td) {
		t.Fatalf("read back\n%+v\nwant\n%+v", back, td)
	}
}

func equalTables(a, b *TableDescriptor) bool {
	fa, fb := a.Families, b.Families
	ca, cb := a.Coprocessors, b.Coprocessors
	a2, b2 := *a, *b
	a2.Families, b2.Families, a2.Coprocessors, b2.Coprocessors = nil, nil, nil, nil
	a2.Configuration, b2.Configuration = nil, nil
	if a2.Name != b2.Name || a2.MaxFileSize != b2.MaxFileSize || !equalAttrs(a2.AllAttributes(), b2.AllAttributes()) {
		return false
	}
	if !slices.EqualFunc(ca, cb, func(x, y Coprocessor) bool {
		return x.Class == y.Class && x.JarPath == y.JarPath && x.Priority == y.Priority && maps.Equal(x.Properties, y.Properties)
	}) {
		return false
	}
	return slices.EqualFunc(fa, fb, func(x, y FamilyDescriptor) bool {
		return x.Name == y.Name && equalAttrs(x.AllAttributes(), y.AllAttributes()) && maps.Equal(x.Configuration, y.Configuration)
	})
}

func equalAttrs(a, b map[string]string) bool { return maps.Equal(a, b) }

// HBase's own spellings of typed values read back; values that do not parse stay in the map.
func TestTypedAttributesRead(t *testing.T) {
	pairs := func(kv ...string) []*pb.BytesBytesPair {
		var out []*pb.BytesBytesPair
		for i := 0; i < len(kv); i += 2 {
			out = append(out, &pb.BytesBytesPair{First: []byte(kv[i]), Second: []byte(kv[i+1])})
		}
		return out
	}
	f := familyFromProto(&pb.ColumnFamilySchema{Name: []byte("f"), Attributes: pairs(
		"BLOCKCACHE", "TRUE", "KEEP_DELETED_CELLS", "true", "IS_MOB", "maybe", "MOB_THRESHOLD", "12x", "TTL", "86400",
		"REPLICATION_SCOPE", "1", "IN_MEMORY_COMPACTION", "eager")})
	if f.BlockCache != FlagOn || f.KeepDeletedCells != KeepDeletedTrue || f.Mob != FlagDefault || f.TTL != 24*time.Hour ||
		f.ReplicationScope != 1 || f.InMemoryCompaction != MemoryCompactionEager ||
		!maps.Equal(f.Attributes, map[string]string{"IS_MOB": "maybe", "MOB_THRESHOLD": "12x"}) {
		t.Fatalf("family read = %+v", f)
	}
	// Coprocessor attributes as HBase and users write them, hostile ones included: a key in
	// another case, spaces, no priority, no properties, a class with no name, a bad priority.
	td := tableFromProto(&pb.TableSchema{TableName: &pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")},
		Attributes: pairs("Coprocessor$3", " |a.Third| 9 |", "coprocessor$1", "|a.First||", "coprocessor$2", "/x.jar|a.Second|",
			"coprocessor$4", "| |1|", "coprocessor$5", "|a.Bad|-1|", "coprocessor$x", "|a.NotAKey|1|",
			"coprocessor$6", "|a.Props|2|k=v,,=w,j=", "DURABILITY", "fsync_wal", "SPLIT_ENABLED", "no")})
	var got []string
	for _, c := range td.Coprocessors {
		got = append(got, c.JarPath+"|"+c.Class+"|"+strconv.Itoa(c.Priority)+"|"+mapString(c.Properties))
	}
	want := []string{"|a.First|1073741823|", "/x.jar|a.Second|1073741823|", "|a.Third|9|", "|a.Props|2|k=v"}
	if !slices.Equal(got, want) {
		t.Fatalf("coprocessors read = %q; want %q", got, want)
	}
	if td.Durability != FsyncWAL || td.SplitEnabled != FlagDefault || td.Attributes["SPLIT_ENABLED"] != "no" ||
		td.Attributes["coprocessor$4"] != "| |1|" ||
		td.Attributes["coprocessor$5"] != "|a.Bad|-1|" || td.Attributes["coprocessor$x"] != "|a.NotAKey|1|" {
		t.Fatalf("table read = %+v", td)
	}
	// Written back: the coprocessors after the highest key left in Attributes.
	attrs := td.AllAttributes()
	if attrs["coprocessor$6"] != "|a.First|1073741823|" || attrs["coprocessor$9"] != "|a.Props|2|k=v" {
		t.Fatalf("written back = %v", attrs)
	}
}

func mapString(m map[string]string) string {
	var s string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if s != "" {
			s += ","
		}
		s += k + "=" + m[k]
	}
	return s
}

func TestTypedAttributesRefused(t *testing.T) {
	for name, opts := range map[string][]TableOption{
		"conflict":           {WithFamily("f"), MaxFileSize(10), TableAttribute("MAX_FILESIZE", "11")},
		"family conflict":    {WithFamily("f", BlockCache(false), FamilyAttribute("BLOCKCACHE", "true"))},
		"keep deleted":       {WithFamily("f", KeepDeleted("SOMETIMES"))},
		"compaction codec":   {WithFamily("f", CompactionCompress("ZIP"))},
		"memory compaction":  {WithFamily("f", InMemoryCompaction("LAZY"))},
		"mob policy":         {WithFamily("f", MobCompactPartition("HOURLY"))},
		"scope":              {WithFamily("f", ReplicationScope(-1))},
		"dfs replication":    {WithFamily("f", DFSReplication(40000))},
		"mob threshold":      {WithFamily("f", Mob(-1))},
		"storage policy":     {WithFamily("f", StoragePolicy("ALL SSD"))},
		"file size":          {WithFamily("f"), MaxFileSize(-1)},
		"durability":         {WithFamily("f"), TableDurability(9)},
		"priority":           {WithFamily("f"), TablePriority(-1)},
		"normalizer":         {WithFamily("f"), NormalizerTarget(-1, 0)},
		"no class":           {WithFamily("f"), WithCoprocessor(Coprocessor{})},
		"pipe":               {WithFamily("f"), WithCoprocessor(Coprocessor{Class: "a|b"})},
		"property":           {WithFamily("f"), WithCoprocessor(Coprocessor{Class: "a", Properties: map[string]string{"k,": "v"}})},
		"property value":     {WithFamily("f"), WithCoprocessor(Coprocessor{Class: "a", Properties: map[string]string{"k": "v,w"}})},
		"coprocessor twice":  {WithFamily("f"), WithCoprocessor(Coprocessor{Class: "a"}), WithCoprocessor(Coprocessor{Class: "a"})},
		"coprocessor in map": {WithFamily("f"), WithCoprocessor(Coprocessor{Class: "a"}), TableAttribute("coprocessor$1", "|a|1|")},
		"key range":          {WithFamily("f"), func(td *TableDescriptor) error { td.Families[0].Mob = 7; return nil }},
	} {
		if _, err := NewTableDescriptor("t", opts...); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: %v; want hberr.ErrBadRequest", name, err)
		}
	}
	// The same value in both places is no conflict.
	if _, err := NewTableDescriptor("t", WithFamily("f"), MaxFileSize(10), TableAttribute("MAX_FILESIZE", "10")); err != nil {
		t.Errorf("the same MAX_FILESIZE twice: %v", err)
	}
}

// KeyRangeSplits gives the split keys of HBase's Bytes.split (values from HBase 2.6.1's
// Bytes.split, as TestAdminKeyRangeSplits compares them with the Java client's).
func TestKeyRangeSplits(t *testing.T) {
	for _, c := range []struct {
		start, end string
		n          int
		want       []string
	}{
		{"a", "z", 3, []string{"a", "z"}},
		{"a", "z", 5, []string{"a", "i", "q", "z"}},
		{"\x00", "\xff", 4, []string{"\x00", "\x7f", "\xff"}},
		{"a", "b", 6, []string{"a\x00", "a@", "a\x80", "a\xc0", "b\x00"}},
		{"row,", "row,\x01", 5, []string{"row,\x00\x00", "row,\x00U", "row,\x00\xaa", "row,\x01\x00"}},
		{"aaa", "b", 4, []string{"aaa", "a\xb0\xb0", "b"}},
	} {
		got, err := splitKeys([]CreateTableOption{KeyRangeSplits([]byte(c.start), []byte(c.end), c.n)})
		if err != nil {
			t.Fatalf("KeyRangeSplits(%q, %q, %d): %v", c.start, c.end, c.n, err)
		}
		var gs []string
		for _, k := range got {
			gs = append(gs, string(k))
		}
		if !slices.Equal(gs, c.want) {
			t.Errorf("KeyRangeSplits(%q, %q, %d) = %q; want %q", c.start, c.end, c.n, gs, c.want)
		}
	}
	for _, o := range []CreateTableOption{KeyRangeSplits([]byte("a"), []byte("b"), 2), KeyRangeSplits([]byte("b"), []byte("a"), 4),
		KeyRangeSplits([]byte("a"), []byte("a"), 4), KeyRangeSplits(nil, []byte("a"), 3)} {
		if _, err := splitKeys([]CreateTableOption{o}); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("bad KeyRangeSplits: %v; want hberr.ErrBadRequest", err)
		}
	}
}
