package hbase

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
)

// ErrBadRequest is returned, before anything is sent, for a nil request.
var ErrBadRequest = errors.New("hbase: bad request")

// Get reads one row. A missing row gives a Result without cells.
func (c *Client) Get(ctx context.Context, g *hrpc.Get) (*hrpc.Result, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: nil Get", ErrBadRequest)
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
		return nil, fmt.Errorf("%w: nil Put", ErrBadRequest)
	}
	return c.mutate(ctx, p, "Put")
}

// Delete applies d.
func (c *Client) Delete(ctx context.Context, d *hrpc.Delete) (*hrpc.Result, error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil Delete", ErrBadRequest)
	}
	return c.mutate(ctx, d, "Delete")
}

// Append applies a and returns the new values.
func (c *Client) Append(ctx context.Context, a *hrpc.Append) (*hrpc.Result, error) {
	if a == nil {
		return nil, fmt.Errorf("%w: nil Append", ErrBadRequest)
	}
	return c.mutate(ctx, a, "Append")
}

// Increment applies inc and returns the new values.
func (c *Client) Increment(ctx context.Context, inc *hrpc.Increment) (*hrpc.Result, error) {
	if inc == nil {
		return nil, fmt.Errorf("%w: nil Increment", ErrBadRequest)
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
		return false, fmt.Errorf("%w: nil CheckAndMutate", ErrBadRequest)
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
		return fmt.Errorf("%w: nil RowMutations", ErrBadRequest)
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
	return &OpError{Op: op, Table: call.Table(), Row: call.Key(), Err: err}
}
