package admin

import (
	"context"

	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// serverCallAttempts bounds how often onServer sends a call to one region server: a server that
// stays unreachable or keeps failing is reported, not waited for until the deadline (a call
// over several servers would otherwise hang on one dead server).
const serverCallAttempts = 3

// onServer sends req, a call of the AdminService not about a region (the slow logs, the space
// quota views), to the region server at addr, and reads its answer into resp. Transient
// failures are sent again after a pause, up to serverCallAttempts times.
func (a *Admin) onServer(ctx context.Context, addr, method string, req, resp proto.Message) error {
	b := a.e.NewBackoff()
	o := a.adminObs(ctx)
	var err error
	for attempt := 1; ; attempt++ {
		var conn *region.Client
		if conn, err = a.rsConn(ctx, addr); err == nil {
			if err = engine.ObservedRPC(ctx, o, conn, nil, method, req, resp); err == nil {
				return nil
			}
		}
		if ctx.Err() != nil {
			return engine.CtxErr(ctx, err)
		}
		if attempt >= serverCallAttempts || engine.Classify(err) == engine.GiveUp {
			return err
		}
		engine.ReportRetry(ctx, o, conn, err, false)
		if b.Sleep(ctx) != nil {
			return engine.CtxErr(ctx, err)
		}
	}
}
