package admin

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Every typed attribute: created, read back by DescribeTable, and what the Java Admin's
// getDescriptor says of the same table, through its raw values and its getters.
func TestAdminDescriptorAttributes(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	name := adminTableName(t, "attrs")
	adminDropLater(t, a, name)
	cp := hrpc.Coprocessor{Class: "org.apache.hadoop.hbase.coprocessor.MultiRowMutationEndpoint", Properties: map[string]string{"k": "v"}}
	desc, err := hrpc.NewTableDescriptor(name,
		hrpc.WithFamily("f", hrpc.Versions(4), hrpc.MinVersions(1), hrpc.TTL(48*time.Hour), hrpc.Compress(hrpc.CompressionGZ),
			hrpc.Bloom(hrpc.BloomRowCol), hrpc.BlockSize(32<<10), hrpc.InMemory(true), hrpc.BlockEncoding(hrpc.EncodingFastDiff),
			hrpc.KeepDeleted(hrpc.KeepDeletedTTL), hrpc.CompactionCompress(hrpc.CompressionGZ), hrpc.BlockCache(false),
			hrpc.CacheOnWrite(true, true, false), hrpc.PrefetchBlocksOnOpen(true), hrpc.EvictBlocksOnClose(true),
			hrpc.CompressTags(false), hrpc.NewVersionBehavior(true), hrpc.ReplicationScope(1), hrpc.DFSReplication(1),
			hrpc.StoragePolicy("HOT"), hrpc.InMemoryCompaction(hrpc.MemoryCompactionBasic),
			hrpc.FamilyConfiguration("hbase.hstore.blockingStoreFiles", "21")),
		hrpc.WithFamily("m", hrpc.Mob(4096), hrpc.MobCompactPartition(hrpc.MobPartitionWeekly)),
		hrpc.MaxFileSize(1<<30), hrpc.MemStoreFlushSize(64<<20), hrpc.ReadOnly(true), hrpc.CompactionEnabled(false),
		hrpc.SplitEnabled(false), hrpc.MergeEnabled(false), hrpc.NormalizationEnabled(true), hrpc.TableDurability(hrpc.AsyncWAL),
		hrpc.RegionMemStoreReplication(false), hrpc.TablePriority(5), hrpc.Owner("alice"),
		hrpc.FlushPolicy("org.apache.hadoop.hbase.regionserver.FlushAllStoresPolicy"),
		hrpc.SplitPolicy("org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy"),
		hrpc.NormalizerTarget(5, 300), hrpc.WithCoprocessor(cp),
		hrpc.TableAttribute("gohbase.note", "kept"), hrpc.TableConfiguration("hbase.hregion.majorcompaction", "0"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	got, err := a.DescribeTable(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	cp.Priority = hrpc.CoprocessorPriorityUser // what HBase stores for 0
	want := *desc
	want.Coprocessors = []hrpc.Coprocessor{cp}
	checkTable := func(what string, got *hrpc.TableDescriptor) {
		t.Helper()
		sent, back := want.AllAttributes(), got.AllAttributes()
		for k, v := range sent {
			if back[k] != v {
				t.Errorf("%s: table attribute %s = %q; want %q", what, k, back[k], v)
			}
		}
		if len(got.Coprocessors) != 1 || got.Coprocessors[0].Class != cp.Class || got.Coprocessors[0].Priority != cp.Priority ||
			got.Coprocessors[0].Properties["k"] != "v" {
			t.Errorf("%s: coprocessors = %+v; want %+v", what, got.Coprocessors, cp)
		}
		for _, f := range want.Families {
			gf := got.Family(f.Name)
			if gf == nil {
				t.Fatalf("%s: no family %s", what, f.Name)
			}
			fb := gf.AllAttributes()
			for k, v := range f.AllAttributes() {
				if fb[k] != v {
					t.Errorf("%s: family %s attribute %s = %q; want %q", what, f.Name, k, fb[k], v)
				}
			}
			if gf.Configuration["hbase.hstore.blockingStoreFiles"] != f.Configuration["hbase.hstore.blockingStoreFiles"] {
				t.Errorf("%s: family %s configuration = %v; want %v", what, f.Name, gf.Configuration, f.Configuration)
			}
		}
		// HBase 2 keeps a table's configuration among its values: it comes back an attribute.
		if got.Attributes["gohbase.note"] != "kept" || got.Attributes["hbase.hregion.majorcompaction"] != "0" {
			t.Errorf("%s: other attributes %v, configuration %v", what, got.Attributes, got.Configuration)
		}
	}
	checkTable("DescribeTable", got)
	f := got.Family("f")
	if f.KeepDeletedCells != hrpc.KeepDeletedTTL || f.BlockCache != hrpc.FlagOff || f.CacheDataOnWrite != hrpc.FlagOn ||
		f.ReplicationScope != 1 || f.InMemoryCompaction != hrpc.MemoryCompactionBasic || got.Family("m").Mob != hrpc.FlagOn ||
		got.Family("m").MobThreshold != 4096 || got.Durability != hrpc.AsyncWAL || got.ReadOnly != hrpc.FlagOn ||
		got.SplitEnabled != hrpc.FlagOff || got.MaxFileSize != 1<<30 || got.Owner != "alice" {
		t.Errorf("typed fields read back = %+v, family f %+v", got, f)
	}

	// The Java Admin's view of the same table.
	j, err := testCluster(t).JavaDescribe(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range want.AllAttributes() {
		if strings.HasPrefix(k, "coprocessor$") {
			continue
		}
		if j["T:"+k] != v {
			t.Errorf("Java's table value %s = %q; want %q", k, j["T:"+k], v)
		}
	}
	for _, fam := range want.Families {
		for k, v := range fam.AllAttributes() {
			if j["F:"+fam.Name+":"+k] != v {
				t.Errorf("Java's family %s value %s = %q; want %q", fam.Name, k, j["F:"+fam.Name+":"+k], v)
			}
		}
	}
	getters := map[string]string{
		"TG:MaxFileSize": strconv.FormatInt(got.MaxFileSize, 10), "TG:MemStoreFlushSize": strconv.FormatInt(got.MemStoreFlushSize, 10),
		"TG:ReadOnly": got.ReadOnly.String(), "TG:CompactionEnabled": got.CompactionEnabled.String(),
		"TG:SplitEnabled": got.SplitEnabled.String(), "TG:MergeEnabled": got.MergeEnabled.String(),
		"TG:NormalizationEnabled": got.NormalizationEnabled.String(), "TG:Durability": "ASYNC_WAL",
		"TG:RegionMemStoreReplication": got.RegionMemStoreReplication.String(), "TG:Priority": strconv.Itoa(got.Priority),
		"TG:Owner": got.Owner, "TG:FlushPolicy": got.FlushPolicy, "TG:SplitPolicy": got.SplitPolicy,
		"TG:NormalizerTargetRegionCount": strconv.Itoa(got.NormalizerTargetRegionCount),
		"TG:NormalizerTargetRegionSize":  strconv.FormatInt(got.NormalizerTargetRegionSizeMB, 10),
		"TG:Coprocessors":                "|" + cp.Class + "|" + strconv.Itoa(cp.Priority) + "|{k=v}",
		"FG:f:MaxVersions":               strconv.Itoa(f.MaxVersions), "FG:f:MinVersions": strconv.Itoa(f.MinVersions),
		"FG:f:TimeToLive": strconv.Itoa(int(f.TTL / time.Second)), "FG:f:Compression": strings.ToLower(string(f.Compression)),
		"FG:f:CompactionCompression": strings.ToLower(string(f.CompactionCompression)), "FG:f:Bloom": string(f.BloomFilter),
		"FG:f:BlockSize": strconv.Itoa(f.BlockSize), "FG:f:InMemory": strconv.FormatBool(f.InMemory),
		"FG:f:Encoding": string(f.Encoding), "FG:f:KeepDeletedCells": string(f.KeepDeletedCells),
		"FG:f:BlockCache": f.BlockCache.String(), "FG:f:CacheDataOnWrite": f.CacheDataOnWrite.String(),
		"FG:f:CacheIndexesOnWrite": f.CacheIndexOnWrite.String(), "FG:f:CacheBloomsOnWrite": f.CacheBloomsOnWrite.String(),
		"FG:f:EvictBlocksOnClose": f.EvictBlocksOnClose.String(), "FG:f:PrefetchBlocksOnOpen": f.PrefetchBlocksOnOpen.String(),
		"FG:f:CompressTags": f.CompressTags.String(), "FG:f:NewVersionBehavior": f.NewVersionBehavior.String(),
		"FG:f:Scope": strconv.Itoa(f.ReplicationScope), "FG:f:DFSReplication": strconv.Itoa(f.DFSReplication),
		"FG:f:StoragePolicy": f.StoragePolicy, "FG:f:InMemoryCompaction": string(f.InMemoryCompaction),
		"FG:m:Mob": "true", "FG:m:MobThreshold": "4096", "FG:m:MobCompactPartitionPolicy": "WEEKLY",
	}
	for k, v := range getters {
		if j[k] != v {
			t.Errorf("Java's %s = %q; go-hbase read %q", k, j[k], v)
		}
	}

	// ModifyTable with typed fields: read, change, write back, read again.
	got.ReadOnly = hrpc.FlagOff
	got.MaxFileSize = 2 << 30
	got.Family("f").KeepDeletedCells = hrpc.KeepDeletedFalse
	got.Family("f").BlockCache = hrpc.FlagOn
	if err := a.ModifyTable(ctx, got); err != nil {
		t.Fatalf("ModifyTable: %v", err)
	}
	again, err := a.DescribeTable(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	want = *got
	checkTable("after ModifyTable", again)
	if again.ReadOnly != hrpc.FlagOff || again.MaxFileSize != 2<<30 || again.Family("f").KeepDeletedCells != hrpc.KeepDeletedFalse {
		t.Errorf("after ModifyTable: %+v", again)
	}

	// A descriptor the client refuses reaches no server: the table stays as it was.
	bad := *again
	bad.Attributes = map[string]string{"MAX_FILESIZE": "5"}
	if err := a.ModifyTable(ctx, &bad); !errors.Is(err, hberr.ErrBadRequest) || !strings.Contains(err.Error(), "MAX_FILESIZE") {
		t.Fatalf("ModifyTable with MAX_FILESIZE twice: %v; want hberr.ErrBadRequest naming MAX_FILESIZE", err)
	}
	if now, err := a.DescribeTable(ctx, name); err != nil || now.MaxFileSize != 2<<30 {
		t.Fatalf("after the refused ModifyTable: MaxFileSize %d, %v; want unchanged", now.MaxFileSize, err)
	}
}

// KeyRangeSplits splits as the Java Admin's createTable(desc, start, end, n): the same keys,
// and the table's regions start at them.
func TestAdminKeyRangeSplits(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 2*time.Minute)
	cl := testCluster(t)
	for _, k := range []struct {
		start, end string
		n          int
	}{{"a", "z", 3}, {"a", "z", 7}, {"\x00", "\xff", 10}, {"a", "b", 6}, {"aaa", "b", 4}, {"row,", "row,\x01", 5}, {"\x01", "\x01\x00\x00\x03", 9}} {
		jk, err := cl.JavaSplitKeys(ctx, []byte(k.start), []byte(k.end), k.n)
		if err != nil {
			t.Fatal(err)
		}
		name := adminTableName(t, "range")
		adminDropLater(t, a, name)
		desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.CreateTable(ctx, desc, hrpc.KeyRangeSplits([]byte(k.start), []byte(k.end), k.n)); err != nil {
			t.Fatalf("CreateTable(KeyRangeSplits(%q, %q, %d)): %v", k.start, k.end, k.n, err)
		}
		rs, err := a.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		var starts [][]byte
		for _, r := range rs[1:] {
			starts = append(starts, r.Start)
		}
		if !slices.EqualFunc(starts, jk, bytes.Equal) {
			t.Errorf("KeyRangeSplits(%q, %q, %d): regions start at %q; the Java Admin splits at %q", k.start, k.end, k.n, starts, jk)
		}
	}
	name := adminTableName(t, "range")
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.KeyRangeSplits([]byte("b"), []byte("a"), 4)); !errors.Is(err, hberr.ErrBadRequest) {
		t.Fatalf("KeyRangeSplits(b, a): %v; want hberr.ErrBadRequest", err)
	}
	if ok, err := a.TableExists(ctx, name); err != nil || ok {
		t.Fatalf("after the refused create: exists %v, %v; want no table", ok, err)
	}
}
