package admin

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
)

// The operators' calls fakehbase does not serve fail with hberr.ErrNotSupported, naming the
// RPC it lacks (fakehbase's doc lists them); TableDisabled works there (the conformance suite
// compares it with HBase).
func TestAdminOpsOnFakeHBase(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a := New(c)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if off, err := a.TableDisabled(ctx, "t"); err != nil || off {
		t.Fatalf("TableDisabled = %v, %v; want false", off, err)
	}
	if ok, err := a.TableAvailable(ctx, "t"); err != nil || !ok {
		t.Fatalf("TableAvailable = %v, %v; want true", ok, err)
	}
	rs, err := a.Regions(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	region := rs[0].Name
	server := rs[0].Server.Addr()
	noErr := func(_ any, err error) error { return err }
	for _, c := range []struct {
		call, rpc string
		err       error
	}{
		{"SetSplit", "SetSplitOrMergeEnabled", noErr(a.SetSplit(ctx, false))},
		{"SplitEnabled", "IsSplitOrMergeEnabled", noErr(a.SplitEnabled(ctx))},
		{"SetMerge", "SetSplitOrMergeEnabled", noErr(a.SetMerge(ctx, false))},
		{"MergeEnabled", "IsSplitOrMergeEnabled", noErr(a.MergeEnabled(ctx))},
		{"SetCatalogJanitor", "EnableCatalogJanitor", noErr(a.SetCatalogJanitor(ctx, false))},
		{"CatalogJanitorEnabled", "IsCatalogJanitorEnabled", noErr(a.CatalogJanitorEnabled(ctx))},
		{"RunCatalogJanitor", "RunCatalogScan", noErr(a.RunCatalogJanitor(ctx))},
		{"SetCleanerChore", "SetCleanerChoreRunning", noErr(a.SetCleanerChore(ctx, false))},
		{"CleanerChoreEnabled", "IsCleanerChoreEnabled", noErr(a.CleanerChoreEnabled(ctx))},
		{"RunCleanerChore", "RunCleanerChore", noErr(a.RunCleanerChore(ctx))},
		{"SetSnapshotCleanup", "SwitchSnapshotCleanup", noErr(a.SetSnapshotCleanup(ctx, false))},
		{"SnapshotCleanupEnabled", "IsSnapshotCleanupEnabled", noErr(a.SnapshotCleanupEnabled(ctx))},
		{"InMaintenanceMode", "IsMasterInMaintenanceMode", noErr(a.InMaintenanceMode(ctx))},
		{"Normalize", "Normalize", noErr(a.Normalize(ctx))},
		{"TableCompactionState", "GetRegionInfo", noErr(a.TableCompactionState(ctx, "t"))},
		{"RegionCompactionState", "GetRegionInfo", noErr(a.RegionCompactionState(ctx, region))},
		{"LastMajorCompaction", "getLastMajorCompactionTimestamp", noErr(a.LastMajorCompaction(ctx, "t"))},
		{"RegionLastMajorCompaction", "getLastMajorCompactionTimestampForRegion", noErr(a.RegionLastMajorCompaction(ctx, region))},
		{"FlushFamily", "flushing one family", a.FlushFamily(ctx, "t", "f")},
		{"FlushRegionFamily", "flushing one family", a.FlushRegionFamily(ctx, region, "f")},
		{"CompactFamily", "compacting one family", a.CompactFamily(ctx, "t", "f", true)},
		{"CompactRegionFamily", "compacting one family", a.CompactRegionFamily(ctx, region, "f", false)},
		{"ServerRegions", "GetClusterStatus", noErr(a.ServerRegions(ctx, server))},
		{"CompactRegionServer", "GetClusterStatus", a.CompactRegionServer(ctx, server, true)},
		{"FlushRegionServer", "GetClusterStatus", a.FlushRegionServer(ctx, server)},
		{"CompactionSwitch", "GetClusterStatus", noErr(a.CompactionSwitch(ctx, false))},
		{"DecommissionServers", "GetClusterStatus", a.DecommissionServers(ctx, true, server)},
		{"DecommissionedServers", "ListDecommissionedRegionServers", noErr(a.DecommissionedServers(ctx))},
		{"RecommissionServer", "GetClusterStatus", a.RecommissionServer(ctx, server)},
		{"UpdateConfiguration", "GetClusterStatus", a.UpdateConfiguration(ctx, server)},
		{"UpdateAllConfigurations", "GetClusterStatus", a.UpdateAllConfigurations(ctx)},
		{"RollWALWriter", "GetClusterStatus", a.RollWALWriter(ctx, server)},
		{"ClearBlockCache", "ClearRegionBlockCache", noErr(a.ClearBlockCache(ctx, "t"))},
		{"Procedures", "GetProcedures", noErr(a.Procedures(ctx))},
		{"Locks", "GetLocks", noErr(a.Locks(ctx))},
		{"AbortProcedure", "AbortProcedure", a.AbortProcedure(ctx, 1, true)},
		{"OfflineRegion", "OfflineRegion", a.OfflineRegion(ctx, region)},
		{"TruncateRegion", "TruncateRegion", a.TruncateRegion(ctx, region)},
		{"Snapshot", "Snapshot", a.Snapshot(ctx, "s", "t", SnapshotTTL(time.Hour))},
	} {
		if !errors.Is(c.err, hberr.ErrNotSupported) || !strings.Contains(c.err.Error(), c.rpc) || !strings.Contains(c.err.Error(), c.call) {
			t.Errorf("%s on fakehbase: %v; want hberr.ErrNotSupported naming %s", c.call, c.err, c.rpc)
		}
		if c.call == "Procedures" {
			t.Logf("%s on fakehbase: %v", c.call, c.err)
		}
	}
}
