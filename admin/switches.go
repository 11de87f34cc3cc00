package admin

import (
	"context"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// The master's switches and chores: region splits and merges, the catalog janitor (which
// cleans up the parents of splits and merges in hbase:meta), the cleaner chore (which deletes
// old WALs and HFiles from the archive), snapshot cleanup (which deletes snapshots past their
// TTL), and one run of the normalizer.

// SetSplit switches region splits on or off, cluster-wide, and returns whether they were on.
// While off, the master refuses a split (SplitTable, SplitRegion: hberr.ErrSwitchedOff) and
// the servers split no region on their own. It returns once the splits under way are over.
func (a *Admin) SetSplit(ctx context.Context, on bool) (prev bool, err error) {
	return a.setSplitOrMerge(ctx, "SetSplit", wire.SwitchSplit, on)
}

// SplitEnabled reports whether region splits are on.
func (a *Admin) SplitEnabled(ctx context.Context) (bool, error) {
	return a.splitOrMergeEnabled(ctx, "SplitEnabled", wire.SwitchSplit)
}

// SetMerge switches region merges on or off, cluster-wide, and returns whether they were on.
// While off, the master refuses MergeRegions (hberr.ErrSwitchedOff).
func (a *Admin) SetMerge(ctx context.Context, on bool) (prev bool, err error) {
	return a.setSplitOrMerge(ctx, "SetMerge", wire.SwitchMerge, on)
}

// MergeEnabled reports whether region merges are on.
func (a *Admin) MergeEnabled(ctx context.Context) (bool, error) {
	return a.splitOrMergeEnabled(ctx, "MergeEnabled", wire.SwitchMerge)
}

func (a *Admin) setSplitOrMerge(ctx context.Context, op string, s wire.SplitOrMerge, on bool) (bool, error) {
	ctx, call := a.begin(ctx, op, "", "")
	resp := &pb.SetSplitOrMergeEnabledResponse{}
	if err := a.callMaster(ctx, wire.MethodSetSplitOrMergeEnabled, wire.SetSplitOrMergeRequest(s, on), resp); err != nil {
		return false, call.end(ctx, err)
	}
	prev := resp.GetPrevValue()
	return len(prev) > 0 && prev[0], call.end(ctx, nil)
}

func (a *Admin) splitOrMergeEnabled(ctx context.Context, op string, s wire.SplitOrMerge) (bool, error) {
	ctx, call := a.begin(ctx, op, "", "")
	resp := &pb.IsSplitOrMergeEnabledResponse{}
	err := a.callMaster(ctx, wire.MethodIsSplitOrMergeEnabled, wire.SplitOrMergeEnabledRequest(s), resp)
	return err == nil && resp.GetEnabled(), call.end(ctx, err)
}

// masterBool sends a request without arguments, or with one switch, whose answer is one
// boolean, and returns it.
func masterBool[R interface {
	proto.Message
	*T
}, T any](a *Admin, ctx context.Context, op, method string, req proto.Message, get func(R) bool) (bool, error) {
	ctx, call := a.begin(ctx, op, "", "")
	resp := R(new(T))
	if err := a.callMaster(ctx, method, req, resp); err != nil {
		return false, call.end(ctx, err)
	}
	return get(resp), call.end(ctx, nil)
}

// SetCatalogJanitor switches the catalog janitor on or off and returns whether it was on.
// While off, the parents of split and merged regions stay in hbase:meta and their files in
// the file system.
func (a *Admin) SetCatalogJanitor(ctx context.Context, on bool) (prev bool, err error) {
	return masterBool(a, ctx, "SetCatalogJanitor", wire.MethodEnableCatalogJanitor, &pb.EnableCatalogJanitorRequest{Enable: &on},
		(*pb.EnableCatalogJanitorResponse).GetPrevValue)
}

// CatalogJanitorEnabled reports whether the catalog janitor is on.
func (a *Admin) CatalogJanitorEnabled(ctx context.Context) (bool, error) {
	return masterBool(a, ctx, "CatalogJanitorEnabled", wire.MethodIsCatalogJanitorEnabled, &pb.IsCatalogJanitorEnabledRequest{},
		(*pb.IsCatalogJanitorEnabledResponse).GetValue)
}

// RunCatalogJanitor runs the catalog janitor once, on or off, and returns how many cleanups
// of split and merge parents it started (they finish in the master's procedures soon after),
// or -1 when a run of the janitor was going on already and this one did nothing.
func (a *Admin) RunCatalogJanitor(ctx context.Context) (int, error) {
	ctx, call := a.begin(ctx, "RunCatalogJanitor", "", "")
	resp := &pb.RunCatalogScanResponse{}
	if err := a.callMaster(ctx, wire.MethodRunCatalogScan, &pb.RunCatalogScanRequest{}, resp); err != nil {
		return 0, call.end(ctx, err)
	}
	return int(resp.GetScanResult()), call.end(ctx, nil)
}

// SetCleanerChore switches the cleaner chore (old WALs and archived HFiles) on or off and
// returns whether it was on.
func (a *Admin) SetCleanerChore(ctx context.Context, on bool) (prev bool, err error) {
	return masterBool(a, ctx, "SetCleanerChore", wire.MethodSetCleanerChoreRunning, &pb.SetCleanerChoreRunningRequest{On: &on},
		(*pb.SetCleanerChoreRunningResponse).GetPrevValue)
}

// CleanerChoreEnabled reports whether the cleaner chore is on.
func (a *Admin) CleanerChoreEnabled(ctx context.Context) (bool, error) {
	return masterBool(a, ctx, "CleanerChoreEnabled", wire.MethodIsCleanerChoreEnabled, &pb.IsCleanerChoreEnabledRequest{},
		(*pb.IsCleanerChoreEnabledResponse).GetValue)
}

// RunCleanerChore runs the cleaner chore once and reports what HBase's runCleanerChore does:
// whether the cleaners deleted every old file they went through (false when some stay, such
// as archived files a snapshot still references).
func (a *Admin) RunCleanerChore(ctx context.Context) (bool, error) {
	return masterBool(a, ctx, "RunCleanerChore", wire.MethodRunCleanerChore, &pb.RunCleanerChoreRequest{},
		(*pb.RunCleanerChoreResponse).GetCleanerChoreRan)
}

// SetSnapshotCleanup switches the deletion of snapshots past their TTL on or off and returns
// whether it was on.
func (a *Admin) SetSnapshotCleanup(ctx context.Context, on bool) (prev bool, err error) {
	return masterBool(a, ctx, "SetSnapshotCleanup", wire.MethodSwitchSnapshotCleanup,
		&pb.SetSnapshotCleanupRequest{Enabled: &on, Synchronous: new(true)}, (*pb.SetSnapshotCleanupResponse).GetPrevSnapshotCleanup)
}

// SnapshotCleanupEnabled reports whether snapshots past their TTL are deleted.
func (a *Admin) SnapshotCleanupEnabled(ctx context.Context) (bool, error) {
	return masterBool(a, ctx, "SnapshotCleanupEnabled", wire.MethodIsSnapshotCleanupEnabled, &pb.IsSnapshotCleanupEnabledRequest{},
		(*pb.IsSnapshotCleanupEnabledResponse).GetEnabled)
}

// InMaintenanceMode reports whether the master is in maintenance mode (it serves only
// hbase:meta and the system tables).
func (a *Admin) InMaintenanceMode(ctx context.Context) (bool, error) {
	return masterBool(a, ctx, "InMaintenanceMode", wire.MethodIsMasterInMaintenanceMode, &pb.IsInMaintenanceModeRequest{},
		(*pb.IsInMaintenanceModeResponse).GetInMaintenanceMode)
}

// NormalizeOption selects the tables Normalize looks at; without one, every table whose
// NORMALIZATION_ENABLED is on.
type NormalizeOption func(*normalizeTables) error

type normalizeTables struct {
	names            []string
	regex, namespace string
}

// NormalizeTables selects the tables named.
func NormalizeTables(tables ...string) NormalizeOption {
	return func(n *normalizeTables) error {
		for _, t := range tables {
			if err := wire.CheckTableName(t); err != nil {
				return err
			}
		}
		n.names = append(n.names, tables...)
		return nil
	}
}

// NormalizeRegex selects the tables whose full name matches the Java regular expression re.
func NormalizeRegex(re string) NormalizeOption {
	return func(n *normalizeTables) error {
		if re == "" {
			return wire.BadRequest("empty table regex")
		}
		n.regex = re
		return nil
	}
}

// NormalizeNamespace selects the tables of namespace ns.
func NormalizeNamespace(ns string) NormalizeOption {
	return func(n *normalizeTables) error {
		if err := wire.CheckNamespaceName(ns); err != nil {
			return err
		}
		n.namespace = ns
		return nil
	}
}

// Normalize runs the region normalizer once on the tables opts select, and reports whether it
// ran (it does not while the normalizer is off: SetNormalizer). It returns once the plans are
// submitted, not done.
func (a *Admin) Normalize(ctx context.Context, opts ...NormalizeOption) (ran bool, err error) {
	ctx, call := a.begin(ctx, "Normalize", "", "")
	var sel normalizeTables
	for _, o := range opts {
		if o == nil {
			return false, call.end(ctx, wire.BadRequest("nil NormalizeOption"))
		}
		if err := o(&sel); err != nil {
			return false, call.end(ctx, err)
		}
	}
	req, err := wire.NormalizeRequest(sel.names, sel.regex, sel.namespace)
	if err != nil {
		return false, call.end(ctx, err)
	}
	resp := &pb.NormalizeResponse{}
	if err := a.callMaster(ctx, wire.MethodNormalize, req, resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetNormalizerRan(), call.end(ctx, nil)
}
