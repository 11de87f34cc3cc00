package fakehbase

import (
	"bytes"
	"math/rand/v2"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
)

// Filters that decide on whole rows.

// prefixFilter keeps rows starting with a prefix and ends the scan past them.
type prefixFilter struct {
	base
	ec       *evalCtx
	prefix   []byte
	passed   bool
	filtered bool
}

func (f *prefixFilter) reset()             { f.filtered = true }
func (f *prefixFilter) allRemaining() bool { return f.passed }
func (f *prefixFilter) row() bool          { return f.filtered }

func (f *prefixFilter) rowKey(row []byte) bool {
	if f.prefix == nil || f.passed {
		return true
	}
	if len(row) < len(f.prefix) {
		return true
	}
	cmp := f.ec.compareRows(row[:len(f.prefix)], f.prefix)
	f.passed = cmp > 0
	f.filtered = cmp != 0
	return f.filtered
}

func (f *prefixFilter) cell(*kv) rc { return rowCode(f.filtered) }

// rowCode is the code of a filter that decides on whole rows for a cell of a row it keeps
// or refuses.
func rowCode(refused bool) rc {
	if refused {
		return rcNextRow
	}
	return rcInclude
}

// pageFilter keeps the first size rows a region scanner returns.
type pageFilter struct {
	base
	size     int64
	accepted int64
}

func (f *pageFilter) allRemaining() bool     { return f.accepted >= f.size }
func (f *pageFilter) rowKey(row []byte) bool { return f.allRemaining() }
func (f *pageFilter) cell(*kv) rc            { return rcInclude }
func (f *pageFilter) hasRow() bool           { return true }

func (f *pageFilter) row() bool {
	f.accepted++
	return f.accepted > f.size
}

// inclusiveStopFilter ends the scan after a row, that row included.
type inclusiveStopFilter struct {
	base
	ec   *evalCtx
	stop []byte
	done bool
}

func (f *inclusiveStopFilter) allRemaining() bool { return f.done }

func (f *inclusiveStopFilter) rowKey(row []byte) bool {
	if f.done {
		return true
	}
	f.done = f.ec.compareRows(row, f.stop) > 0
	return f.done
}

func (f *inclusiveStopFilter) cell(*kv) rc { return rowCode(f.done) }

// randomRowFilter keeps each row with a chance.
type randomRowFilter struct {
	base
	chance float32
	out    bool
}

func (f *randomRowFilter) reset()       { f.out = false }
func (f *randomRowFilter) row() bool    { return f.out }
func (f *randomRowFilter) hasRow() bool { return true }

func (f *randomRowFilter) rowKey([]byte) bool {
	switch {
	case f.chance < 0:
		f.out = true
	case f.chance > 1:
		f.out = false
	default:
		f.out = !(rand.Float32() < f.chance)
	}
	return f.out
}

func (f *randomRowFilter) cell(*kv) rc { return rowCode(f.out) }

// fuzzyRowFilter keeps rows matching one of its keys at the fixed positions.
type fuzzyRowFilter struct {
	base
	keys []fuzzyKey
}

type fuzzyKey struct {
	key   []byte
	fixed []bool
}

func newFuzzyRowFilter(m *pb.FuzzyRowFilter) (filter, error) {
	f := &fuzzyRowFilter{}
	for i, p := range m.GetFuzzyKeysData() {
		key, mask := p.GetFirst(), p.GetSecond()
		if len(key) != len(mask) {
			return nil, badRequest("FuzzyRowFilter: key %d has %d bytes and mask %d", i, len(key), len(mask))
		}
		fk := fuzzyKey{key: key, fixed: make([]bool, len(mask))}
		for j, b := range mask {
			// Preprocessed masks (V2 and the older form): -1 (0xff) fixed; 0 fixed in the
			// unprocessed form; anything else (1, 2) any byte.
			fk.fixed[j] = b == 0xff || (!m.GetIsMaskV2() && b == 0)
		}
		f.keys = append(f.keys, fk)
	}
	return f, nil
}

// matches reports whether row has a key's fixed bytes. A row shorter than a key is compared
// on its own length: HBase matches it when those of its bytes agree.
func (f *fuzzyRowFilter) matches(row []byte) bool {
	for _, k := range f.keys {
		ok := true
		for j := range min(len(k.key), len(row)) {
			if k.fixed[j] && row[j] != k.key[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (f *fuzzyRowFilter) cell(c *kv) rc {
	if f.matches(c.row) {
		return rcInclude
	}
	return rcHint
}

// hint is past c's row: the rows in between are skipped one way or another.
func (f *fuzzyRowFilter) hint(c *kv) *kv { return pastRow(c.row) }

// multiRowRangeFilter keeps rows inside any of its ranges and ends the scan past them.
type multiRowRangeFilter struct {
	base
	ec     *evalCtx
	ranges []rowRange
	done   bool
	out    bool
}

type rowRange struct {
	start, stop         []byte
	startIncl, stopIncl bool
}

func (r *rowRange) contains(row []byte) bool {
	if len(r.start) > 0 {
		c := bytes.Compare(row, r.start)
		if c < 0 || (c == 0 && !r.startIncl) {
			return false
		}
	}
	if len(r.stop) > 0 {
		c := bytes.Compare(row, r.stop)
		if c > 0 || (c == 0 && !r.stopIncl) {
			return false
		}
	}
	return true
}

func newMultiRowRangeFilter(m *pb.MultiRowRangeFilter, ec *evalCtx) filter {
	f := &multiRowRangeFilter{ec: ec}
	for _, r := range m.GetRowRangeList() {
		f.ranges = append(f.ranges, rowRange{start: r.GetStartRow(), stop: r.GetStopRow(),
			startIncl: r.GetStartRowInclusive(), stopIncl: r.GetStopRowInclusive()})
	}
	return f
}

func (f *multiRowRangeFilter) allRemaining() bool { return f.done }

// rowKey never filters a row out on its key: filterCell does, so a filter list can still
// keep the row's cells for another of its filters.
func (f *multiRowRangeFilter) rowKey(row []byte) bool {
	if f.done {
		return true
	}
	f.out = !slices.ContainsFunc(f.ranges, func(r rowRange) bool { return r.contains(row) })
	if f.out && f.pastAll(row) {
		f.done = true
	}
	return false
}

// pastAll reports whether no range holds a row after row in the scan's direction.
func (f *multiRowRangeFilter) pastAll(row []byte) bool {
	for _, r := range f.ranges {
		if f.ec.reversed {
			if len(r.start) == 0 || bytes.Compare(r.start, row) < 0 {
				return false
			}
		} else if len(r.stop) == 0 || bytes.Compare(r.stop, row) > 0 {
			return false
		}
	}
	return true
}

// cell seeks past a row out of the ranges, and moves to the next row once past them all.
func (f *multiRowRangeFilter) cell(*kv) rc {
	switch {
	case f.done:
		return rcNextRow
	case f.out:
		return rcHint
	}
	return rcInclude
}

func (f *multiRowRangeFilter) hint(c *kv) *kv { return pastRow(c.row) }
