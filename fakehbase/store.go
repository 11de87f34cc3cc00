package fakehbase

import (
	"bytes"
	"math"
	"slices"

	"github.com/google/btree"
)

// Cell types as KeyValue encodes them.
const (
	typePut                 byte = 4
	typeDelete              byte = 8  // one version of one column
	typeDeleteFamilyVersion byte = 10 // one version of every column of a family
	typeDeleteColumn        byte = 12 // every version of one column, up to a timestamp
	typeDeleteFamily        byte = 14 // every version of every column of a family, up to a timestamp
)

// latestTS is HConstants.LATEST_TIMESTAMP: "the server's time" in a request.
const latestTS = math.MaxInt64

// kv is a cell as it travels in requests and results.
type kv struct {
	row, family, qualifier []byte
	ts                     int64
	typ                    byte
	value                  []byte
}

// stored is one cell of one family of a row: a put or a delete marker. Delete markers are
// kept for good (the fake never compacts), which is what a region that has not flushed and
// major-compacted shows: a marker masks older puts even when they are written after it.
type stored struct {
	qualifier []byte
	ts        int64
	typ       byte
	value     []byte
	seq       uint64 // the write that made it; scanners see only writes up to their read point
	flushed   bool   // in a store file: flushed from the memstore
}

// before orders stored cells as HBase's CellComparator does within a family: qualifier
// ascending, timestamp descending, type descending (markers before puts at one timestamp),
// and the later write first.
func (a *stored) before(b *stored) bool {
	if c := bytes.Compare(a.qualifier, b.qualifier); c != 0 {
		return c < 0
	}
	if a.ts != b.ts {
		return a.ts > b.ts
	}
	if a.typ != b.typ {
		return a.typ > b.typ
	}
	return a.seq > b.seq
}

// row is one row of a table: its cells by family.
type row struct {
	key  []byte
	fams map[string][]stored
}

// hasAny reports whether the row has a cell, marker or put, in one of fams (nil: any).
func (r *row) hasAny(fams []*famSel) bool {
	if fams == nil {
		for _, cells := range r.fams {
			if len(cells) > 0 {
				return true
			}
		}
		return false
	}
	for _, f := range fams {
		if len(r.fams[f.fam.name]) > 0 {
			return true
		}
	}
	return false
}

// data holds the rows of one table in its order (byte order, or hbase:meta's own).
type data struct {
	cmp  func(a, b []byte) int
	rows *btree.BTreeG[*row]
}

func newData(cmp func(a, b []byte) int) *data {
	return &data{cmp: cmp, rows: btree.NewG(16, func(a, b *row) bool { return cmp(a.key, b.key) < 0 })}
}

func (d *data) get(key []byte) *row {
	r, _ := d.rows.Get(&row{key: key})
	return r
}

// add stores one cell in row key, family fam.
func (d *data) add(key []byte, fam string, c stored) {
	r := d.get(key)
	if r == nil {
		r = &row{key: bytes.Clone(key), fams: make(map[string][]stored)}
		d.rows.ReplaceOrInsert(r)
	}
	cells := r.fams[fam]
	i, _ := slices.BinarySearchFunc(cells, &c, func(e stored, t *stored) int {
		if e.before(t) {
			return -1
		}
		return 1
	})
	r.fams[fam] = slices.Insert(cells, i, c)
}

// dropFamily removes every cell of family fam (the family was deleted from the table).
func (d *data) dropFamily(fam string) {
	d.rows.Ascend(func(r *row) bool {
		delete(r.fams, fam)
		return true
	})
}

// next returns the first row after key (or at it, when inclusive) in the scan's direction,
// that has a cell in fams, and is inside [lo, hi) (nil bounds are open); nil when none.
func (d *data) next(key []byte, inclusive, reversed bool, lo, hi []byte, fams []*famSel) *row {
	var found *row
	visit := func(r *row) bool {
		if !inclusive && d.cmp(r.key, key) == 0 {
			return true
		}
		if reversed {
			if lo != nil && d.cmp(r.key, lo) < 0 {
				return false
			}
			if hi != nil && d.cmp(r.key, hi) >= 0 {
				return true
			}
		} else {
			if hi != nil && d.cmp(r.key, hi) >= 0 {
				return false
			}
			if lo != nil && d.cmp(r.key, lo) < 0 {
				return true
			}
		}
		if r.hasAny(fams) {
			found = r
			return false
		}
		return true
	}
	switch {
	case reversed && key == nil:
		d.rows.Descend(visit)
	case reversed:
		d.rows.DescendLessOrEqual(&row{key: key}, visit)
	case key == nil:
		d.rows.Ascend(visit)
	default:
		d.rows.AscendGreaterOrEqual(&row{key: key}, visit)
	}
	return found
}
