package fakehbase

import (
	"bytes"
)

// The fake evaluates filters the way HBase 2.6's region scanner drives its Filter objects, so
// that a filter's state (a page filter's row count, a first-key filter's "found") changes at
// the same moments: filterRowKey when a row starts, filterCell for each cell that survived
// the time range, column selection and delete markers (before versions are counted),
// transformCell on the cells kept, filterRowCells and filterRow once the row is read, reset
// between rows, and filterAllRemaining to end the scan.

// rc is a Filter.ReturnCode.
type rc uint8

const (
	rcInclude           rc = iota // INCLUDE
	rcIncludeAndNextCol           // INCLUDE_AND_NEXT_COL
	rcIncludeAndNextRow           // INCLUDE_AND_SEEK_NEXT_ROW
	rcSkip                        // SKIP
	rcNextCol                     // NEXT_COL
	rcNextRow                     // NEXT_ROW
	rcHint                        // SEEK_NEXT_USING_HINT
)

func (r rc) includes() bool { return r <= rcIncludeAndNextRow }

// level is how far past the cell a code moves: 0 the next cell, 1 the next column, 2 the
// next row (of this family).
func (r rc) level() int {
	switch r {
	case rcIncludeAndNextCol, rcNextCol:
		return 1
	case rcIncludeAndNextRow, rcNextRow:
		return 2
	}
	return 0
}

// code returns the return code that includes or not, moving on by level.
func code(include bool, level int) rc {
	if include {
		return [...]rc{rcInclude, rcIncludeAndNextCol, rcIncludeAndNextRow}[level]
	}
	return [...]rc{rcSkip, rcNextCol, rcNextRow}[level]
}

// filter is HBase's Filter, method by method.
type filter interface {
	reset()
	allRemaining() bool
	// rowKey reports whether the row is filtered out on its key alone.
	rowKey(row []byte) bool
	cell(c *kv) rc
	transform(c kv) kv
	hasRow() bool
	rowCells(cells []kv) []kv
	// row reports whether the row read is filtered out.
	row() bool
	// hint is where to seek after rcHint for c: a cell position, nil when none.
	hint(c *kv) *kv
}

// base is FilterBase: the defaults.
type base struct{}

func (base) reset()                   {}
func (base) allRemaining() bool       { return false }
func (base) rowKey([]byte) bool       { return false }
func (base) transform(c kv) kv        { return c }
func (base) hasRow() bool             { return false }
func (base) rowCells(cells []kv) []kv { return cells }
func (base) row() bool                { return false }
func (base) hint(*kv) *kv             { return nil }

// evalCtx is what the filters of one request share: the scan's direction and the first
// error met while evaluating (a comparator that cannot read a value).
type evalCtx struct {
	reversed bool
	err      error
}

func (e *evalCtx) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// compareRows compares rows in the scan's direction.
func (e *evalCtx) compareRows(a, b []byte) int {
	if e.reversed {
		return -bytes.Compare(a, b)
	}
	return bytes.Compare(a, b)
}

// Hints are cell positions, told apart by their type byte.
const (
	hintFirstOnRow    = 0 // the first cell of row
	hintFirstOnColumn = 1 // the first version of a column
	hintPastRow       = 2 // the first cell after row, in the scan's direction
)

func firstOnColumn(row, family, qualifier []byte) *kv {
	return &kv{row: row, family: family, qualifier: qualifier, typ: hintFirstOnColumn}
}

func pastRow(row []byte) *kv { return &kv{row: row, typ: hintPastRow} }

// beforeHint reports whether cell c comes before hint h in the scan's direction.
func (e *evalCtx) beforeHint(c, h *kv) bool {
	if cmp := e.compareRows(c.row, h.row); cmp != 0 {
		return cmp < 0
	}
	switch h.typ {
	case hintFirstOnRow:
		return false
	case hintPastRow:
		return true
	}
	if cmp := bytes.Compare(c.family, h.family); cmp != 0 {
		return cmp < 0
	}
	return bytes.Compare(c.qualifier, h.qualifier) < 0
}

// wrapper is HBase's FilterWrapper around the scan's filter: a row is filtered out on its
// key once the filter is done.
type wrapper struct{ filter }

func (w wrapper) rowKey(row []byte) bool {
	if w.allRemaining() {
		return true
	}
	return w.filter.rowKey(row)
}

// rowCellsWithRet is FilterWrapper.filterRowCellsWithRet: filterRowCells, then filterRow if
// cells are left. excluded reports that filterRow dropped them.
func (w wrapper) rowCellsWithRet(cells []kv) (kept []kv, excluded bool) {
	cells = w.rowCells(cells)
	if len(cells) > 0 && w.row() {
		return nil, true
	}
	return cells, false
}

// hintBefore reports whether hint a comes before hint b in the scan's direction.
func (e *evalCtx) hintBefore(a, b *kv) bool {
	if cmp := e.compareRows(a.row, b.row); cmp != 0 {
		return cmp < 0
	}
	if a.typ != b.typ {
		return a.typ < b.typ
	}
	if a.typ != hintFirstOnColumn {
		return false
	}
	if cmp := bytes.Compare(a.family, b.family); cmp != 0 {
		return cmp < 0
	}
	return bytes.Compare(a.qualifier, b.qualifier) < 0
}
