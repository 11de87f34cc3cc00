package fakehbase

import "bytes"

// filterList is FilterList: MUST_PASS_ALL (and) or MUST_PASS_ONE (or) over its filters, with
// HBase 2.6's merging of return codes (the largest step for and, the smallest for or).
type filterList struct {
	ec   *evalCtx
	or   bool
	subs []filter

	hints []filter // and: the filters that asked to seek, for the last cell

	// or: per filter, the last code and cell of this row, and whether it kept the last cell.
	prevRC   []rc
	prevCell []*kv
	included []bool
}

func newFilterList(or bool, subs []filter, ec *evalCtx) *filterList {
	return &filterList{ec: ec, or: or, subs: subs, prevRC: make([]rc, len(subs)),
		prevCell: make([]*kv, len(subs)), included: make([]bool, len(subs))}
}

func (f *filterList) reset() {
	for i, s := range f.subs {
		s.reset()
		f.prevCell[i], f.included[i] = nil, false
	}
	f.hints = f.hints[:0]
}

func (f *filterList) allRemaining() bool { return f.combine(filter.allRemaining) }

// combine is the list's answer to a question whose yes drops something (a row, the rest of
// the scan): yes for and when any of its filters says yes, for or only when all of them do;
// no for an empty list.
func (f *filterList) combine(answer func(filter) bool) bool {
	if len(f.subs) == 0 {
		return false
	}
	for _, s := range f.subs {
		if answer(s) != f.or {
			return !f.or
		}
	}
	return f.or
}

// rowKey asks every filter, even after the answer is known: filters such as PrefixFilter
// note the new row there.
func (f *filterList) rowKey(row []byte) bool {
	if len(f.subs) == 0 {
		return false
	}
	out := f.or
	for _, s := range f.subs {
		if f.or {
			if !s.allRemaining() && !s.rowKey(row) {
				out = false
			}
		} else if s.allRemaining() || s.rowKey(row) {
			out = true
		}
	}
	return out
}

func (f *filterList) cell(c *kv) rc {
	if len(f.subs) == 0 {
		return rcInclude
	}
	if f.or {
		return f.cellOr(c)
	}
	r := rcInclude
	f.hints = f.hints[:0]
	for _, s := range f.subs {
		if s.allRemaining() {
			return rcNextRow
		}
		local := s.cell(c)
		if local == rcHint {
			f.hints = append(f.hints, s)
		}
		r = mergeAnd(r, local)
		if !r.includes() {
			return r
		}
	}
	if len(f.hints) > 0 {
		return rcHint
	}
	return r
}

// mergeAnd takes the larger step of two codes; a seek wins.
func mergeAnd(a, b rc) rc {
	if a == rcHint || b == rcHint {
		return rcHint
	}
	return code(a.includes() && b.includes(), max(a.level(), b.level()))
}

// mergeOr takes the smaller step of two codes; a seek counts as a skip unless both seek.
func mergeOr(a, b rc) rc {
	if a == rcHint && b == rcHint {
		return rcHint
	}
	la, lb := a.level(), b.level()
	if a == rcHint {
		la = 0
	}
	if b == rcHint {
		lb = 0
	}
	return code(a.includes() || b.includes(), min(la, lb))
}

func (f *filterList) cellOr(c *kv) rc {
	var r rc
	any := false
	for i, s := range f.subs {
		f.included[i] = false
		if s.allRemaining() {
			continue
		}
		local, known := f.fromPrevious(i, c)
		if !known {
			local = s.cell(c)
		}
		f.prevRC[i] = local
		f.prevCell[i] = nil
		if local != rcInclude && local != rcSkip {
			cc := *c
			f.prevCell[i] = &cc
		}
		if any {
			r = mergeOr(r, local)
		} else {
			r, any = local, true
		}
		f.included[i] = local.includes()
	}
	if !any {
		return rcSkip
	}
	return r
}

// fromPrevious answers for filter i without asking it, when its answer for the previous
// cell still covers c (it asked to move past c's column, family or seek position), so that
// the filter's own state is not disturbed by cells it has already moved past.
func (f *filterList) fromPrevious(i int, c *kv) (rc, bool) {
	prev := f.prevCell[i]
	if prev == nil {
		return 0, false
	}
	switch f.prevRC[i] {
	case rcHint:
		if h := f.subs[i].hint(prev); h != nil && f.ec.beforeHint(c, h) {
			return rcHint, true
		}
	case rcNextCol, rcIncludeAndNextCol:
		if bytes.Equal(prev.family, c.family) && bytes.Equal(prev.qualifier, c.qualifier) {
			return rcNextCol, true
		}
	case rcNextRow, rcIncludeAndNextRow:
		if bytes.Equal(prev.family, c.family) {
			return rcNextRow, true
		}
	}
	return 0, false
}

func (f *filterList) transform(c kv) kv {
	for i, s := range f.subs {
		if !f.or || f.included[i] {
			c = s.transform(c)
		}
	}
	return c
}

func (f *filterList) hasRow() bool {
	for _, s := range f.subs {
		if s.hasRow() {
			return true
		}
	}
	return false
}

func (f *filterList) rowCells(cells []kv) []kv {
	for _, s := range f.subs {
		cells = s.rowCells(cells)
	}
	return cells
}

func (f *filterList) row() bool { return f.combine(filter.row) }

// hint is the farthest seek of the and filters that asked for one, or the nearest of the or
// filters (none when one of them has none).
func (f *filterList) hint(c *kv) *kv {
	var best *kv
	if !f.or {
		for _, s := range f.hints {
			if s.allRemaining() {
				continue
			}
			h := s.hint(c)
			if best == nil || (h != nil && f.ec.hintBefore(best, h)) {
				best = h
			}
		}
		return best
	}
	for _, s := range f.subs {
		if s.allRemaining() {
			continue
		}
		h := s.hint(c)
		if h == nil {
			return nil
		}
		if best == nil || f.ec.hintBefore(h, best) {
			best = h
		}
	}
	return best
}

// skipFilter drops a whole row when its filter refuses any cell of it.
type skipFilter struct {
	base
	sub      filter
	filtered bool
}

func (f *skipFilter) reset()       { f.sub.reset(); f.filtered = false }
func (f *skipFilter) hasRow() bool { return true }
func (f *skipFilter) row() bool    { return f.filtered }

func (f *skipFilter) cell(c *kv) rc {
	r := f.sub.cell(c)
	f.filtered = f.filtered || r != rcInclude
	return r
}

func (f *skipFilter) transform(c kv) kv { return f.sub.transform(c) }

// whileMatchFilter ends the scan at the first row or cell its filter refuses.
type whileMatchFilter struct {
	sub  filter
	done bool
}

func (f *whileMatchFilter) reset()             { f.sub.reset() }
func (f *whileMatchFilter) allRemaining() bool { return f.done || f.sub.allRemaining() }
func (f *whileMatchFilter) hasRow() bool       { return true }

func (f *whileMatchFilter) rowKey(row []byte) bool {
	v := f.sub.rowKey(row)
	f.done = f.done || v
	return v
}

func (f *whileMatchFilter) cell(c *kv) rc {
	r := f.sub.cell(c)
	f.done = f.done || r != rcInclude
	return r
}

func (f *whileMatchFilter) transform(c kv) kv { return f.sub.transform(c) }

func (f *whileMatchFilter) rowCells(cells []kv) []kv { return f.sub.rowCells(cells) }

func (f *whileMatchFilter) row() bool {
	v := f.sub.row()
	f.done = f.done || v
	return v
}

func (f *whileMatchFilter) hint(c *kv) *kv { return f.sub.hint(c) }
