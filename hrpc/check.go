package hrpc

import (
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// The CheckResponse methods check a response against its request before it is decoded (the
// region connection calls them while it still has the frame, so that a corrupt response can be
// logged with its bytes and the connection reset): a single-row result must hold cells of the
// requested row only, exactly as many as it announces, and nothing may be left in the
// cellblock after them (wire.CheckSingleResult, wire.CheckRowActions). They allocate nothing.

// CheckResponse checks a GetResponse.
func (g *getCall) CheckResponse(resp proto.Message, cells []byte) error {
	if rr, ok := resp.(*getResponse); ok {
		return wire.CheckSingleResult(rr.Result, cells, g.row)
	}
	r, ok := resp.(*pb.GetResponse)
	if !ok {
		return badResponse("%T for a Get", resp)
	}
	return wire.CheckSingleResult(r.Result, cells, g.row)
}

// CheckResponse checks a MutateResponse.
func (m *mutationCall) CheckResponse(resp proto.Message, cells []byte) error {
	r, ok := resp.(*pb.MutateResponse)
	if !ok {
		return badResponse("%T for a %s", resp, m.mtype)
	}
	return wire.CheckSingleResult(r.Result, cells, m.row)
}

// CheckResponse checks the MutateResponse, or the MultiResponse of RowMutations.
func (c *checkAndMutateCall) CheckResponse(resp proto.Message, cells []byte) error {
	if c.rows != nil {
		return wire.CheckRowActions(resp, cells, c.row)
	}
	r, ok := resp.(*pb.MutateResponse)
	if !ok {
		return badResponse("%T for a conditional Mutate", resp)
	}
	return wire.CheckSingleResult(r.Result, cells, c.row)
}

// CheckResponse checks the MultiResponse: every action's result is of the mutations' row.
func (r *rowMutationsCall) CheckResponse(resp proto.Message, cells []byte) error {
	return wire.CheckRowActions(resp, cells, r.row)
}
