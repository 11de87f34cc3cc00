package hbase

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/pb"
)

// ErrBadRequest is returned, before anything is sent, for a request that cannot be sent as
// asked: a nil request, or a mutation passed to the method of another kind (a Delete to Put).
var ErrBadRequest = errors.New("hbase: bad request")

// Get reads one row. A missing row gives a Result without cells.
func (c *Client) Get(ctx context.Context, g *hrpc.Get) (*hrpc.Result, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: nil Get", ErrBadRequest)
	}
	resp, cells, err := c.send(ctx, g)
	if err != nil {
		return nil, err
	}
	return g.Decode(resp, cells)
}

// Put writes the cells of a mutation built with hrpc.NewPut.
func (c *Client) Put(ctx context.Context, m *hrpc.Mutation) (*hrpc.Result, error) {
	return c.mutate(ctx, m, pb.MutationProto_PUT, "Put")
}

// Delete applies a mutation built with hrpc.NewDelete.
func (c *Client) Delete(ctx context.Context, m *hrpc.Mutation) (*hrpc.Result, error) {
	return c.mutate(ctx, m, pb.MutationProto_DELETE, "Delete")
}

// Append applies a mutation built with hrpc.NewAppend and returns the new values.
func (c *Client) Append(ctx context.Context, m *hrpc.Mutation) (*hrpc.Result, error) {
	return c.mutate(ctx, m, pb.MutationProto_APPEND, "Append")
}

// Increment applies a mutation built with hrpc.NewIncrement and returns the new values.
func (c *Client) Increment(ctx context.Context, m *hrpc.Mutation) (*hrpc.Result, error) {
	return c.mutate(ctx, m, pb.MutationProto_INCREMENT, "Increment")
}

func (c *Client) mutate(ctx context.Context, m *hrpc.Mutation, want pb.MutationProto_MutationType, op string) (*hrpc.Result, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil mutation passed to %s", ErrBadRequest, op)
	}
	if m.Type() != want {
		return nil, fmt.Errorf("%w: %s mutation passed to %s", ErrBadRequest, m.Type(), op)
	}
	resp, cells, err := c.send(ctx, m)
	if err != nil {
		return nil, err
	}
	return m.Decode(resp, cells)
}

// CheckAndMutate applies the mutation(s) of cam if its condition holds, atomically, and
// reports whether it did.
func (c *Client) CheckAndMutate(ctx context.Context, cam *hrpc.CheckAndMutate) (bool, error) {
	if cam == nil {
		return false, fmt.Errorf("%w: nil CheckAndMutate", ErrBadRequest)
	}
	resp, cells, err := c.send(ctx, cam)
	if err != nil {
		return false, err
	}
	return cam.Decode(resp, cells)
}

// MutateRow applies several mutations of one row atomically.
func (c *Client) MutateRow(ctx context.Context, rm *hrpc.RowMutations) error {
	if rm == nil {
		return fmt.Errorf("%w: nil RowMutations", ErrBadRequest)
	}
	resp, cells, err := c.send(ctx, rm)
	if err != nil {
		return err
	}
	return rm.Decode(resp, cells)
}
