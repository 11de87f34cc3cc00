package engine

import (
	"context"
	"time"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// attempt sends run's call once to region r on conn (o: its observation, nil when none): the one RPC of a call, where what the
// features add hooks in, in this order: the call's headers (its priority and request
// attributes, headers.go), the stop of a Timeline read's primary leg (run.stop), the overload
// accounting and the servers' load figures (overload.go, loadstats.go), and the call's
// observation (observe.go: the latency histograms, the Attempt hook).
func (c *Client) attempt(ctx context.Context, run *callRun, o *CallObs, r *regionInfo, conn *region.Client) (proto.Message, []byte, error) {
	stop := run.stop
	if run.stopDone != nil {
		stop = nil // a context carries it now (withStop)
	}
	if o == nil {
		return c.rpc(ctx, r, conn, run.call, nil, stop)
	}
	start := time.Now()
	resp, cells, err := c.rpc(ctx, r, conn, run.call, o, stop)
	o.attempted(ctx, c, r.name, conn.Addr(), time.Since(start), resp, cells, err)
	return resp, cells, err
}

// rpc sends call once to region r on conn. A MultiRequest for one region (MutateRow,
// CheckAndMutate of RowMutations) reports failures inside its response: they are turned into
// errors here so that they drive the retry like any other. abort, when not nil, ends the
// wait as ctx's end would (region.Extras.Abort).
func (c *Client) rpc(ctx context.Context, r *regionInfo, conn *region.Client, call wire.Call, o *CallObs, abort <-chan struct{}) (proto.Message, []byte, error) {
	req, reqCells, err := call.Marshal(r.name, nil)
	if err != nil {
		return nil, nil, err
	}
	resp := call.NewResponse()
	x := extrasOf(call)
	x.Abort = abort
	cells, err := conn.CallExtras(ctx, x, call.Method(), req, reqCells, resp, call)
	c.noteRPC(err)
	if o != nil && o.hooks != nil {
		o.reqBytes = RequestSize(req, reqCells)
	}
	if rc, ok := call.(wire.RequestRecycler); ok {
		rc.Recycle(req) // encoded by CallChecked, used by nothing after it
	}
	if err != nil {
		return nil, nil, err
	}
	if mr, ok := resp.(*pb.MultiResponse); ok {
		c.noteLoad(conn, mr)
		// One region, one (atomic) region action: any exception in it is the call's error,
		// typed so that errors.Is works and the retry loop can act on it.
		for _, rar := range mr.GetRegionActionResult() {
			if ex := rar.GetException(); ex != nil {
				return nil, nil, wire.ActionException(ex)
			}
			for _, roe := range rar.GetResultOrException() {
				if ex := roe.GetException(); ex != nil {
					return nil, nil, wire.ActionException(ex)
				}
			}
		}
	}
	return resp, cells, nil
}
