package hbase

import (
	"context"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// nilRequest is the error of an operation called with a nil request: an *hberr.OpError like every
// other error of a call.
func nilRequest(op string) error {
	return &hberr.OpError{Op: op, Err: fmt.Errorf("%w: nil %s", hberr.ErrBadRequest, op)}
}

// Get reads one row. A missing row gives a Result without cells.
func (c *Client) Get(ctx context.Context, g *hrpc.Get) (*hrpc.Result, error) {
	if g == nil {
		return nil, nilRequest("Get")
	}
	resp, cells, err := c.send(ctx, g)
	if err != nil {
		return nil, opError("Get", g, err)
	}
	res, err := g.Decode(resp, cells)
	if err != nil {
		return nil, opError("Get", g, err)
	}
	return res, nil
}

// Put writes the cells of p.
func (c *Client) Put(ctx context.Context, p *hrpc.Put) (*hrpc.Result, error) {
	if p == nil {
		return nil, nilRequest("Put")
	}
	return c.mutate(ctx, p, "Put")
}

// Delete applies d.
func (c *Client) Delete(ctx context.Context, d *hrpc.Delete) (*hrpc.Result, error) {
	if d == nil {
		return nil, nilRequest("Delete")
	}
	return c.mutate(ctx, d, "Delete")
}

// Append applies a and returns the new values.
func (c *Client) Append(ctx context.Context, a *hrpc.Append) (*hrpc.Result, error) {
	if a == nil {
		return nil, nilRequest("Append")
	}
	return c.mutate(ctx, a, "Append")
}

// Increment applies inc and returns the new values.
func (c *Client) Increment(ctx context.Context, inc *hrpc.Increment) (*hrpc.Result, error) {
	if inc == nil {
		return nil, nilRequest("Increment")
	}
	return c.mutate(ctx, inc, "Increment")
}

func (c *Client) mutate(ctx context.Context, m hrpc.Mutation, op string) (*hrpc.Result, error) {
	resp, cells, err := c.send(ctx, m)
	if err != nil {
		return nil, opError(op, m, err)
	}
	res, err := m.Decode(resp, cells)
	if err != nil {
		return nil, opError(op, m, err)
	}
	return res, nil
}

// CheckAndMutate applies the mutation(s) of cam if its condition holds, atomically, and
// reports whether it did.
func (c *Client) CheckAndMutate(ctx context.Context, cam *hrpc.CheckAndMutate) (bool, error) {
	if cam == nil {
		return false, nilRequest("CheckAndMutate")
	}
	resp, cells, err := c.send(ctx, cam)
	if err != nil {
		return false, opError("CheckAndMutate", cam, err)
	}
	ok, err := cam.Decode(resp, cells)
	if err != nil {
		return false, opError("CheckAndMutate", cam, err)
	}
	return ok, nil
}

// MutateRow applies several mutations of one row atomically.
func (c *Client) MutateRow(ctx context.Context, rm *hrpc.RowMutations) error {
	if rm == nil {
		return nilRequest("RowMutations")
	}
	resp, cells, err := c.send(ctx, rm)
	if err == nil {
		err = rm.Decode(resp, cells)
	}
	if err != nil {
		return opError("MutateRow", rm, err)
	}
	return nil
}

// opName is the name a call's errors give its operation.
func opName(call hrpc.Call) string {
	switch call.(type) {
	case *hrpc.Get:
		return "Get"
	case *hrpc.Put:
		return "Put"
	case *hrpc.Delete:
		return "Delete"
	case *hrpc.Append:
		return "Append"
	case *hrpc.Increment:
		return "Increment"
	case *hrpc.CheckAndMutate:
		return "CheckAndMutate"
	case *hrpc.RowMutations:
		return "MutateRow"
	}
	return call.Method()
}

// opError says which operation, table and row failed: every call's error is one.
func opError(op string, call hrpc.Call, err error) error {
	return &hberr.OpError{Op: op, Table: call.Table(), Row: call.Key(), Err: err}
}
