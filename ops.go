package hbase

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/wire"
)

// Get reads one row. A missing row gives a Result without cells. A Get of consistency
// hrpc.Timeline may be answered by a secondary replica of the row's region (then its
// Result.Stale is set): see WithHedgeDelay.
func (c *Client) Get(ctx context.Context, g *hrpc.Get) (*hrpc.Result, error) {
	if g == nil {
		return nil, engine.NilRequest("Get")
	}
	call := hrpcwire.Get(g)
	if g.Consistency() == hrpc.Timeline {
		return c.getTimeline(ctx, g, call)
	}
	resp, cells, err := c.e.Send(ctx, call)
	if err != nil {
		return nil, engine.OpError(call, err)
	}
	res, err := hrpcwire.DecodeGet(g, resp, cells)
	if err != nil {
		return nil, engine.OpError(call, err)
	}
	return res, nil
}

// Put writes the cells of p.
func (c *Client) Put(ctx context.Context, p *hrpc.Put) (*hrpc.Result, error) {
	if p == nil {
		return nil, engine.NilRequest("Put")
	}
	return c.mutate(ctx, p)
}

// Delete applies d.
func (c *Client) Delete(ctx context.Context, d *hrpc.Delete) (*hrpc.Result, error) {
	if d == nil {
		return nil, engine.NilRequest("Delete")
	}
	return c.mutate(ctx, d)
}

// Append applies a and returns the new values.
func (c *Client) Append(ctx context.Context, a *hrpc.Append) (*hrpc.Result, error) {
	if a == nil {
		return nil, engine.NilRequest("Append")
	}
	return c.mutate(ctx, a)
}

// Increment applies inc and returns the new values.
func (c *Client) Increment(ctx context.Context, inc *hrpc.Increment) (*hrpc.Result, error) {
	if inc == nil {
		return nil, engine.NilRequest("Increment")
	}
	return c.mutate(ctx, inc)
}

func (c *Client) mutate(ctx context.Context, m hrpc.Mutation) (*hrpc.Result, error) {
	call := hrpcwire.Mutation(m)
	resp, cells, err := c.e.Send(ctx, call)
	if err != nil {
		return nil, engine.OpError(call, err)
	}
	res, err := hrpcwire.DecodeMutation(m, resp, cells)
	if err != nil {
		return nil, engine.OpError(call, err)
	}
	return res, nil
}

// CheckAndMutate applies the mutation(s) of cam if its condition holds, atomically, and
// reports whether it did.
func (c *Client) CheckAndMutate(ctx context.Context, cam *hrpc.CheckAndMutate) (bool, error) {
	if cam == nil {
		return false, engine.NilRequest("CheckAndMutate")
	}
	call := hrpcwire.CheckAndMutate(cam)
	resp, cells, err := c.e.Send(ctx, call)
	if err != nil {
		return false, engine.OpError(call, err)
	}
	ok, _, err := hrpcwire.DecodeCheckAndMutate(cam, resp, cells)
	if err != nil {
		return false, engine.OpError(call, err)
	}
	return ok, nil
}

// MutateRow applies several mutations of one row atomically.
func (c *Client) MutateRow(ctx context.Context, rm *hrpc.RowMutations) error {
	if rm == nil {
		return engine.NilRequest("RowMutations")
	}
	call := hrpcwire.RowMutations(rm)
	resp, cells, err := c.e.Send(ctx, call)
	if err == nil {
		err = hrpcwire.DecodeRowMutations(rm, resp, cells)
	}
	if err != nil {
		return engine.OpError(call, err)
	}
	return nil
}

// getTimeline is Get for consistency Timeline: hedged over the region's replicas.
func (c *Client) getTimeline(ctx context.Context, g *hrpc.Get, call wire.Call) (*hrpc.Result, error) {
	resp, cells, err := c.e.SendTimeline(ctx, call, "Get")
	if err != nil {
		return nil, engine.OpError(call, err)
	}
	res, err := hrpcwire.DecodeGet(g, resp, cells)
	if err != nil {
		return nil, engine.OpError(call, err)
	}
	if res.Stale {
		c.e.CountStale()
	}
	return res, nil
}
