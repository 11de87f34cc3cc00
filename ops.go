package hbase

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
)

// Get reads one row. A missing row gives a Result without cells. A Get of consistency
// hrpc.Timeline may be answered by a secondary replica of the row's region (then its
// Result.Stale is set): see WithHedgeDelay.
func (c *Client) Get(ctx context.Context, g *hrpc.Get) (*hrpc.Result, error) { return c.e.Get(ctx, g) }

// Put writes the cells of p.
func (c *Client) Put(ctx context.Context, p *hrpc.Put) (*hrpc.Result, error) { return c.e.Put(ctx, p) }

// Delete applies d.
func (c *Client) Delete(ctx context.Context, d *hrpc.Delete) (*hrpc.Result, error) {
	return c.e.Delete(ctx, d)
}

// Append applies a and returns the new values.
func (c *Client) Append(ctx context.Context, a *hrpc.Append) (*hrpc.Result, error) {
	return c.e.Append(ctx, a)
}

// Increment applies inc and returns the new values.
func (c *Client) Increment(ctx context.Context, inc *hrpc.Increment) (*hrpc.Result, error) {
	return c.e.Increment(ctx, inc)
}

// CheckAndMutate applies the mutation(s) of cam if its condition holds, atomically, and
// reports whether it did.
func (c *Client) CheckAndMutate(ctx context.Context, cam *hrpc.CheckAndMutate) (bool, error) {
	return c.e.CheckAndMutate(ctx, cam)
}

// MutateRow applies several mutations of one row atomically.
func (c *Client) MutateRow(ctx context.Context, rm *hrpc.RowMutations) error {
	return c.e.MutateRow(ctx, rm)
}
