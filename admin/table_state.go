package admin

import (
	"context"

	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// TableDisabled reports whether table is disabled (false while it is being enabled or
// disabled, or enabled); hberr.ErrTableNotFound when it does not exist.
func (a *Admin) TableDisabled(ctx context.Context, table string) (bool, error) {
	ctx, call := a.begin(ctx, "TableDisabled", table, table)
	st, err := a.tableState(ctx, table)
	return err == nil && st == pb.TableState_DISABLED, call.end(ctx, err)
}

// OfflineRegion sets the master's state of a region (full or encoded name) to OFFLINE without
// closing it anywhere, as HBase's Admin.offline does: a repair of the master's view for
// operators who know the region is not served (hbck's business). A region that is open stays
// open on its server, and the master no longer knows it; UnassignRegion is the way to close
// one.
func (a *Admin) OfflineRegion(ctx context.Context, regionName []byte) error {
	ctx, call := a.begin(ctx, "OfflineRegion", string(regionName), regionTable(regionName))
	r, err := a.region(ctx, regionName)
	if err == nil {
		var req *pb.OfflineRegionRequest
		if req, err = wire.OfflineRegionRequest(r.Name, hrpcwire.RegionInfo(r)); err == nil {
			err = a.callMaster(ctx, wire.MethodOfflineRegion, req, &pb.OfflineRegionResponse{})
		}
	}
	return call.end(ctx, err)
}

// TableAvailable reports whether table is enabled and every region of it is assigned to a
// server in hbase:meta, as the Java Admin's isTableAvailable does; hberr.ErrTableNotFound
// when it does not exist.
func (a *Admin) TableAvailable(ctx context.Context, table string) (bool, error) {
	ctx, call := a.begin(ctx, "TableAvailable", table, table)
	st, err := a.tableState(ctx, table)
	if err != nil || st != pb.TableState_ENABLED {
		return false, call.end(ctx, err)
	}
	rs, err := a.regions(ctx, table)
	if err != nil {
		return false, call.end(ctx, err)
	}
	for _, r := range rs {
		if r.Server.Port == 0 {
			return false, call.end(ctx, nil)
		}
	}
	return len(rs) > 0, call.end(ctx, nil)
}

// TruncateRegion deletes every row of a region (full or encoded name) and waits until it is
// open again, empty, with its boundaries (HBase 2.6; an older master answers
// hberr.ErrNotSupported).
func (a *Admin) TruncateRegion(ctx context.Context, regionName []byte) error {
	ctx, call := a.begin(ctx, "TruncateRegion", string(regionName), regionTable(regionName))
	r, err := a.region(ctx, regionName)
	if err == nil {
		var req *pb.TruncateRegionRequest
		if req, err = wire.TruncateRegionRequest(hrpcwire.RegionInfo(r), a.nonce()); err == nil {
			err = a.procedure(ctx, wire.MethodTruncateRegion, req, &pb.TruncateRegionResponse{}, nil)
		}
	}
	return call.end(ctx, err)
}
