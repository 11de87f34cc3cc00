package fakehbase

import (
	"bytes"

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
	if err := checkConditionRow(r, cond.GetRow(), ms); err != nil {
		return false, nil, err
	}
	now := s.now()
	var matches bool
	var cellTS int64
	var err error
	if cond.GetFilter() != nil {
		matches, cellTS, err = s.filterConditionHolds(r, cond, now)
	} else {
		matches, cellTS, err = s.columnConditionHolds(r, cond, now)
	}
	if err != nil || !matches {
		return false, nil, err
	}
	stampPuts(ms, max(now, cellTS))
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

// checkConditionRow refuses mutations of another row than the condition's, a mutation
// mutate would refuse, and a row outside region r.
func checkConditionRow(r *region, row []byte, ms []*mutation) error {
	for _, m := range ms {
		if !bytes.Equal(m.row, row) {
			return badRequest("Action's getRow must match")
		}
		if err := m.check(r); err != nil {
			return err
		}
	}
	if !r.contains(row) {
		return jerr(WrongRegion, "Requested row out of range for checkAndMutate on HRegion %s, row='%s'", r.name, row)
	}
	return nil
}

// filterConditionHolds reports whether the condition's filter keeps a cell of its row, and
// the timestamp of the first cell kept.
func (s *Server) filterConditionHolds(r *region, cond *pb.Condition, now int64) (bool, int64, error) {
	row := cond.GetRow()
	p := readParams{filter: cond.GetFilter(), timeRange: cond.GetTimeRange(), maxVersions: 1}
	sp, err := newReadSpec(r.t, r.name, p, s.seq, now)
	if err != nil {
		return false, 0, err
	}
	var cells []kv
	if data := r.t.data.get(row); data != nil && data.hasAny(sp.fams) && !sp.filter.rowKey(row) {
		cells = sp.finishRow(sp.readRow(data))
	}
	if sp.ec.err != nil {
		return false, 0, sp.ec.err
	}
	if len(cells) == 0 {
		return false, 0, nil
	}
	return true, cells[0].ts, nil
}

// columnConditionHolds reports whether the newest version of the condition's column in its
// time range compares as the condition asks, and that version's timestamp. An empty value
// to compare with also matches a column without a value.
func (s *Server) columnConditionHolds(r *region, cond *pb.Condition, now int64) (matches bool, cellTS int64, err error) {
	f := r.t.fams[string(cond.GetFamily())]
	if f == nil {
		return false, 0, noSuchFamily(r.t, r.name, cond.GetFamily())
	}
	ec := &evalCtx{}
	cmp, err := decodeComparator(cond.GetComparator(), ec)
	if err != nil {
		return false, 0, err
	}
	minTS, maxTS := timeRange(cond.GetTimeRange())
	cur := readColumns(r.t.data.get(cond.GetRow()), f, [][]byte{cond.GetQualifier()}, minTS, maxTS, 1, s.seq, now)
	b, isBinary := cmp.(binaryComparator)
	valueIsNull := isBinary && len(b) == 0
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
		return false, 0, ec.err
	}
	return matches, cellTS, nil
}

// stampPuts gives the cells of the Puts among ms that have no timestamp the timestamp ts.
func stampPuts(ms []*mutation, ts int64) {
	for _, m := range ms {
		if m.typ != pb.MutationProto_PUT {
			continue
		}
		for i := range m.cells {
			if m.cells[i].ts == latestTS {
				m.cells[i].ts = ts
			}
		}
	}
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
