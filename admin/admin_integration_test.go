package admin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// The admin calls against the shared real cluster (3 region servers). Each test makes its own
// tables and namespaces and removes them; every test runs with the hbase:meta fixture in the
// cluster (newAdminTestClient: tables split at keys that hbase:meta does not keep in byte
// order, meta_order_integration_test.go), so that each of its hbase:meta scans meets them. TestAdminMasterRestart kills and restarts the
// cluster's master: it comes last in this file so that it runs after the others.

// adminTableName returns a fresh table name for t.
func adminTableName(t *testing.T, tag string) string {
	return fmt.Sprintf("adm%d_%s_%s", tables.Add(1), tag, sanitize(t.Name()))
}

// adminDropLater deletes table when the test ends, whatever state it is in.
func adminDropLater(t *testing.T, a *Admin, table string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = a.DisableTable(ctx, table)
		_ = a.DeleteTable(ctx, table)
	})
}

func adminPut(t *testing.T, c *hbase.Client, ctx context.Context, table string, rows ...string) {
	t.Helper()
	for _, r := range rows {
		p, err := hrpc.NewPut(table, []byte(r), hrpc.Value([]byte("f"), []byte("q"), []byte("v-"+r)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Put(ctx, p); err != nil {
			t.Fatalf("Put %s/%s: %v", table, r, err)
		}
	}
}

func adminRows(t *testing.T, c *hbase.Client, ctx context.Context, table string) []string {
	t.Helper()
	var rows []string
	for _, r := range opsScanAll(t, c, ctx, table) {
		rows = append(rows, string(r.Cells[0].Row))
	}
	return rows
}

func regionStarts(rs []*hrpc.Region) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r.Start))
	}
	return out
}

func TestAdminTables(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	name := adminTableName(t, "t")
	adminDropLater(t, a, name)

	desc, err := hrpc.NewTableDescriptor(name,
		hrpc.WithFamily("f", hrpc.Versions(5), hrpc.MinVersions(1), hrpc.TTL(48*time.Hour),
			hrpc.Compress(hrpc.CompressionGZ), hrpc.Bloom(hrpc.BloomRowCol), hrpc.BlockSize(32<<10),
			hrpc.InMemory(true), hrpc.BlockEncoding(hrpc.EncodingFastDiff)),
		hrpc.WithFamily("g"),
		hrpc.TableAttribute("MAX_FILESIZE", "1073741824"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"), []byte("f"))); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	if ok, err := a.TableExists(ctx, name); err != nil || !ok {
		t.Fatalf("TableExists = %v, %v; want true", ok, err)
	}
	if ok, err := a.TableEnabled(ctx, name); err != nil || !ok {
		t.Fatalf("TableEnabled = %v, %v; want true", ok, err)
	}
	regions, err := a.Regions(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if got := regionStarts(regions); !slices.Equal(got, []string{"", "f", "m"}) {
		t.Fatalf("region starts = %q; want [\"\" f m]", got)
	}
	for _, r := range regions {
		if r.Server.Port == 0 || r.Server.StartCode == 0 || r.Table != name || r.Encoded == "" {
			t.Fatalf("region %+v: want a server with start code, the table and an encoded name", r)
		}
	}

	got, err := a.DescribeTable(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	f := got.Family("f")
	if f == nil || got.Family("g") == nil || len(got.Families) != 2 {
		t.Fatalf("DescribeTable families = %+v; want f and g", got.Families)
	}
	if f.MaxVersions != 5 || f.MinVersions != 1 || f.TTL != 48*time.Hour || f.Compression != hrpc.CompressionGZ ||
		f.BloomFilter != hrpc.BloomRowCol || f.BlockSize != 32<<10 || !f.InMemory || f.Encoding != hrpc.EncodingFastDiff {
		t.Fatalf("family f = %+v; want what was created", f)
	}
	if g := got.Family("g"); g.MaxVersions != 1 || g.TTL != 0 || g.BloomFilter != hrpc.BloomRow {
		t.Fatalf("family g = %+v; want HBase's defaults (1 version, no TTL, ROW bloom)", g)
	}
	if got.MaxFileSize != 1073741824 {
		t.Fatalf("table MaxFileSize = %d (attributes %v); want 1073741824", got.MaxFileSize, got.Attributes)
	}

	// Listing: by regex, by namespace, with and without system tables.
	list, err := a.ListTables(ctx, hrpc.TableRegex("adm.*_t_.*"))
	if err != nil || !slices.Contains(list, name) {
		t.Fatalf("ListTables(regex) = %v, %v; want it to hold %s", list, err, name)
	}
	list, err = a.ListTables(ctx, hrpc.InNamespace("default"))
	if err != nil || !slices.Contains(list, name) || slices.Contains(list, "hbase:meta") {
		t.Fatalf("ListTables(default) = %v, %v; want %s and no system table", list, err, name)
	}
	list, err = a.ListTables(ctx, hrpc.InNamespace("hbase"), hrpc.IncludeSystemTables())
	if err != nil || !slices.Contains(list, "hbase:meta") {
		t.Fatalf("ListTables(hbase, system) = %v, %v; want hbase:meta", list, err)
	}

	// Typed errors.
	if err := a.CreateTable(ctx, desc); !errors.Is(err, hberr.ErrTableExists) {
		t.Fatalf("CreateTable again: %v; want hberr.ErrTableExists", err)
	}
	var ae *hberr.AdminError
	if err := a.DeleteTable(ctx, name); !errors.Is(err, hberr.ErrTableNotDisabled) || !errors.As(err, &ae) || ae.Op != "DeleteTable" {
		t.Fatalf("DeleteTable of an enabled table: %v; want an hberr.AdminError wrapping hberr.ErrTableNotDisabled", err)
	}
	if err := a.TruncateTable(ctx, name, true); !errors.Is(err, hberr.ErrTableNotDisabled) {
		t.Fatalf("TruncateTable of an enabled table: %v; want hberr.ErrTableNotDisabled", err)
	}
	if _, err := a.DescribeTable(ctx, name+"_none"); !errors.Is(err, hberr.ErrTableNotFound) || !hberr.IsNotFound(err) {
		t.Fatalf("DescribeTable of no table: %v; want hberr.ErrTableNotFound", err)
	}
	if ok, err := a.TableExists(ctx, name+"_none"); err != nil || ok {
		t.Fatalf("TableExists(no table) = %v, %v; want false", ok, err)
	}
	if err := a.DisableTable(ctx, name+"_none"); !errors.Is(err, hberr.ErrTableNotFound) {
		t.Fatalf("DisableTable of no table: %v; want hberr.ErrTableNotFound", err)
	}
	for _, bad := range []string{"-x", "a b", "ns:", "n-s:t", ""} {
		if err := a.DeleteTable(ctx, bad); !errors.Is(err, hberr.ErrInvalidName) {
			t.Fatalf("DeleteTable(%q): %v; want hberr.ErrInvalidName", bad, err)
		}
	}

	// Families: add, modify, delete.
	h, err := hrpc.NewFamily("h", hrpc.Versions(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AddFamily(ctx, name, h); err != nil {
		t.Fatalf("AddFamily: %v", err)
	}
	h.MaxVersions = 7
	h.TTL = time.Hour
	if err := a.ModifyFamily(ctx, name, h); err != nil {
		t.Fatalf("ModifyFamily: %v", err)
	}
	if err := a.DeleteFamily(ctx, name, "g"); err != nil {
		t.Fatalf("DeleteFamily: %v", err)
	}
	got, err = a.DescribeTable(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if got.Family("g") != nil || got.Family("h") == nil || got.Family("h").MaxVersions != 7 || got.Family("h").TTL != time.Hour {
		t.Fatalf("after add h, modify h, delete g: families = %+v", got.Families)
	}
	if err := a.AddFamily(ctx, name, h); err == nil {
		t.Fatal("AddFamily of an existing family succeeded")
	}

	// ModifyTable: read, change, write back.
	got.MaxFileSize = 2147483648
	got.Family("f").MaxVersions = 3
	if err := a.ModifyTable(ctx, got); err != nil {
		t.Fatalf("ModifyTable: %v", err)
	}
	got, err = a.DescribeTable(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if got.MaxFileSize != 2147483648 || got.Family("f").MaxVersions != 3 {
		t.Fatalf("after ModifyTable: MaxFileSize %d, f = %+v", got.MaxFileSize, got.Family("f"))
	}

	// Disable, truncate keeping the splits, then not.
	adminPut(t, c, ctx, name, "a", "g", "z")
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatalf("DisableTable: %v", err)
	}
	if ok, err := a.TableEnabled(ctx, name); err != nil || ok {
		t.Fatalf("TableEnabled after disable = %v, %v; want false", ok, err)
	}
	// Calls on the disabled table, whose regions the client has cached, end at once with
	// hberr.ErrTableDisabled instead of retrying until their deadline.
	disabledCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	g, _ := hrpc.NewGet(name, []byte("a"))
	_, getErr := c.Get(disabledCtx, g)
	p, _ := hrpc.NewPut(name, []byte("a"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	_, putErr := c.Put(disabledCtx, p)
	sc, _ := hrpc.NewScan(name)
	var scanErr error
	for _, err := range c.Scan(disabledCtx, sc) {
		if err != nil {
			scanErr = err
			break
		}
	}
	stillTime := disabledCtx.Err() == nil
	cancel()
	for op, err := range map[string]error{"Get": getErr, "Put": putErr, "Scan": scanErr} {
		if !errors.Is(err, hberr.ErrTableDisabled) || !errors.Is(err, hberr.ErrDoNotRetry) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s on a disabled table: %v; want hberr.ErrTableDisabled before the deadline", op, err)
		}
	}
	if !stillTime {
		t.Error("the calls on the disabled table took their whole 30 s")
	}
	if err := a.TruncateTable(ctx, name, true); err != nil {
		t.Fatalf("TruncateTable(preserve): %v", err)
	}
	if rows := adminRows(t, c, ctx, name); len(rows) != 0 {
		t.Fatalf("rows after truncate = %q; want none", rows)
	}
	if regions, err = a.Regions(ctx, name); err != nil || len(regions) != 3 {
		t.Fatalf("regions after truncate preserving splits = %d, %v; want 3", len(regions), err)
	}
	adminPut(t, c, ctx, name, "b")
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.TruncateTable(ctx, name, false); err != nil {
		t.Fatalf("TruncateTable: %v", err)
	}
	if regions, err = a.Regions(ctx, name); err != nil || len(regions) != 1 {
		t.Fatalf("regions after truncate = %d, %v; want 1", len(regions), err)
	}
	if rows := adminRows(t, c, ctx, name); len(rows) != 0 {
		t.Fatalf("rows after truncate = %q; want none", rows)
	}

	// Enable after disable, then drop.
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.EnableTable(ctx, name); err != nil {
		t.Fatalf("EnableTable: %v", err)
	}
	adminPut(t, c, ctx, name, "c")
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteTable(ctx, name); err != nil {
		t.Fatalf("DeleteTable: %v", err)
	}
	if ok, err := a.TableExists(ctx, name); err != nil || ok {
		t.Fatalf("TableExists after delete = %v, %v; want false", ok, err)
	}
}

func TestAdminPreSplit(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 2*time.Minute)
	for _, tc := range []struct {
		opt    hrpc.CreateTableOption
		starts []string
	}{
		{hrpc.UniformSplits(4), []string{"", "\x40", "\x80", "\xc0"}},
		{hrpc.HexStringSplits(4), []string{"", "40000000", "80000000", "c0000000"}},
	} {
		name := adminTableName(t, "p")
		adminDropLater(t, a, name)
		desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.CreateTable(ctx, desc, tc.opt); err != nil {
			t.Fatal(err)
		}
		rs, err := a.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := regionStarts(rs); !slices.Equal(got, tc.starts) {
			t.Fatalf("region starts = %q; want %q", got, tc.starts)
		}
		for i := 1; i < len(rs); i++ {
			if !bytes.Equal(rs[i-1].End, rs[i].Start) {
				t.Fatalf("regions %d and %d do not touch: %q vs %q", i-1, i, rs[i-1].End, rs[i].Start)
			}
		}
	}
}

func TestAdminNamespaces(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 2*time.Minute)
	ns := fmt.Sprintf("adm%d_ns", tables.Add(1))
	desc, err := hrpc.NewNamespace(ns, hrpc.NamespaceProperty("hbase.namespace.quota.maxtables", "5"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateNamespace(ctx, desc); err != nil {
		t.Fatalf("CreateNamespace: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = a.DeleteNamespace(ctx, ns)
	})
	if err := a.CreateNamespace(ctx, desc); !errors.Is(err, hberr.ErrNamespaceExists) {
		t.Fatalf("CreateNamespace again: %v; want hberr.ErrNamespaceExists", err)
	}
	got, err := a.DescribeNamespace(ctx, ns)
	if err != nil || got.Name != ns || got.Properties["hbase.namespace.quota.maxtables"] != "5" {
		t.Fatalf("DescribeNamespace = %+v, %v; want the quota property", got, err)
	}
	all, err := a.ListNamespaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range all {
		names = append(names, n.Name)
	}
	for _, want := range []string{"default", "hbase", ns} {
		if !slices.Contains(names, want) {
			t.Fatalf("ListNamespaces = %q; want %s in it", names, want)
		}
	}
	got.Properties["hbase.namespace.quota.maxtables"] = "7"
	if err := a.ModifyNamespace(ctx, got); err != nil {
		t.Fatalf("ModifyNamespace: %v", err)
	}
	if got, err = a.DescribeNamespace(ctx, ns); err != nil || got.Properties["hbase.namespace.quota.maxtables"] != "7" {
		t.Fatalf("after ModifyNamespace: %+v, %v", got, err)
	}

	// A table in the namespace: listed by namespace, and it keeps the namespace from going.
	table := ns + ":t"
	td, err := hrpc.NewTableDescriptor(table, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, td); err != nil {
		t.Fatalf("CreateTable in %s: %v", ns, err)
	}
	adminDropLater(t, a, table)
	adminPut(t, c, ctx, table, "r")
	if list, err := a.ListTables(ctx, hrpc.InNamespace(ns)); err != nil || !slices.Equal(list, []string{table}) {
		t.Fatalf("ListTables(%s) = %q, %v; want [%s]", ns, list, err, table)
	}
	if rs, err := a.Regions(ctx, table); err != nil || len(rs) != 1 || rs[0].Table != table {
		t.Fatalf("Regions(%s) = %v, %v; want one region of it", table, rs, err)
	}
	err = a.DeleteNamespace(ctx, ns)
	if !errors.Is(err, hberr.ErrNamespaceNotEmpty) {
		t.Fatalf("DeleteNamespace of a namespace with a table: %v; want hberr.ErrNamespaceNotEmpty", err)
	}
	t.Logf("deleting a namespace with a table: %v", err)
	if err := a.DisableTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteNamespace(ctx, ns); err != nil {
		t.Fatalf("DeleteNamespace: %v", err)
	}
	if _, err := a.DescribeNamespace(ctx, ns); !errors.Is(err, hberr.ErrNamespaceNotFound) {
		t.Fatalf("DescribeNamespace after delete: %v; want hberr.ErrNamespaceNotFound", err)
	}
	if err := a.DeleteNamespace(ctx, ns); !errors.Is(err, hberr.ErrNamespaceNotFound) {
		t.Fatalf("DeleteNamespace again: %v; want hberr.ErrNamespaceNotFound", err)
	}
	if _, err := hrpc.NewNamespace("bad-ns"); !errors.Is(err, hberr.ErrInvalidName) {
		t.Fatalf("NewNamespace(bad-ns): %v; want hberr.ErrInvalidName", err)
	}
}

// TestAdminClusterStatusLocality reads the status of the 3-server cluster: the master, the
// live servers, and the load of a table's regions after writes, reads, a flush and a major
// compaction, with data locality.
func TestAdminClusterStatusLocality(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	name := adminTableName(t, "s")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("r1"), []byte("r2"))); err != nil {
		t.Fatal(err)
	}
	rows := []string{"r0a", "r0b", "r1a", "r1b", "r2a", "r2b"}
	adminPut(t, c, ctx, name, rows...)
	for _, r := range rows {
		g, _ := hrpc.NewGet(name, []byte(r))
		if _, err := c.Get(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.FlushTable(ctx, name); err != nil {
		t.Fatalf("FlushTable: %v", err)
	}
	if err := a.CompactTable(ctx, name, true); err != nil {
		t.Fatalf("CompactTable(major): %v", err)
	}

	// Region servers report every few seconds (hbase.regionserver.msginterval): wait for
	// reports that show the writes, the reads and the flushed files.
	var st *hrpc.ClusterStatus
	var mine []hrpc.RegionLoad
	var servers map[string]bool
	for {
		st, err = a.ClusterStatus(ctx)
		if err != nil {
			t.Fatalf("ClusterStatus: %v", err)
		}
		mine, servers = nil, map[string]bool{}
		for _, s := range st.LiveServers {
			for _, rl := range s.Regions {
				if rl.Table == name {
					mine = append(mine, rl)
					servers[s.Server.Addr()] = true
				}
			}
		}
		settled := len(mine) == 3
		for _, rl := range mine {
			// CompactTable returns once the compactions are queued: wait for the major one too.
			settled = settled && rl.WriteRequests >= 2 && rl.ReadRequests >= 2 && rl.StoreFiles >= 1 && rl.DataLocality > 0 &&
				rl.LastMajorCompaction > 0
		}
		if settled {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the status never showed the table's load: %+v", mine)
		case <-time.After(time.Second):
		}
	}
	if st.Master.Port == 0 || st.Master.StartCode == 0 || st.ClusterID == "" {
		t.Fatalf("master %v, cluster id %q; want both", st.Master, st.ClusterID)
	}
	if len(st.LiveServers) != 3 {
		t.Fatalf("%d live servers; want 3", len(st.LiveServers))
	}
	total := 0
	for _, s := range st.LiveServers {
		total += len(s.Regions)
		if s.Server.StartCode == 0 || s.MaxHeapMB == 0 {
			t.Fatalf("server %+v: want a start code and a heap size", s.Server)
		}
	}
	if total != st.Regions() || total < 3+1 {
		t.Fatalf("regions = %d (Regions() %d); want the table's 3 and hbase:meta at least", total, st.Regions())
	}
	// The launcher's cluster keeps its files on the local file system (no HDFS data nodes):
	// every block is local, and HBase reports a locality of 1 without block weights. With
	// weights, locality is their ratio.
	for _, rl := range mine {
		if rl.Encoded == "" || len(rl.Name) == 0 || rl.DataLocality > 1 || rl.Stores != 1 ||
			rl.BlocksLocalWeight > rl.BlocksTotalWeight || rl.LastMajorCompaction == 0 {
			t.Fatalf("region load %+v: want names, 1 store, locality in (0, 1], a major compaction time", rl)
		}
		if rl.BlocksTotalWeight > 0 {
			if want := float32(rl.BlocksLocalWeight) / float32(rl.BlocksTotalWeight); rl.DataLocality < want-0.01 || rl.DataLocality > want+0.01 {
				t.Fatalf("region %s: locality %.3f; want local/total weights %.3f", rl.Encoded, rl.DataLocality, want)
			}
		}
		t.Logf("region %s: reads %d writes %d stores %d files %d filesMB %d memstoreMB %d locality %.2f (%d/%d)",
			rl.Encoded, rl.ReadRequests, rl.WriteRequests, rl.Stores, rl.StoreFiles, rl.StoreFileSizeMB,
			rl.MemStoreSizeMB, rl.DataLocality, rl.BlocksLocalWeight, rl.BlocksTotalWeight)
	}
	t.Logf("master %s, %d backup masters, %d live servers (the table on %d), %d dead, %d regions in transition",
		st.Master, len(st.BackupMasters), len(st.LiveServers), len(servers), len(st.DeadServers), st.RegionsInTransition)
}

func TestAdminRegions(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 4*time.Minute)
	name := adminTableName(t, "r")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("c"), []byte("f"), []byte("m"), []byte("s"), []byte("w"))); err != nil {
		t.Fatal(err)
	}
	rows := []string{"a", "g", "k", "p", "t", "x", "z"}
	adminPut(t, c, ctx, name, rows...)
	mustRegions := func(want []string) []*hrpc.Region {
		t.Helper()
		rs, err := a.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := regionStarts(rs); !slices.Equal(got, want) {
			t.Fatalf("region starts = %q; want %q", got, want)
		}
		return rs
	}

	// Merge the first two regions (full names), and the next two (encoded names).
	rs := mustRegions([]string{"", "c", "f", "m", "s", "w"})
	if err := a.MergeRegions(ctx, false, rs[0].Name, rs[1].Name); err != nil {
		t.Fatalf("MergeRegions: %v", err)
	}
	if err := a.MergeRegions(ctx, false, []byte(rs[2].Encoded), []byte(rs[3].Encoded)); err != nil {
		t.Fatalf("MergeRegions(encoded): %v", err)
	}
	rs = mustRegions([]string{"", "f", "s", "w"})
	// A region a merge has just made is found by its encoded name at once, before its
	// server's next report to the master (every 3 s) names it.
	for _, want := range rs[:2] {
		got, err := a.Region(ctx, []byte(want.Encoded))
		if err != nil {
			t.Fatalf("Region(%s) just after the merge: %v", want.Encoded, err)
		}
		if got.Table != name || !bytes.Equal(got.Name, want.Name) || got.Server != want.Server {
			t.Fatalf("Region(%s) = %+v; want %+v", want.Encoded, got, want)
		}
	}

	// Split the table at a key, then a region (by encoded name) at another. (Regions made by
	// a merge or a split hold references to their parents' files and HBase splits them only
	// after a compaction has rewritten those, so the splits are of regions made by the create.)
	if err := a.SplitTable(ctx, name, []byte("u")); err != nil {
		t.Fatalf("SplitTable: %v", err)
	}
	rs = mustRegions([]string{"", "f", "s", "u", "w"})
	if err := a.SplitRegion(ctx, []byte(rs[4].Encoded), []byte("y")); err != nil {
		t.Fatalf("SplitRegion: %v", err)
	}
	rs = mustRegions([]string{"", "f", "s", "u", "w", "y"})
	if err := a.SplitRegion(ctx, rs[0].Name, []byte("x")); !errors.Is(err, hberr.ErrBadRequest) {
		t.Fatalf("SplitRegion outside the region: %v; want ErrInvalidOption", err)
	}
	if got := adminRows(t, c, ctx, name); !slices.Equal(got, rows) {
		t.Fatalf("rows after merges and splits = %q; want %q", got, rows)
	}

	// Move the first region to another server, then anywhere.
	st, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var dest hrpc.ServerName
	for _, s := range st.LiveServers {
		if s.Server.Addr() != rs[0].Server.Addr() {
			dest = s.Server
		}
	}
	if err := a.MoveRegion(ctx, rs[0].Name, dest.Addr()); err != nil {
		t.Fatalf("MoveRegion to %s: %v", dest.Addr(), err)
	}
	rs = mustRegions([]string{"", "f", "s", "u", "w", "y"})
	if rs[0].Server.Addr() != dest.Addr() {
		t.Fatalf("region on %s after the move; want %s", rs[0].Server.Addr(), dest.Addr())
	}
	if err := a.MoveRegion(ctx, []byte(rs[0].Encoded), ""); err != nil {
		t.Fatalf("MoveRegion anywhere: %v", err)
	}
	if err := a.MoveRegion(ctx, []byte(rs[0].Encoded), "localhost:1"); !errors.Is(err, hberr.ErrServerNotFound) {
		t.Fatalf("MoveRegion to no server: %v; want hberr.ErrServerNotFound", err)
	}
	if got := adminRows(t, c, ctx, name); !slices.Equal(got, rows) {
		t.Fatalf("rows after moves = %q; want %q", got, rows)
	}

	// Unassign: the region's rows are unavailable until it is assigned again.
	rs = mustRegions([]string{"", "f", "s", "u", "w", "y"})
	if err := a.UnassignRegion(ctx, rs[2].Name); err != nil {
		t.Fatalf("UnassignRegion: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	g, _ := hrpc.NewGet(name, []byte("t"))
	_, err = c.Get(short, g)
	cancel()
	if err == nil {
		t.Fatal("Get from an unassigned region succeeded")
	}
	if err := a.AssignRegion(ctx, rs[2].Name); err != nil {
		t.Fatalf("AssignRegion: %v", err)
	}
	if res, err := c.Get(ctx, g); err != nil || len(res.Cells) != 1 {
		t.Fatalf("Get after AssignRegion = %v, %v; want the row", res, err)
	}

	// Flush and compact regions by full and encoded name.
	adminPut(t, c, ctx, name, "b", "q")
	rs = mustRegions([]string{"", "f", "s", "u", "w", "y"})
	if err := a.FlushRegion(ctx, rs[0].Name); err != nil {
		t.Fatalf("FlushRegion: %v", err)
	}
	if err := a.FlushRegion(ctx, []byte(rs[1].Encoded)); err != nil {
		t.Fatalf("FlushRegion(encoded): %v", err)
	}
	if err := a.CompactRegion(ctx, rs[0].Name, false); err != nil {
		t.Fatalf("CompactRegion: %v", err)
	}
	if err := a.CompactRegion(ctx, []byte(rs[1].Encoded), true); err != nil {
		t.Fatalf("CompactRegion(major): %v", err)
	}
	if err := a.FlushRegion(ctx, []byte("0123456789abcdef0123456789abcdef")); !errors.Is(err, hberr.ErrRegionNotFound) {
		t.Fatalf("FlushRegion of no region: %v; want hberr.ErrRegionNotFound", err)
	}
	// The flushed files show in the servers' reports.
	for {
		st, err := a.ClusterStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		files := 0
		for _, s := range st.LiveServers {
			for _, rl := range s.Regions {
				if rl.Table == name {
					files += int(rl.StoreFiles)
				}
			}
		}
		if files >= 2 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no store files reported after the flushes (%d)", files)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func TestAdminBalancerNormalizer(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 2*time.Minute)
	was, err := a.BalancerEnabled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = a.SetBalancer(ctx, was)
	})
	if prev, err := a.SetBalancer(ctx, false); err != nil || prev != was {
		t.Fatalf("SetBalancer(false) = %v, %v; want the previous state %v", prev, err, was)
	}
	if ran, err := a.Balance(ctx); err != nil || ran {
		t.Fatalf("Balance with the balancer off = %v, %v; want false", ran, err)
	}
	if prev, err := a.SetBalancer(ctx, true); err != nil || prev {
		t.Fatalf("SetBalancer(true) = %v, %v; want previous false", prev, err)
	}
	if on, err := a.BalancerEnabled(ctx); err != nil || !on {
		t.Fatalf("BalancerEnabled = %v, %v; want true", on, err)
	}
	// With the balancer on it runs, unless regions are in transition at that moment.
	var ran bool
	for !ran {
		if ran, err = a.Balance(ctx); err != nil {
			t.Fatalf("Balance: %v", err)
		}
		if !ran {
			select {
			case <-ctx.Done():
				t.Fatal("the balancer never ran")
			case <-time.After(500 * time.Millisecond):
			}
		}
	}

	nwas, err := a.NormalizerEnabled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = a.SetNormalizer(ctx, nwas)
	})
	if prev, err := a.SetNormalizer(ctx, !nwas); err != nil || prev != nwas {
		t.Fatalf("SetNormalizer(%v) = %v, %v; want %v", !nwas, prev, err, nwas)
	}
	if on, err := a.NormalizerEnabled(ctx); err != nil || on != !nwas {
		t.Fatalf("NormalizerEnabled = %v, %v; want %v", on, err, !nwas)
	}
}

func TestAdminSnapshots(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	name := adminTableName(t, "n")
	clone := name + "_clone"
	snap := name + "_snap"
	adminDropLater(t, a, name)
	adminDropLater(t, a, clone)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = a.DeleteSnapshot(ctx, snap)
	})
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f", hrpc.Versions(3)))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"))); err != nil {
		t.Fatal(err)
	}
	adminPut(t, c, ctx, name, "a", "z")
	if err := a.Snapshot(ctx, snap, name); err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if err := a.Snapshot(ctx, snap, name); !errors.Is(err, hberr.ErrSnapshotExists) {
		t.Fatalf("Snapshot again: %v; want hberr.ErrSnapshotExists", err)
	}
	snaps, err := a.ListSnapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(snaps, func(s hrpc.Snapshot) bool { return s.Name == snap })
	if i < 0 || snaps[i].Table != name || snaps[i].Created.IsZero() || time.Since(snaps[i].Created) > 5*time.Minute {
		t.Fatalf("ListSnapshots = %+v; want %s of %s, just taken", snaps, snap, name)
	}

	// Clone into a new table: same data, same descriptor.
	if err := a.CloneSnapshot(ctx, snap, clone); err != nil {
		t.Fatalf("CloneSnapshot: %v", err)
	}
	if got := adminRows(t, c, ctx, clone); !slices.Equal(got, []string{"a", "z"}) {
		t.Fatalf("rows of the clone = %q; want [a z]", got)
	}
	if d, err := a.DescribeTable(ctx, clone); err != nil || d.Family("f") == nil || d.Family("f").MaxVersions != 3 {
		t.Fatalf("clone's descriptor = %+v, %v; want f with 3 versions", d, err)
	}
	if rs, err := a.Regions(ctx, clone); err != nil || len(rs) != 2 {
		t.Fatalf("clone's regions = %d, %v; want 2", len(rs), err)
	}
	if err := a.CloneSnapshot(ctx, snap, clone); !errors.Is(err, hberr.ErrTableExists) {
		t.Fatalf("CloneSnapshot onto an existing table: %v; want hberr.ErrTableExists", err)
	}

	// Restore: the rows written since are gone; the table must be disabled first.
	adminPut(t, c, ctx, name, "b", "y")
	if err := a.RestoreSnapshot(ctx, snap); !errors.Is(err, hberr.ErrTableNotDisabled) {
		t.Fatalf("RestoreSnapshot of an enabled table: %v; want hberr.ErrTableNotDisabled", err)
	}
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.RestoreSnapshot(ctx, snap); err != nil {
		t.Fatalf("RestoreSnapshot: %v", err)
	}
	if err := a.EnableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if got := adminRows(t, c, ctx, name); !slices.Equal(got, []string{"a", "z"}) {
		t.Fatalf("rows after restore = %q; want [a z]", got)
	}

	if err := a.DeleteSnapshot(ctx, snap); err != nil {
		t.Fatalf("DeleteSnapshot: %v", err)
	}
	if err := a.DeleteSnapshot(ctx, snap); !errors.Is(err, hberr.ErrSnapshotNotFound) || !hberr.IsNotFound(err) {
		t.Fatalf("DeleteSnapshot again: %v; want hberr.ErrSnapshotNotFound", err)
	}
	if err := a.RestoreSnapshot(ctx, snap); !errors.Is(err, hberr.ErrSnapshotNotFound) {
		t.Fatalf("RestoreSnapshot of no snapshot: %v; want hberr.ErrSnapshotNotFound", err)
	}
	// The master refuses a snapshot of a missing table with a SnapshotCreationException;
	// the caller gets hberr.ErrTableNotFound, as the docs promise for every missing table.
	if err := a.Snapshot(ctx, snap+"_missing", name+"_missing"); !errors.Is(err, hberr.ErrTableNotFound) || !hberr.IsNotFound(err) {
		t.Fatalf("Snapshot of a missing table: %v; want hberr.ErrTableNotFound", err)
	}
	if err := a.Snapshot(ctx, "bad name", name); !errors.Is(err, hberr.ErrInvalidName) {
		t.Fatalf("Snapshot(bad name): %v; want hberr.ErrInvalidName", err)
	}
}

// TestAdminBootstrapRegistry: a client that knows only a region server (no ZooKeeper) finds
// the active master through the servers' connection registry (GetActiveMaster).
func TestAdminBootstrapRegistry(t *testing.T) {
	cl := testCluster(t)
	if !cl.AtLeast(2, 5) {
		t.Skip("region servers serve the connection registry from HBase 2.5")
	}
	ctx := testContext(t, 2*time.Minute)
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := hbase.NewClient("", hbase.WithBootstrapServers(st.RegionServers[0].Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a := New(c)
	status, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatalf("ClusterStatus through the bootstrap registry: %v", err)
	}
	if status.Master.Addr() != cl.MasterAddr || len(status.LiveServers) != 3 {
		t.Fatalf("master %s, %d live servers; want %s and 3", status.Master.Addr(), len(status.LiveServers), cl.MasterAddr)
	}
	name := adminTableName(t, "b")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatalf("CreateTable through the bootstrap registry: %v", err)
	}
	adminPut(t, c, ctx, name, "r")
	if rows := adminRows(t, c, ctx, name); !slices.Equal(rows, []string{"r"}) {
		t.Fatalf("rows = %q; want [r]", rows)
	}
}

// TestAdminMasterRestart kills the master while a create-table procedure runs and starts a
// new one: CreateTable, waiting on the procedure all along, must find the new master through
// ZooKeeper and return once the table is created, without error. It runs last: it takes the
// shared cluster's master away for a while.
func TestAdminMasterRestart(t *testing.T) {
	cl := testCluster(t)
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 4*time.Minute)
	name := adminTableName(t, "m")
	adminDropLater(t, a, name)
	before, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Enough regions that assigning them takes a while on the mini cluster.
	var splits [][]byte
	for i := 1; i < 120; i++ {
		splits = append(splits, fmt.Appendf(nil, "%04d", i))
	}
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- a.CreateTable(ctx, desc, hrpc.SplitKeys(splits...)) }()

	// Kill the master as soon as the procedure has put the table in hbase:meta (state
	// ENABLING): the regions are being assigned then.
	probe := New(newTestClient(t))
	for {
		enabled, err := probe.TableEnabled(ctx, name)
		if err == nil && !enabled {
			break
		}
		if err == nil && enabled {
			t.Fatal("the table was created before the master could be killed: inconclusive, make the table bigger")
		}
		select {
		case err := <-done:
			t.Fatalf("CreateTable returned (%v) before the master could be killed: inconclusive", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	killAt := time.Since(start)
	if err := cl.KillMaster(ctx); err != nil {
		t.Fatalf("KillMaster: %v", err)
	}
	select {
	case err := <-done:
		t.Fatalf("CreateTable returned (%v) while the master was down; want it to wait", err)
	default:
	}
	m, err := cl.StartMaster(ctx)
	if err != nil {
		t.Fatalf("StartMaster: %v", err)
	}
	restartedAt := time.Since(start)
	if err := <-done; err != nil {
		t.Fatalf("CreateTable across the master restart: %v", err)
	}
	t.Logf("procedure started, master killed at %v, new master %s active at %v, CreateTable returned at %v",
		killAt.Round(time.Millisecond), m.Addr, restartedAt.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))

	if on, err := a.TableEnabled(ctx, name); err != nil || !on {
		t.Fatalf("TableEnabled after the restart = %v, %v; want true", on, err)
	}
	rs, err := a.Regions(ctx, name)
	if err != nil || len(rs) != len(splits)+1 {
		t.Fatalf("regions = %d, %v; want %d", len(rs), err, len(splits)+1)
	}
	after, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Master.StartCode == before.Master.StartCode {
		t.Fatalf("master start code %d before and after; want a new master", after.Master.StartCode)
	}
	adminPut(t, c, ctx, name, "0001", "0119")
	if got := adminRows(t, c, ctx, name); !slices.Equal(got, []string{"0001", "0119"}) {
		t.Fatalf("rows = %q; want [0001 0119]", got)
	}
}
