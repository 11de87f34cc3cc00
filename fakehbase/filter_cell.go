package fakehbase

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
)

// Filters that decide cell by cell.

// keyOnlyFilter drops values (or replaces each with its length, as 4 bytes).
type keyOnlyFilter struct {
	base
	lenAsVal bool
}

func (f *keyOnlyFilter) cell(*kv) rc { return rcInclude }

func (f *keyOnlyFilter) transform(c kv) kv {
	if f.lenAsVal {
		c.value = binary.BigEndian.AppendUint32(nil, uint32(len(c.value)))
	} else {
		c.value = nil
	}
	return c
}

// firstKeyOnlyFilter keeps the first cell of each row.
type firstKeyOnlyFilter struct {
	base
	found bool
}

func (f *firstKeyOnlyFilter) reset() { f.found = false }

func (f *firstKeyOnlyFilter) cell(*kv) rc {
	if f.found {
		return rcNextRow
	}
	f.found = true
	return rcInclude
}

// filterAllFilter drops every row.
type filterAllFilter struct{ base }

func (filterAllFilter) cell(*kv) rc  { return rcSkip }
func (filterAllFilter) hasRow() bool { return true }
func (filterAllFilter) row() bool    { return true }

// timestampsFilter keeps the versions of given timestamps.
type timestampsFilter struct {
	base
	ts      []int64 // sorted
	canHint bool
}

func (f *timestampsFilter) cell(c *kv) rc {
	if len(f.ts) == 0 {
		return rcSkip // HBase: the empty set keeps nothing
	}
	if _, ok := slices.BinarySearch(f.ts, c.ts); ok {
		return rcInclude
	}
	if c.ts < f.ts[0] {
		return rcNextCol // older versions are older still
	}
	if f.canHint {
		return rcHint
	}
	return rcSkip
}

// hint is none: HBase's hint is an older version of c's column, and within one column the
// versions in between are skipped as SKIP skips them.
func (f *timestampsFilter) hint(*kv) *kv { return nil }

// columnPrefixFilter keeps the columns starting with a prefix.
type columnPrefixFilter struct {
	base
	prefix []byte
}

func (f *columnPrefixFilter) cell(c *kv) rc {
	q := c.qualifier
	if len(q) < len(f.prefix) {
		if bytes.Compare(q, f.prefix[:len(q)]) <= 0 {
			return rcHint
		}
		return rcNextRow
	}
	switch bytes.Compare(q[:len(f.prefix)], f.prefix) {
	case -1:
		return rcHint
	case 1:
		return rcNextRow
	}
	return rcInclude
}

func (f *columnPrefixFilter) hint(c *kv) *kv { return firstOnColumn(c.row, c.family, f.prefix) }

// multipleColumnPrefixFilter keeps the columns starting with one of its prefixes, with
// HBase's way of finding the prefix: the largest one not after the qualifier.
type multipleColumnPrefixFilter struct {
	base
	prefixes [][]byte // sorted, unique
	next     []byte   // the hint of the last rcHint
}

func newMultipleColumnPrefixFilter(m *pb.MultipleColumnPrefixFilter) filter {
	p := slices.Clone(m.GetSortedPrefixes())
	slices.SortFunc(p, bytes.Compare)
	p = slices.CompactFunc(p, bytes.Equal)
	return &multipleColumnPrefixFilter{prefixes: p}
}

func (f *multipleColumnPrefixFilter) cell(c *kv) rc {
	q := c.qualifier
	// The prefixes at or before q.
	n, found := slices.BinarySearchFunc(f.prefixes, q, bytes.Compare)
	if found {
		n++
	}
	if n == 0 {
		if len(f.prefixes) == 0 {
			return rcNextRow
		}
		f.next = f.prefixes[0]
		return rcHint
	}
	if bytes.HasPrefix(q, f.prefixes[n-1]) {
		return rcInclude
	}
	if n == len(f.prefixes) {
		return rcNextRow
	}
	f.next = f.prefixes[n]
	return rcHint
}

func (f *multipleColumnPrefixFilter) hint(c *kv) *kv {
	return firstOnColumn(c.row, c.family, f.next)
}

// columnRangeFilter keeps the columns between two qualifiers.
type columnRangeFilter struct {
	base
	min, max         []byte // nil: open
	minIncl, maxIncl bool
}

func (f *columnRangeFilter) cell(c *kv) rc {
	cmpMin := 1
	if f.min != nil {
		cmpMin = bytes.Compare(c.qualifier, f.min)
	}
	if cmpMin < 0 {
		return rcHint
	}
	if !f.minIncl && cmpMin == 0 {
		return rcNextCol
	}
	if f.max == nil {
		return rcInclude
	}
	cmpMax := bytes.Compare(c.qualifier, f.max)
	if (f.maxIncl && cmpMax <= 0) || (!f.maxIncl && cmpMax < 0) {
		return rcInclude
	}
	return rcNextRow
}

func (f *columnRangeFilter) hint(c *kv) *kv { return firstOnColumn(c.row, c.family, f.min) }

// columnPaginationFilter keeps limit columns of each row, from an offset (a count of
// columns, or a qualifier).
type columnPaginationFilter struct {
	base
	limit, offset int32
	columnOffset  []byte // set: the offset is this qualifier
	count         int32
}

func (f *columnPaginationFilter) reset() { f.count = 0 }

func (f *columnPaginationFilter) cell(c *kv) rc {
	if f.columnOffset != nil {
		if f.count >= f.limit {
			return rcNextRow
		}
		cmp := 0
		if f.count == 0 {
			cmp = bytes.Compare(c.qualifier, f.columnOffset)
		}
		if cmp < 0 {
			return rcHint
		}
		f.count++
		return rcIncludeAndNextCol
	}
	if f.count >= f.offset+f.limit {
		return rcNextRow
	}
	r := rcIncludeAndNextCol
	if f.count < f.offset {
		r = rcNextCol
	}
	f.count++
	return r
}

func (f *columnPaginationFilter) hint(c *kv) *kv {
	return firstOnColumn(c.row, c.family, f.columnOffset)
}

// columnCountGetFilter keeps the first limit columns of a row.
type columnCountGetFilter struct {
	base
	limit int32
	count int32
}

func (f *columnCountGetFilter) reset()                 { f.count = 0 }
func (f *columnCountGetFilter) allRemaining() bool     { return f.count > f.limit }
func (f *columnCountGetFilter) rowKey(row []byte) bool { return f.allRemaining() }

func (f *columnCountGetFilter) cell(*kv) rc {
	f.count++
	if f.allRemaining() {
		return rcNextCol
	}
	return rcIncludeAndNextCol
}

// Which part of a cell a compare filter compares.
type cellPart int

const (
	partRow cellPart = iota
	partFamily
	partQualifier
	partValue
)

// compareFilter is RowFilter, FamilyFilter, QualifierFilter and ValueFilter.
type compareFilter struct {
	base
	part   cellPart
	op     pb.CompareType
	cmp    comparator
	rowOut bool // RowFilter: this row was filtered out on its key
}

func (f *compareFilter) out(b []byte) bool {
	if f.op == opNoOp {
		return true
	}
	return filterOut(f.op, f.cmp.compareTo(b))
}

func (f *compareFilter) reset() { f.rowOut = false }

func (f *compareFilter) rowKey(row []byte) bool {
	if f.part != partRow {
		return false
	}
	if f.out(row) {
		f.rowOut = true
	}
	return f.rowOut
}

func (f *compareFilter) row() bool { return f.part == partRow && f.rowOut }

func (f *compareFilter) cell(c *kv) rc {
	switch f.part {
	case partRow:
		if f.rowOut {
			return rcNextRow
		}
	case partFamily:
		if len(c.family) > 0 && f.out(c.family) {
			return rcNextRow
		}
	case partQualifier:
		if f.out(c.qualifier) {
			return rcSkip
		}
	case partValue:
		if f.out(c.value) {
			return rcSkip
		}
	}
	return rcInclude
}

// singleColumnValueFilter keeps the rows whose column (latest version, or any version)
// passes a comparison; exclude drops that column from the rows kept.
type singleColumnValueFilter struct {
	base
	family, qualifier []byte
	op                pb.CompareType
	cmp               comparator
	ifMissing         bool
	latestOnly        bool
	exclude           bool

	found, matched bool
}

func newSingleColumnValueFilter(m *pb.SingleColumnValueFilter, exclude bool, ec *evalCtx) (filter, error) {
	cmp, err := decodeComparator(m.GetComparator(), ec)
	if err != nil {
		return nil, err
	}
	return &singleColumnValueFilter{family: m.GetColumnFamily(), qualifier: m.GetColumnQualifier(),
		op: m.GetCompareOp(), cmp: cmp, ifMissing: m.GetFilterIfMissing(),
		latestOnly: m.GetLatestVersionOnly(), exclude: exclude}, nil
}

func (f *singleColumnValueFilter) reset()       { f.found, f.matched = false, false }
func (f *singleColumnValueFilter) hasRow() bool { return true }

func (f *singleColumnValueFilter) cell(c *kv) rc {
	if f.matched {
		return rcInclude
	}
	if f.latestOnly && f.found {
		return rcNextRow
	}
	if !bytes.Equal(c.family, f.family) || !bytes.Equal(c.qualifier, f.qualifier) {
		return rcInclude
	}
	f.found = true
	if f.op == opNoOp || filterOut(f.op, f.cmp.compareTo(c.value)) {
		if f.latestOnly {
			return rcNextRow
		}
		return rcInclude
	}
	f.matched = true
	return rcInclude
}

func (f *singleColumnValueFilter) row() bool {
	if f.found {
		return !f.matched
	}
	return f.ifMissing
}

func (f *singleColumnValueFilter) rowCells(cells []kv) []kv {
	if !f.exclude {
		return cells
	}
	return slices.DeleteFunc(cells, func(c kv) bool {
		return bytes.Equal(c.family, f.family) && bytes.Equal(c.qualifier, f.qualifier)
	})
}

// columnValueFilter keeps the cells of one column whose value passes a comparison.
type columnValueFilter struct {
	base
	family, qualifier []byte
	op                pb.CompareType
	cmp               comparator
	found             bool
}

func (f *columnValueFilter) reset() { f.found = false }

func (f *columnValueFilter) cell(c *kv) rc {
	if !bytes.Equal(c.family, f.family) || !bytes.Equal(c.qualifier, f.qualifier) {
		if f.found {
			return rcNextRow
		}
		return rcNextCol
	}
	f.found = true
	if f.op == opNoOp || filterOut(f.op, f.cmp.compareTo(c.value)) {
		return rcSkip
	}
	return rcInclude
}

// dependentColumnFilter keeps the cells whose timestamps the dependent column has (among its
// versions passing the comparison, when there is one).
type dependentColumnFilter struct {
	base
	family, qualifier []byte
	op                pb.CompareType
	cmp               comparator // nil: every version counts
	drop              bool
	stamps            map[int64]bool
}

func (f *dependentColumnFilter) reset()       { clear(f.stamps) }
func (f *dependentColumnFilter) hasRow() bool { return true }

func (f *dependentColumnFilter) cell(c *kv) rc {
	if !bytes.Equal(c.family, f.family) || !bytes.Equal(c.qualifier, f.qualifier) {
		return rcInclude
	}
	if f.cmp != nil && (f.op == opNoOp || filterOut(f.op, f.cmp.compareTo(c.value))) {
		return rcSkip
	}
	f.stamps[c.ts] = true
	if f.drop {
		return rcSkip
	}
	return rcInclude
}

func (f *dependentColumnFilter) rowCells(cells []kv) []kv {
	return slices.DeleteFunc(cells, func(c kv) bool { return !f.stamps[c.ts] })
}
