package fakehbase

import (
	"bytes"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// nonceResult is what an Append or Increment with a nonce returned: sent again (the client
// retried after losing its connection), it returns the same without applying twice.
type nonceResult struct{ cells []kv }

// maxNonces bounds the nonces remembered; the oldest go first (HBase forgets them after a
// while too).
const maxNonces = 1 << 16

func (s *Server) rememberNonce(key [2]uint64, cells []kv) {
	if len(s.nonceOrder) >= maxNonces {
		for _, k := range s.nonceOrder[:maxNonces/2] {
			delete(s.nonces, k)
		}
		s.nonceOrder = s.nonceOrder[:copy(s.nonceOrder, s.nonceOrder[maxNonces/2:])]
	}
	s.nonces[key] = &nonceResult{cells: cells}
	s.nonceOrder = append(s.nonceOrder, key)
}

func clientMutate(c *call) (proto.Message, error) {
	var req pb.MutateRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	m, err := c.decodeMutation(req.GetMutation())
	if err != nil {
		return nil, err
	}
	op := m.op()
	if req.GetCondition() != nil {
		op = "CheckAndMutate"
	}
	r, unlock, err := c.enter(op, req.GetRegion(), m.row)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s := c.rs.s
	if cond := req.GetCondition(); cond != nil {
		ok, cells, err := s.checkAndMutate(r, cond, []*mutation{m}, req.GetNonceGroup())
		if err != nil {
			return nil, err
		}
		resp := &pb.MutateResponse{Processed: proto.Bool(ok)}
		if len(cells) > 0 {
			resp.Result = c.result(cells)
		}
		return resp, nil
	}
	cells, err := s.mutate(r, []*mutation{m}, req.GetNonceGroup())
	if err != nil {
		return nil, err
	}
	resp := &pb.MutateResponse{Processed: proto.Bool(true)}
	if m.typ == pb.MutationProto_APPEND || m.typ == pb.MutationProto_INCREMENT {
		if m.noResults {
			resp.Result = c.result(nil)
		} else {
			resp.Result = c.result(cells[0])
		}
	}
	return resp, nil
}

// mutate checks then applies mutations of one region as one write (a MutateRow is atomic:
// none is applied if one is refused), and returns each one's result cells. Callers hold s.mu.
func (s *Server) mutate(r *region, ms []*mutation, nonceGroup uint64) ([][]kv, error) {
	for _, m := range ms {
		if err := m.check(r); err != nil {
			return nil, err
		}
	}
	s.seq++
	now := s.now()
	out := make([][]kv, len(ms))
	for i, m := range ms {
		key := [2]uint64{nonceGroup, m.nonce}
		if m.nonce != 0 {
			if done := s.nonces[key]; done != nil {
				out[i] = done.cells
				continue
			}
		}
		cells, err := s.apply(r, m, s.seq, now)
		if err != nil {
			return nil, err
		}
		if m.nonce != 0 {
			s.rememberNonce(key, cells)
		}
		out[i] = cells
	}
	return out, nil
}

// checkAndMutate applies mutations of one row if the condition holds, as HRegion.checkAndMutate
// does: the condition's column is read (its newest version in the time range), or the row
// with the condition's filter; Puts without a timestamp are then stamped no earlier than the
// cell checked. Callers hold s.mu.
func (s *Server) checkAndMutate(r *region, cond *pb.Condition, ms []*mutation, nonceGroup uint64) (bool, []kv, error) {
	row := cond.GetRow()
	for _, m := range ms {
		if !bytes.Equal(m.row, row) {
			return false, nil, badRequest("Action's getRow must match")
		}
		if err := m.check(r); err != nil {
			return false, nil, err
		}
	}
	if !r.contains(row) {
		return false, nil, jerr(WrongRegion, "Requested row out of range for checkAndMutate on HRegion %s, row='%s'", r.name, row)
	}
	now := s.now()
	data := r.t.data.get(row)
	var matches bool
	var cellTS int64
	if cond.GetFilter() != nil {
		p := readParams{filter: cond.GetFilter(), timeRange: cond.GetTimeRange(), maxVersions: 1}
		sp, err := newReadSpec(r.t, r.name, p, s.seq, now)
		if err != nil {
			return false, nil, err
		}
		var cells []kv
		if data != nil && data.hasAny(sp.fams) && !sp.filter.rowKey(row) {
			cells = sp.finishRow(sp.readRow(data))
		}
		if sp.ec.err != nil {
			return false, nil, sp.ec.err
		}
		if len(cells) > 0 {
			matches, cellTS = true, cells[0].ts
		}
	} else {
		f := r.t.fams[string(cond.GetFamily())]
		if f == nil {
			return false, nil, noSuchFamily(r.t, r.name, cond.GetFamily())
		}
		ec := &evalCtx{}
		cmp, err := decodeComparator(cond.GetComparator(), ec)
		if err != nil {
			return false, nil, err
		}
		minTS, maxTS := int64(0), int64(math.MaxInt64)
		if tr := cond.GetTimeRange(); tr != nil {
			if tr.From != nil {
				minTS = int64(tr.GetFrom())
			}
			if tr.To != nil {
				maxTS = int64(tr.GetTo())
			}
		}
		cur := readColumns(data, f, [][]byte{cond.GetQualifier()}, minTS, maxTS, 1, s.seq, now)
		valueIsNull := false
		if b, ok := cmp.(binaryComparator); ok && len(b) == 0 {
			valueIsNull = true
		}
		op := cond.GetCompareType()
		switch {
		case len(cur) == 0 && valueIsNull:
			matches = op != opNotEqual
		case len(cur) > 0 && valueIsNull:
			matches = (len(cur[0].value) == 0) == (op != opNotEqual)
			cellTS = cur[0].ts
		case len(cur) == 1:
			cellTS = cur[0].ts
			matches = conditionHolds(op, cmp.compareTo(cur[0].value))
		}
		if ec.err != nil {
			return false, nil, ec.err
		}
	}
	if !matches {
		return false, nil, nil
	}
	stampTS := max(now, cellTS)
	for _, m := range ms {
		if m.typ != pb.MutationProto_PUT {
			continue
		}
		for i := range m.cells {
			if m.cells[i].ts == latestTS {
				m.cells[i].ts = stampTS
			}
		}
	}
	results, err := s.mutate(r, ms, nonceGroup)
	if err != nil {
		return false, nil, err
	}
	var cells []kv
	for _, rc := range results {
		cells = append(cells, rc...)
	}
	return true, cells, nil
}

// conditionHolds is HRegion's matches: cmp compares the condition's value with the cell's, so
// LESS holds when the given value is less than the cell's.
func conditionHolds(op pb.CompareType, cmp int) bool {
	switch op {
	case opLess:
		return cmp < 0
	case opLessOrEqual:
		return cmp <= 0
	case opEqual:
		return cmp == 0
	case opNotEqual:
		return cmp != 0
	case opGreaterOrEqual:
		return cmp >= 0
	case opGreater:
		return cmp > 0
	}
	return false
}
