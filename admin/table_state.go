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

// OfflineRegion marks a region (full or encoded name) offline in hbase:meta and closes it,
// without the procedure an UnassignRegion runs: for operators repairing hbase:meta. The
// region stays offline until AssignRegion.
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
