package engine

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Get is hbase.Client.Get.
func (c *Client) Get(ctx context.Context, g *hrpc.Get) (*hrpc.Result, error) {
	if g == nil {
		return nil, NilRequest("Get")
	}
	call := hrpcwire.Get(g)
	if g.Consistency() == hrpc.Timeline {
		return c.getTimeline(ctx, g, call)
	}
	resp, cells, err := c.Send(ctx, call)
	if err != nil {
		return nil, OpError(call, err)
	}
	res, err := hrpcwire.DecodeGet(g, resp, cells)
	if err != nil {
		return nil, OpError(call, err)
	}
	return res, nil
}

// Put is hbase.Client.Put.
func (c *Client) Put(ctx context.Context, p *hrpc.Put) (*hrpc.Result, error) {
	if p == nil {
		return nil, NilRequest("Put")
	}
	return c.mutate(ctx, p)
}

// Delete is hbase.Client.Delete.
func (c *Client) Delete(ctx context.Context, d *hrpc.Delete) (*hrpc.Result, error) {
	if d == nil {
		return nil, NilRequest("Delete")
	}
	return c.mutate(ctx, d)
}

// Append is hbase.Client.Append.
func (c *Client) Append(ctx context.Context, a *hrpc.Append) (*hrpc.Result, error) {
	if a == nil {
		return nil, NilRequest("Append")
	}
	return c.mutate(ctx, a)
}

// Increment is hbase.Client.Increment.
func (c *Client) Increment(ctx context.Context, inc *hrpc.Increment) (*hrpc.Result, error) {
	if inc == nil {
		return nil, NilRequest("Increment")
	}
	return c.mutate(ctx, inc)
}

func (c *Client) mutate(ctx context.Context, m hrpc.Mutation) (*hrpc.Result, error) {
	call := hrpcwire.Mutation(m)
	resp, cells, err := c.Send(ctx, call)
	if err != nil {
		return nil, OpError(call, err)
	}
	res, err := hrpcwire.DecodeMutation(m, resp, cells)
	if err != nil {
		return nil, OpError(call, err)
	}
	return res, nil
}

// CheckAndMutate is hbase.Client.CheckAndMutate.
func (c *Client) CheckAndMutate(ctx context.Context, cam *hrpc.CheckAndMutate) (bool, error) {
	if cam == nil {
		return false, NilRequest("CheckAndMutate")
	}
	call := hrpcwire.CheckAndMutate(cam)
	resp, cells, err := c.Send(ctx, call)
	if err != nil {
		return false, OpError(call, err)
	}
	ok, _, err := hrpcwire.DecodeCheckAndMutate(cam, resp, cells)
	if err != nil {
		return false, OpError(call, err)
	}
	return ok, nil
}

// MutateRow is hbase.Client.MutateRow.
func (c *Client) MutateRow(ctx context.Context, rm *hrpc.RowMutations) error {
	if rm == nil {
		return NilRequest("RowMutations")
	}
	call := hrpcwire.RowMutations(rm)
	resp, cells, err := c.Send(ctx, call)
	if err == nil {
		err = hrpcwire.DecodeRowMutations(rm, resp, cells)
	}
	if err != nil {
		return OpError(call, err)
	}
	return nil
}

// getTimeline is Get for consistency Timeline: hedged over the region's replicas.
func (c *Client) getTimeline(ctx context.Context, g *hrpc.Get, call wire.Call) (*hrpc.Result, error) {
	resp, cells, ans, err := c.SendTimeline(ctx, call, "Get")
	if err != nil {
		return nil, OpError(call, err)
	}
	res, err := c.timelineResult(g, resp, cells, ans)
	if err != nil {
		return nil, OpError(call, err)
	}
	return res, nil
}

// timelineResult decodes the answer of Timeline Get g, says which replica gave it and whether
// the read was hedged, and counts it when stale (Stats.StaleResults).
func (c *Client) timelineResult(g *hrpc.Get, resp proto.Message, cells []byte, ans TimelineAnswer) (*hrpc.Result, error) {
	res, err := hrpcwire.DecodeGet(g, resp, cells)
	if err != nil {
		return nil, err
	}
	res.ReplicaID, res.Hedged = uint16(ans.Replica), ans.Hedged
	if res.Stale {
		c.CountStale()
	}
	return res, nil
}
