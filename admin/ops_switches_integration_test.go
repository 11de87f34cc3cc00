package admin

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// The split and merge switches by their effect: a split or merge refused while off (typed,
// the regions as they were), done once on again; a merge of regions that are not adjacent
// refused; the Java Admin sees each switch as go-hbase set it.
func TestAdminSplitMergeSwitches(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	cl := testCluster(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = a.SetSplit(ctx, true)
		_, _ = a.SetMerge(ctx, true)
	})
	name := adminTableName(t, "sw")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	adminPut(t, c, ctx, name, "a", "k", "t")
	starts := func() []string {
		t.Helper()
		rs, err := a.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return regionStarts(rs)
	}
	javaSays := func(key, want string) {
		t.Helper()
		st, err := cl.JavaAdminState(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if st[key] != want {
			t.Fatalf("the Java Admin's %s = %q; want %q", key, st[key], want)
		}
	}

	prev, err := a.SetSplit(ctx, false)
	if err != nil || !prev {
		t.Fatalf("SetSplit(false) = %v, %v; want it was on", prev, err)
	}
	if on, err := a.SplitEnabled(ctx); err != nil || on {
		t.Fatalf("SplitEnabled = %v, %v; want false", on, err)
	}
	javaSays("split", "false")
	err = a.SplitTable(ctx, name, []byte("h"))
	if !errors.Is(err, hberr.ErrSwitchedOff) || !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("SplitTable while splits are off: %v; want hberr.ErrSwitchedOff", err)
	}
	t.Logf("refused split: %v", err)
	if got := starts(); len(got) != 1 {
		t.Fatalf("after the refused split: regions %q; want one", got)
	}
	if prev, err := a.SetSplit(ctx, true); err != nil || prev {
		t.Fatalf("SetSplit(true) = %v, %v; want it was off", prev, err)
	}
	javaSays("split", "true")
	if err := a.SplitTable(ctx, name, []byte("h")); err != nil {
		t.Fatalf("SplitTable once splits are on: %v", err)
	}
	// A daughter holds references to its parent's files until it compacts them, and HBase
	// refuses to split it meanwhile ("... NOT splittable").
	waitFor(t, ctx, "the daughter [h, \"\") to be splittable", func() bool {
		err := a.SplitTable(ctx, name, []byte("p"))
		if err != nil && !strings.Contains(err.Error(), "NOT splittable") {
			t.Fatalf("SplitTable: %v", err)
		}
		return err == nil
	})
	rs, err := a.Regions(ctx, name)
	if err != nil || len(rs) != 3 {
		t.Fatalf("Regions after two splits = %d, %v; want 3", len(rs), err)
	}

	// Merges: not adjacent, then switched off, then done.
	err = a.MergeRegions(ctx, false, rs[0].Name, rs[2].Name)
	if !errors.Is(err, hberr.ErrRegionsNotAdjacent) || !errors.Is(err, hberr.ErrMergeRefused) {
		t.Fatalf("MergeRegions of regions not adjacent: %v; want hberr.ErrRegionsNotAdjacent", err)
	}
	t.Logf("refused merge: %v", err)
	if prev, err := a.SetMerge(ctx, false); err != nil || !prev {
		t.Fatalf("SetMerge(false) = %v, %v; want it was on", prev, err)
	}
	javaSays("merge", "false")
	if on, err := a.MergeEnabled(ctx); err != nil || on {
		t.Fatalf("MergeEnabled = %v, %v; want false", on, err)
	}
	err = a.MergeRegions(ctx, false, rs[0].Name, rs[1].Name)
	if !errors.Is(err, hberr.ErrSwitchedOff) {
		t.Fatalf("MergeRegions while merges are off: %v; want hberr.ErrSwitchedOff", err)
	}
	t.Logf("refused merge: %v", err)
	if got := starts(); len(got) != 3 {
		t.Fatalf("after the refused merges: regions %q; want 3", got)
	}
	if _, err := a.SetMerge(ctx, true); err != nil {
		t.Fatal(err)
	}
	// Nor is a daughter that still holds references mergeable ("... is not mergeable").
	waitFor(t, ctx, "the daughters to be mergeable", func() bool {
		err := a.MergeRegions(ctx, false, rs[0].Name, rs[1].Name)
		if err != nil && !strings.Contains(err.Error(), "is not mergeable") {
			t.Fatalf("MergeRegions once merges are on: %v", err)
		}
		return err == nil
	})
	if got := starts(); len(got) != 2 || got[1] != "p" {
		t.Fatalf("after the merge: regions %q; want [\"\" p]", got)
	}

	// TruncateRegion empties one region and keeps its boundaries.
	rs, err = a.Regions(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.TruncateRegion(ctx, []byte(rs[0].Encoded)); err != nil {
		t.Fatalf("TruncateRegion: %v", err)
	}
	if got := adminRows(t, c, ctx, name); len(got) != 1 || got[0] != "t" {
		t.Fatalf("rows after truncating the first region = %q; want [t]", got)
	}
	if got := starts(); len(got) != 2 || got[1] != "p" {
		t.Fatalf("after TruncateRegion: regions %q; want [\"\" p]", got)
	}
	if err := a.TruncateRegion(ctx, []byte("0123456789abcdef0123456789abcdef")); !errors.Is(err, hberr.ErrRegionNotFound) {
		t.Fatalf("TruncateRegion(no region): %v; want hberr.ErrRegionNotFound", err)
	}

	// A table whose SPLIT_ENABLED is off refuses a split with the same error.
	name2 := adminTableName(t, "nosplit")
	adminDropLater(t, a, name2)
	desc2, err := hrpc.NewTableDescriptor(name2, hrpc.WithFamily("f"), hrpc.SplitEnabled(false))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc2); err != nil {
		t.Fatal(err)
	}
	if err := a.SplitTable(ctx, name2, []byte("h")); !errors.Is(err, hberr.ErrSwitchedOff) {
		t.Fatalf("SplitTable of a table with SPLIT_ENABLED false: %v; want hberr.ErrSwitchedOff", err)
	}
}

// The master's other switches and chores, each as the Java Admin sees it.
func TestAdminChoreSwitches(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	cl := testCluster(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = a.SetCatalogJanitor(ctx, true)
		_, _ = a.SetCleanerChore(ctx, true)
		_, _ = a.SetNormalizer(ctx, false)
	})
	for _, sw := range []struct {
		key string
		set func(context.Context, bool) (bool, error)
		get func(context.Context) (bool, error)
	}{
		{"catalogJanitor", a.SetCatalogJanitor, a.CatalogJanitorEnabled},
		{"cleanerChore", a.SetCleanerChore, a.CleanerChoreEnabled},
		{"snapshotCleanup", a.SetSnapshotCleanup, a.SnapshotCleanupEnabled},
		{"normalizer", a.SetNormalizer, a.NormalizerEnabled},
	} {
		was, err := sw.get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, on := range []bool{!was, was} {
			prev, err := sw.set(ctx, on)
			if err != nil || prev == on {
				t.Fatalf("%s: set %v = %v, %v; want it was %v", sw.key, on, prev, err, !on)
			}
			st, err := cl.JavaAdminState(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := sw.get(ctx); got != on || st[sw.key] != map[bool]string{true: "true", false: "false"}[on] {
				t.Fatalf("%s set to %v: go-hbase reads %v, the Java Admin %q", sw.key, on, got, st[sw.key])
			}
		}
	}
	if n, err := a.RunCatalogJanitor(ctx); err != nil || n < 0 {
		t.Fatalf("RunCatalogJanitor = %d, %v", n, err)
	}
	cleanerEffect(t, a, c, ctx)
	caps, err := a.SecurityCapabilities(ctx)
	if err != nil {
		t.Fatalf("SecurityCapabilities: %v", err)
	}
	java, err := testCluster(t).JavaSecurityCapabilities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 1 || caps[0] != CapabilitySimpleAuthentication || len(java) != 1 || string(caps[0]) != java[0] {
		t.Fatalf("SecurityCapabilities of a plain cluster = %q; Java's getSecurityCapabilities %q; want [SIMPLE_AUTHENTICATION]", caps, java)
	}
	if m, err := a.InMaintenanceMode(ctx); err != nil || m {
		t.Fatalf("InMaintenanceMode = %v, %v; want false", m, err)
	}

	// Normalize runs only while the normalizer is on; a bad selection is refused here.
	name := adminTableName(t, "norm")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"), hrpc.NormalizationEnabled(true))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"))); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetNormalizer(ctx, false); err != nil {
		t.Fatal(err)
	}
	if ran, err := a.Normalize(ctx, NormalizeTables(name)); err != nil || ran {
		t.Fatalf("Normalize with the normalizer off = %v, %v; want not run", ran, err)
	}
	if _, err := a.SetNormalizer(ctx, true); err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]NormalizeOption{{NormalizeTables(name)}, {NormalizeRegex("adm.*")}, {NormalizeNamespace("default")}, nil} {
		if ran, err := a.Normalize(ctx, opts...); err != nil || !ran {
			t.Fatalf("Normalize(%d options) = %v, %v; want it ran", len(opts), ran, err)
		}
	}
	for _, o := range []NormalizeOption{NormalizeTables("bad name"), NormalizeRegex(""), NormalizeNamespace("a:b"), nil} {
		if _, err := a.Normalize(ctx, o); !errors.Is(err, hberr.ErrBadRequest) {
			t.Fatalf("Normalize with a bad option: %v; want hberr.ErrBadRequest", err)
		}
	}
	normalizeEffect(t, a, ctx)
	janitorEffect(t, a, c, ctx)
}

// RunCleanerChore by its effect: the HFiles a dropped table left in the archive are deleted
// by a cleaner run (their TTL on this cluster is a second; the periodic chore runs every 10
// minutes, so it is not what deletes them).
func cleanerEffect(t *testing.T, a *Admin, c *hbase.Client, ctx context.Context) {
	t.Helper()
	cl := testCluster(t)
	name := adminTableName(t, "clean")
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	put, err := hrpc.NewPut(name, []byte("r"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatal(err)
	}
	if err := a.FlushTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	before, err := cl.ArchivedFiles(ctx, name)
	if err != nil || before == 0 {
		t.Fatalf("archived files of the dropped table = %d, %v; want its flushed HFile", before, err)
	}
	time.Sleep(1500 * time.Millisecond) // past the archive's TTL
	ran, err := a.RunCleanerChore(ctx)
	if err != nil {
		t.Fatalf("RunCleanerChore: %v", err)
	}
	after, err := cl.ArchivedFiles(ctx, name)
	if err != nil || after != 0 {
		t.Fatalf("after RunCleanerChore (%v) the dropped table has %d archived files (%v); want none of the %d", ran, after, err, before)
	}
	t.Logf("RunCleanerChore = %v: the dropped table's %d archived files deleted", ran, before)
}

// Normalize by its effect: four empty regions of a table that lets the normalizer merge
// regions of any age and size (the table's own values of the normalizer's keys; the defaults
// skip regions under 1 MB and younger than 3 days) become fewer. The master sizes a region
// from its server's last report (every 3 s): until then the region counts as unknown and is
// skipped, so Normalize is asked again until a merge shows.
func normalizeEffect(t *testing.T, a *Admin, ctx context.Context) {
	t.Helper()
	name := adminTableName(t, "normfx")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"), hrpc.NormalizationEnabled(true),
		hrpc.TableAttribute("hbase.normalizer.merge.min_region_age.days", "0"),
		hrpc.TableAttribute("hbase.normalizer.merge.min_region_size.mb", "0"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("b"), []byte("m"), []byte("t"))); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		if ran, err := a.Normalize(ctx, NormalizeTables(name)); err != nil || !ran {
			t.Fatalf("Normalize = %v, %v; want it ran", ran, err)
		}
		time.Sleep(2 * time.Second)
		regions, err := a.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(regions) < 4 {
			t.Logf("Normalize merged the 4 empty regions into %d", len(regions))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after Normalize for 90 s the table still has %d regions; want fewer than 4", len(regions))
		}
	}
}

// RunCatalogJanitor by its effect: the merge parents a merged region names in hbase:meta are
// cleaned by a janitor run, the janitor's own chore switched off meanwhile.
func janitorEffect(t *testing.T, a *Admin, c *hbase.Client, ctx context.Context) {
	t.Helper()
	if _, err := a.SetCatalogJanitor(ctx, false); err != nil {
		t.Fatal(err)
	}
	name := adminTableName(t, "jan")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"))); err != nil {
		t.Fatal(err)
	}
	rs, err := a.Regions(ctx, name)
	if err != nil || len(rs) != 2 {
		t.Fatalf("Regions = %v, %v; want 2", rs, err)
	}
	if err := a.MergeRegions(ctx, false, rs[0].Name, rs[1].Name); err != nil {
		t.Fatalf("MergeRegions: %v", err)
	}
	merged, err := a.Regions(ctx, name)
	if err != nil || len(merged) != 1 {
		t.Fatalf("Regions after the merge = %v, %v; want 1", merged, err)
	}
	mergeParents := func() int {
		t.Helper()
		get, err := hrpc.NewGet("hbase:meta", merged[0].Name, hrpc.Families([]byte("info")))
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Get(ctx, get)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, cell := range res.Cells {
			if strings.HasPrefix(string(cell.Qualifier), "merge") {
				n++
			}
		}
		return n
	}
	if n := mergeParents(); n != 2 {
		t.Fatalf("the merged region %s names %d merge parents in hbase:meta; want 2", merged[0].Encoded, n)
	}
	cleaned, err := a.RunCatalogJanitor(ctx)
	if err != nil || cleaned < 1 {
		t.Fatalf("RunCatalogJanitor = %d, %v; want at least the merged region's parents cleaned", cleaned, err)
	}
	waitFor(t, ctx, "the janitor to clean the merge parents", func() bool { return mergeParents() == 0 })
	t.Logf("RunCatalogJanitor cleaned the parents of %d merged or split regions, %s's among them", cleaned, merged[0].Encoded)
}
