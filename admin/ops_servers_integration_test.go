package admin

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// waitFor polls cond every 100 ms until it holds or ctx ends.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// storeFiles is the number of store files the master's status gives the region.
func storeFiles(t *testing.T, a *Admin, ctx context.Context, encoded string) int {
	t.Helper()
	st, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.LiveServers {
		for _, r := range s.Regions {
			if r.Encoded == encoded {
				return int(r.StoreFiles)
			}
		}
	}
	return -1
}

func putFamily(t *testing.T, c *hbase.Client, ctx context.Context, table, family string, rows ...string) {
	t.Helper()
	for _, r := range rows {
		p, err := hrpc.NewPut(table, []byte(r), hrpc.Value([]byte(family), []byte("q"), []byte("v-"+r)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Put(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
}

// Flushes and compactions of one family, of one region, of every region of one server, the
// compaction switch, compaction state and last major compaction: each by its effect on the
// store files the servers report, and the last major compaction as the Java Admin gives it.
func TestAdminCompactionsAndFlushes(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 4*time.Minute)
	cl := testCluster(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = a.CompactionSwitch(ctx, true)
	})
	name := adminTableName(t, "cmp")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"), hrpc.WithFamily("g"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	rs, err := a.Regions(ctx, name)
	if err != nil || len(rs) != 1 {
		t.Fatalf("Regions = %v, %v", rs, err)
	}
	r := rs[0]
	files := func(want int) {
		t.Helper()
		last := -2
		waitFor(t, ctx, strconv.Itoa(want)+" store files", func() bool {
			n := storeFiles(t, a, ctx, r.Encoded)
			if n != last {
				t.Logf("store files of %s: %d (want %d)", r.Encoded, n, want)
				last = n
			}
			return n == want
		})
	}
	if ts, err := a.LastMajorCompaction(ctx, name); err != nil || !ts.IsZero() {
		t.Fatalf("LastMajorCompaction of a new table = %v, %v; want none", ts, err)
	}

	// One family at a time: f's memstore to a file, g's untouched, then g's. (Two files of a
	// store at most: a flush that leaves three has the server compact them, the default
	// hbase.hstore.compactionThreshold.)
	for i := range 2 {
		putFamily(t, c, ctx, name, "f", "r"+strconv.Itoa(i))
		if err := a.FlushFamily(ctx, name, "f"); err != nil {
			t.Fatalf("FlushFamily(f): %v", err)
		}
	}
	putFamily(t, c, ctx, name, "g", "r")
	files(2)
	if err := a.FlushRegionFamily(ctx, []byte(r.Encoded), "g"); err != nil {
		t.Fatalf("FlushRegionFamily(g): %v", err)
	}
	files(3)

	// Compactions switched off on every server: a major compaction is dropped.
	prev, err := a.CompactionSwitch(ctx, false)
	if err != nil || len(prev) != 3 {
		t.Fatalf("CompactionSwitch(false) = %v, %v; want 3 servers", prev, err)
	}
	for sn, on := range prev {
		if !on {
			t.Fatalf("CompactionSwitch: %s had compactions off", sn)
		}
	}
	if err := a.CompactRegionFamily(ctx, r.Name, "f", true); err != nil {
		t.Fatalf("CompactRegionFamily while off: %v", err)
	}
	time.Sleep(2 * time.Second) // two of the servers' reports
	if n := storeFiles(t, a, ctx, r.Encoded); n != 3 {
		t.Fatalf("store files after a compaction while compactions are off = %d; want 3", n)
	}
	if _, err := a.CompactionSwitch(ctx, true); err != nil {
		t.Fatal(err)
	}

	// f's two files into one, g's left alone; its state MAJOR while it runs, if seen.
	if err := a.CompactFamily(ctx, name, "f", true); err != nil {
		t.Fatalf("CompactFamily(f): %v", err)
	}
	seen := map[CompactionState]bool{}
	waitFor(t, ctx, "f compacted", func() bool {
		st, err := a.TableCompactionState(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		seen[st] = true
		return storeFiles(t, a, ctx, r.Encoded) == 2
	})
	t.Logf("compaction states seen while f was compacted: %v", seen)
	if st, err := a.RegionCompactionState(ctx, r.Name); err != nil || st != CompactionNone {
		t.Fatalf("RegionCompactionState after = %v, %v; want NONE", st, err)
	}

	// The whole server's regions, major: the last major compaction advances, for the region
	// and the table, and the Java Admin gives the table's the same.
	before := time.Now().Add(-time.Second)
	if err := a.CompactRegionServer(ctx, r.Server.String(), true); err != nil {
		t.Fatalf("CompactRegionServer: %v", err)
	}
	var last time.Time
	waitFor(t, ctx, "the last major compaction to advance", func() bool {
		last, err = a.RegionLastMajorCompaction(ctx, r.Name)
		if err != nil {
			t.Fatal(err)
		}
		return last.After(before)
	})
	files(2)
	// The server compacts every store it holds: the table's other stores may still be
	// compacting when this region's time advanced. Both clients are read once they agree
	// the table's compactions ended (a CI run met the Java Admin's MAJOR just before).
	var js map[string]string
	waitFor(t, ctx, "the table's compactions to end, as both clients see them", func() bool {
		st, err := a.TableCompactionState(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if js, err = cl.JavaAdminState(ctx, name); err != nil {
			t.Fatal(err)
		}
		return st == CompactionNone && js["compactionState"] == "NONE"
	})
	tableLast, err := a.LastMajorCompaction(ctx, name)
	if err != nil || tableLast.Before(before) {
		t.Fatalf("LastMajorCompaction = %v, %v; want after %v", tableLast, err, before)
	}
	if js["lastMajorCompaction"] != strconv.FormatInt(tableLast.UnixMilli(), 10) {
		t.Fatalf("the Java Admin: last major compaction %s; go-hbase %d", js["lastMajorCompaction"], tableLast.UnixMilli())
	}

	// The server's memstores to files: a put to g becomes a third file.
	putFamily(t, c, ctx, name, "g", "s")
	if err := a.FlushRegionServer(ctx, r.Server.Addr()); err != nil {
		t.Fatalf("FlushRegionServer: %v", err)
	}
	files(3)

	// Bad input: typed, naming what was wrong, nothing flushed or compacted.
	for _, bad := range []struct {
		what string
		err  error
		want error
	}{
		{"FlushFamily(\"\")", a.FlushFamily(ctx, name, ""), hberr.ErrBadRequest},
		{"CompactFamily(a:b)", a.CompactFamily(ctx, name, "a:b", true), hberr.ErrInvalidName},
		{"FlushFamily(no such family)", a.FlushFamily(ctx, name, "nofam"), hberr.ErrNoSuchFamily},
		{"CompactFamily(no such family)", a.CompactFamily(ctx, name, "nofam", true), hberr.ErrNoSuchFamily},
		{"CompactRegionServer(no server)", a.CompactRegionServer(ctx, "localhost:1", true), hberr.ErrServerNotFound},
		{"FlushRegionServer(no server)", a.FlushRegionServer(ctx, "nohost"), hberr.ErrServerNotFound},
		{"RegionCompactionState(no region)", func() error {
			_, err := a.RegionCompactionState(ctx, []byte("0123456789abcdef0123456789abcdef"))
			return err
		}(), hberr.ErrRegionNotFound},
		{"LastMajorCompaction(no table)", func() error { _, err := a.LastMajorCompaction(ctx, name+"_none"); return err }(), hberr.ErrTableNotFound},
		{"TableCompactionState(no table)", func() error { _, err := a.TableCompactionState(ctx, name+"_none"); return err }(), hberr.ErrTableNotFound},
	} {
		if !errors.Is(bad.err, bad.want) {
			t.Errorf("%s: %v; want %v", bad.what, bad.err, bad.want)
		} else {
			t.Logf("%s: %v", bad.what, bad.err)
		}
	}
	if n := storeFiles(t, a, ctx, r.Encoded); n != 3 {
		t.Fatalf("store files after the refused calls = %d; want 3", n)
	}
}

// A decommissioned server gets no region from moves or the balancer, and gets regions back
// once recommissioned; the lists agree with the Java Admin's.
func TestAdminDecommission(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 4*time.Minute)
	cl := testCluster(t)
	name := adminTableName(t, "dec")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("b"), []byte("d"), []byte("f"), []byte("h"), []byte("j"))); err != nil {
		t.Fatal(err)
	}
	st, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	server := st.LiveServers[0].Server
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = a.RecommissionServer(ctx, server.String())
	})
	on := func() []*hrpc.Region {
		t.Helper()
		rs, err := a.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		var out []*hrpc.Region
		for _, r := range rs {
			if r.Server.Addr() == server.Addr() {
				out = append(out, r)
			}
		}
		return out
	}

	// Decommissioned with offload: its regions of the table move away.
	if err := a.DecommissionServers(ctx, true, server.Addr()); err != nil {
		t.Fatalf("DecommissionServers: %v", err)
	}
	dec, err := a.DecommissionedServers(ctx)
	if err != nil || len(dec) != 1 || dec[0] != server {
		t.Fatalf("DecommissionedServers = %v, %v; want [%s]", dec, err, server)
	}
	js, err := cl.JavaAdminState(ctx, "")
	if err != nil || js["decommissioned"] != server.String() {
		t.Fatalf("the Java Admin's decommissioned servers = %q, %v; want %s", js["decommissioned"], err, server)
	}
	waitFor(t, ctx, "the decommissioned server's regions to move away", func() bool { return len(on()) == 0 })

	// Moves anywhere and a balancer run leave it empty.
	rs, err := a.Regions(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if err := a.MoveRegion(ctx, r.Name, ""); err != nil {
			t.Fatalf("MoveRegion: %v", err)
		}
	}
	if _, err := a.SetBalancer(ctx, true); err != nil {
		t.Fatal(err)
	}
	_, err = a.Balance(ctx)
	if _, err2 := a.SetBalancer(ctx, false); err != nil || err2 != nil {
		t.Fatalf("Balance: %v, %v", err, err2)
	}
	time.Sleep(time.Second)
	if got := on(); len(got) != 0 {
		t.Fatalf("after moves and a balance: %d regions on the decommissioned server", len(got))
	}

	// Recommissioned with two regions: they move back.
	back := [][]byte{rs[0].Name, []byte(rs[3].Encoded)}
	if err := a.RecommissionServer(ctx, server.String(), back...); err != nil {
		t.Fatalf("RecommissionServer: %v", err)
	}
	waitFor(t, ctx, "two regions back on the recommissioned server", func() bool { return len(on()) == 2 })
	if dec, err := a.DecommissionedServers(ctx); err != nil || len(dec) != 0 {
		t.Fatalf("DecommissionedServers after the recommission = %v, %v; want none", dec, err)
	}

	// Bad input: typed, and nobody decommissioned.
	for _, err := range []error{a.DecommissionServers(ctx, false), a.DecommissionServers(ctx, false, "localhost:1"),
		a.RecommissionServer(ctx, "nohost:2")} {
		if !errors.Is(err, hberr.ErrServerNotFound) {
			t.Fatalf("decommissioning no live server: %v; want hberr.ErrServerNotFound", err)
		}
	}
	if dec, err := a.DecommissionedServers(ctx); err != nil || len(dec) != 0 {
		t.Fatalf("DecommissionedServers after refused calls = %v, %v; want none", dec, err)
	}
}

// The calls about one server: its regions named as hbase:meta names them, the block cache
// evicted, its WAL rolled (new files, as the server says), the configuration read again.
func TestAdminServerCalls(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	name := adminTableName(t, "srv")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte(","), []byte("m\xff"))); err != nil {
		t.Fatal(err)
	}
	rs, err := a.Regions(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	cl := testCluster(t)
	for _, r := range rs {
		names, err := a.ServerRegions(ctx, r.Server.String())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(names, func(n []byte) bool { return bytes.Equal(n, r.Name) }) {
			t.Fatalf("ServerRegions(%s) = %q; want it to hold %q", r.Server, names, r.Name)
		}
		java, err := cl.JavaServerRegions(ctx, r.Server.String())
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(names, bytes.Compare)
		slices.SortFunc(java, bytes.Compare)
		if !slices.EqualFunc(names, java, bytes.Equal) {
			t.Fatalf("ServerRegions(%s) = %q; the Java Admin's getRegions gives %q", r.Server, names, java)
		}
	}

	// The block cache: rows read from files are cached; clearing evicts them, once.
	adminPut(t, c, ctx, name, "a", "n", "z", ",x")
	if err := a.FlushTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	adminRows(t, c, ctx, name)
	stats, err := a.ClearBlockCache(ctx, name)
	// (HBase 2.6 counts the blocks and the cache size, not the bytes: EvictedBytes stays 0.)
	if err != nil || stats.EvictedBlocks == 0 || stats.MaxCacheSize == 0 || len(stats.Failed) != 0 {
		t.Fatalf("ClearBlockCache = %+v, %v; want blocks evicted", stats, err)
	}
	if again, err := a.ClearBlockCache(ctx, name); err != nil || again.EvictedBlocks != 0 {
		t.Fatalf("ClearBlockCache again = %+v, %v; want nothing left", again, err)
	}

	st, err := a.ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	status, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// The WAL rolled: each of the server's write-ahead logs is a new file, the other servers'
	// are the same.
	wals := func() [][]string {
		t.Helper()
		var out [][]string
		for i, s := range status.RegionServers {
			if !s.Live {
				out = append(out, nil)
				continue
			}
			w, err := cl.ServerWALs(ctx, i)
			if err != nil || len(w) == 0 {
				t.Fatalf("ServerWALs(%d) = %q, %v; want a WAL", i, w, err)
			}
			out = append(out, w)
		}
		return out
	}
	rolled := slices.IndexFunc(status.RegionServers, func(s hbasetest.Server) bool { return s.Addr == rs[0].Server.Addr() })
	if rolled < 0 {
		t.Fatalf("region server %s is not in the launcher's status %+v", rs[0].Server, status.RegionServers)
	}
	before := wals()
	if err := a.RollWALWriter(ctx, rs[0].Server.Addr()); err != nil {
		t.Fatalf("RollWALWriter: %v", err)
	}
	var after [][]string
	waitFor(t, ctx, "the server's log roller to roll its WALs", func() bool {
		after = wals()
		return !slices.Equal(before[rolled], after[rolled])
	})
	for i := range before {
		changed := !slices.Equal(before[i], after[i])
		if changed != (i == rolled) || i == rolled && slices.ContainsFunc(after[i], func(f string) bool { return slices.Contains(before[i], f) }) {
			t.Fatalf("WALs of region server %d: %q before RollWALWriter(%s), %q after; want new files on %d only",
				i, before[i], rs[0].Server, after[i], rolled)
		}
	}
	t.Logf("RollWALWriter(%s): %q to %q", rs[0].Server, before[rolled], after[rolled])

	// A setting changed in a configuration file reaches the server reloaded, and only it, then
	// every server (hbasetest's live site file, which the servers read again only when told).
	key := "gohbase.test.live." + name
	if err := cl.SetLiveSite(ctx, key, "v1"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.SetLiveSite(ctx, key, "") })
	confs := func() []string {
		t.Helper()
		var out []string
		for _, i := range []int{-1, 0, 1, 2} {
			v, _, err := cl.ServerConf(ctx, i, key)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return out
	}
	if got := confs(); !slices.Equal(got, []string{"", "", "", ""}) {
		t.Fatalf("before a reload: master and servers see %q; want nothing", got)
	}
	if err := a.UpdateConfiguration(ctx, status.RegionServers[1].Addr); err != nil {
		t.Fatalf("UpdateConfiguration(region server 1): %v", err)
	}
	if got := confs(); !slices.Equal(got, []string{"", "", "v1", ""}) {
		t.Fatalf("after UpdateConfiguration of region server 1: master and servers see %q; want it on 1 only", got)
	}
	if err := a.UpdateConfiguration(ctx, st.Master.String()); err != nil {
		t.Fatalf("UpdateConfiguration(master): %v", err)
	}
	if got := confs(); !slices.Equal(got, []string{"v1", "", "v1", ""}) {
		t.Fatalf("after UpdateConfiguration of the master: master and servers see %q", got)
	}
	if err := cl.SetLiveSite(ctx, key, "v2"); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateAllConfigurations(ctx); err != nil {
		t.Fatalf("UpdateAllConfigurations: %v", err)
	}
	if got := confs(); !slices.Equal(got, []string{"v2", "v2", "v2", "v2"}) {
		t.Fatalf("after UpdateAllConfigurations: master and servers see %q; want v2 everywhere", got)
	}
	for _, bad := range []error{
		a.RollWALWriter(ctx, "localhost:1"), a.UpdateConfiguration(ctx, "localhost:1"),
		func() error { _, err := a.ServerRegions(ctx, "x"); return err }(),
		func() error { _, err := a.CompactionSwitch(ctx, true, "localhost:1"); return err }(),
	} {
		if !errors.Is(bad, hberr.ErrServerNotFound) || !strings.Contains(bad.Error(), "localhost:1") && !strings.Contains(bad.Error(), "\"x\"") {
			t.Errorf("a call on no live server: %v; want hberr.ErrServerNotFound naming it", bad)
		}
	}
	if _, err := a.ClearBlockCache(ctx, name+"_none"); !errors.Is(err, hberr.ErrTableNotFound) {
		t.Errorf("ClearBlockCache(no table): %v; want hberr.ErrTableNotFound", err)
	}
}
