package fakehbase

import (
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// action is one action of a MultiRequest, decoded.
type action struct {
	index uint32
	get   *pb.Get
	mut   *mutation
	err   error // an injected fault or a decoding error: the action's exception
}

func (a *action) op() Op {
	if a.get != nil {
		return "Get"
	}
	return a.mut.op()
}

func (a *action) row() []byte {
	if a.get != nil {
		return a.get.GetRow()
	}
	return a.mut.row
}

// clientMulti serves a batch: per region, its actions one by one (each with its own result or
// exception), or all at once (MutateRow, a CheckAndMutate of several mutations).
func clientMulti(c *call) (proto.Message, error) {
	var req pb.MultiRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	// Every action is decoded first: the cellblock is read in order, whatever fails.
	acts := make([][]*action, len(req.GetRegionAction()))
	for i, ra := range req.GetRegionAction() {
		for _, pa := range ra.GetAction() {
			a := &action{index: pa.GetIndex(), get: pa.GetGet()}
			switch {
			case pa.GetServiceCall() != nil:
				a.err = unsupported("coprocessor calls")
			case pa.GetMutation() != nil:
				a.mut, a.err = c.decodeMutation(pa.GetMutation())
			case a.get == nil:
				a.err = badRequest("an action without a Get or a mutation")
			}
			acts[i] = append(acts[i], a)
		}
	}
	// Faults, per action (or per atomic region action).
	for i, ra := range req.GetRegionAction() {
		tableName, reg := c.target(ra.GetRegion())
		if ra.GetAtomic() || ra.GetCondition() != nil {
			op := OpMutateRow
			if ra.GetCondition() != nil {
				op = "CheckAndMutate"
			}
			var row []byte
			if len(acts[i]) > 0 && acts[i][0].err == nil {
				row = acts[i][0].row()
			}
			if err := c.inject(op, tableName, row, reg); err != nil {
				for _, a := range acts[i] {
					a.err = err
				}
			}
			continue
		}
		for _, a := range acts[i] {
			if a.err == nil {
				a.err = c.inject(a.op(), tableName, a.row(), reg)
			}
		}
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &pb.MultiResponse{}
	for i, ra := range req.GetRegionAction() {
		rar := &pb.RegionActionResult{}
		resp.RegionActionResult = append(resp.RegionActionResult, rar)
		r, err := c.served(ra.GetRegion())
		if err != nil {
			rar.Exception = asJava(err).pair()
			continue
		}
		if ra.GetAtomic() || ra.GetCondition() != nil {
			c.atomic(r, ra, acts[i], req.GetNonceGroup(), rar)
			continue
		}
		c.nonAtomic(r, acts[i], req.GetNonceGroup(), rar)
	}
	return resp, nil
}

// nonAtomic serves the actions of a region one by one, as RSRpcServices does: Gets at once,
// Appends and Increments at once, but Puts and Deletes gathered and applied together when an
// Append or Increment comes or at the end. So a Get sees none of the Puts of its own batch.
// Results go into the response in the order they are made (the cellblock follows it).
// Callers hold s.mu.
func (c *call) nonAtomic(r *region, acts []*action, nonceGroup uint64, rar *pb.RegionActionResult) {
	add := func(a *action, res *pb.Result, err error) {
		roe := &pb.ResultOrException{Index: proto.Uint32(a.index)}
		if err != nil {
			roe.Exception = asJava(err).pair()
		} else {
			roe.Result = res
		}
		rar.ResultOrException = append(rar.ResultOrException, roe)
	}
	var pending []*action
	flush := func() {
		for _, a := range pending {
			res, err := c.one(r, a, nonceGroup)
			add(a, res, err)
		}
		pending = pending[:0]
	}
	for _, a := range acts {
		if a.err == nil && a.mut != nil && (a.mut.typ == pb.MutationProto_PUT || a.mut.typ == pb.MutationProto_DELETE) {
			pending = append(pending, a)
			continue
		}
		if a.err == nil && a.mut != nil {
			flush()
		}
		res, err := c.one(r, a, nonceGroup)
		add(a, res, err)
	}
	flush()
}

// one serves one action of a batch. Callers hold s.mu.
func (c *call) one(r *region, a *action, nonceGroup uint64) (*pb.Result, error) {
	if a.err != nil {
		return nil, a.err
	}
	s := c.rs.s
	if a.get != nil {
		cells, err := s.get(r, a.get)
		if err != nil {
			return nil, err
		}
		if a.get.GetExistenceOnly() {
			return &pb.Result{Exists: proto.Bool(len(cells) > 0), Stale: proto.Bool(false)}, nil
		}
		return c.result(cells), nil
	}
	out, err := s.mutate(r, []*mutation{a.mut}, nonceGroup)
	if err != nil {
		return nil, err
	}
	if a.mut.noResults {
		return c.result(nil), nil
	}
	return c.result(out[0]), nil
}

// atomic serves a region action whose mutations of one row apply together or not at all:
// MutateRow, or a CheckAndMutate of several mutations. Callers hold s.mu.
func (c *call) atomic(r *region, ra *pb.RegionAction, acts []*action, nonceGroup uint64, rar *pb.RegionActionResult) {
	s := c.rs.s
	var ms []*mutation
	for _, a := range acts {
		if a.err == nil && a.get != nil {
			a.err = badRequest("a Get in an atomic region action")
		}
		if a.err != nil {
			rar.Exception = asJava(a.err).pair()
			return
		}
		ms = append(ms, a.mut)
	}
	if len(ms) == 0 {
		rar.Exception = badRequest("an atomic region action without mutations").pair()
		return
	}
	for _, m := range ms[1:] {
		if string(m.row) != string(ms[0].row) {
			rar.Exception = badRequest("Atomic put and/or delete only, not multiple rows").pair()
			return
		}
	}
	var cells []kv
	processed := true
	if cond := ra.GetCondition(); cond != nil {
		ok, out, err := s.checkAndMutate(r, cond, ms, nonceGroup)
		if err != nil {
			rar.Exception = asJava(err).pair()
			return
		}
		processed, cells = ok, out
	} else {
		results, err := s.mutate(r, ms, nonceGroup)
		if err != nil {
			rar.Exception = asJava(err).pair()
			return
		}
		for _, rc := range results {
			cells = append(cells, rc...)
		}
	}
	rar.Processed = proto.Bool(processed)
	for i, a := range acts {
		roe := &pb.ResultOrException{Index: proto.Uint32(a.index)}
		if i == 0 && len(cells) > 0 {
			roe.Result = c.result(cells)
		} else {
			roe.Result = &pb.Result{}
		}
		rar.ResultOrException = append(rar.ResultOrException, roe)
	}
}
