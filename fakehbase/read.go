package fakehbase

import (
	"bytes"
	"math"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
)

// famSel is one family a read asks for: the whole family, or some of its columns.
type famSel struct {
	fam   *family
	name  []byte
	quals [][]byte // sorted and unique; nil: every column
}

// readSpec is what a Get or a scanner reads of each row, with the state its filter keeps
// across rows.
type readSpec struct {
	ec           *evalCtx
	filter       *wrapper // nil: none
	fams         []*famSel
	minTS, maxTS int64 // [minTS, maxTS)
	maxVersions  int
	storeLimit   int // -1: none
	storeOffset  int
	readPoint    uint64
	now          int64           // ms, for TTLs
	closed       map[string]bool // families whose store a done filter closed (scanners)
	// later reports whether a family's store holds a row after the current one (scanners;
	// nil for a Get).
	later func(fs *famSel) bool
}

// readParams are the fields Get and Scan share.
type readParams struct {
	columns     []*pb.Column
	timeRange   *pb.TimeRange
	maxVersions uint32
	storeLimit  *uint32
	storeOffset *uint32
	filter      *pb.Filter
	reversed    bool
}

// newReadSpec checks a read's columns against table t (region names the region, for the
// error) and decodes its filter.
func newReadSpec(t *table, regionName []byte, p readParams, readPoint uint64, now int64) (*readSpec, error) {
	sp := &readSpec{ec: &evalCtx{reversed: p.reversed}, minTS: 0, maxTS: math.MaxInt64,
		maxVersions: max(int(p.maxVersions), 1), storeLimit: -1, readPoint: readPoint, now: now,
		closed: map[string]bool{}}
	if tr := p.timeRange; tr != nil {
		if tr.From != nil {
			sp.minTS = int64(tr.GetFrom())
		}
		if tr.To != nil {
			sp.maxTS = int64(tr.GetTo())
		}
		if sp.minTS < 0 || sp.maxTS < sp.minTS {
			return nil, badRequest("bad time range [%d, %d)", sp.minTS, sp.maxTS)
		}
	}
	if p.storeLimit != nil {
		sp.storeLimit = int(*p.storeLimit)
	}
	if p.storeOffset != nil {
		sp.storeOffset = int(*p.storeOffset)
	}
	if len(p.columns) == 0 {
		for _, name := range t.famNames {
			sp.fams = append(sp.fams, &famSel{fam: t.fams[name], name: []byte(name)})
		}
	} else {
		byName := map[string]*famSel{}
		for _, c := range p.columns {
			f := t.fams[string(c.GetFamily())]
			if f == nil {
				return nil, noSuchFamily(t, regionName, c.GetFamily())
			}
			fs := byName[f.name]
			if fs == nil {
				fs = &famSel{fam: f, name: []byte(f.name), quals: [][]byte{}}
				byName[f.name] = fs
				sp.fams = append(sp.fams, fs)
			}
			if len(c.GetQualifier()) == 0 || fs.quals == nil {
				fs.quals = nil
				continue
			}
			fs.quals = append(fs.quals, c.GetQualifier()...)
		}
		slices.SortFunc(sp.fams, func(a, b *famSel) int { return bytes.Compare(a.name, b.name) })
		for _, fs := range sp.fams {
			if fs.quals != nil {
				slices.SortFunc(fs.quals, bytes.Compare)
				fs.quals = slices.CompactFunc(fs.quals, bytes.Equal)
			}
		}
	}
	if p.filter != nil {
		f, err := decodeFilter(p.filter, sp.ec)
		if err != nil {
			return nil, err
		}
		sp.filter = &wrapper{f}
	}
	return sp, nil
}

// readRow reads the cells of row r the read keeps, family by family, before the row-level
// steps of its filter (filterRowCells, filterRow).
func (sp *readSpec) readRow(r *row) []kv {
	var out []kv
	for _, fs := range sp.fams {
		if sp.closed[fs.fam.name] {
			continue
		}
		out = sp.appendFamily(out, r.key, fs, r.fams[fs.fam.name])
	}
	return out
}

// finishRow runs the row-level steps on the cells readRow kept: the cells of the result, nil
// when the row is not returned.
func (sp *readSpec) finishRow(cells []kv) []kv {
	f := sp.filter
	if f == nil || len(cells) == 0 {
		return cells
	}
	if f.hasRow() {
		kept, excluded := f.rowCellsWithRet(cells)
		if excluded {
			return nil
		}
		return kept
	}
	if f.row() {
		return nil
	}
	return cells
}

// markers are the delete markers of one family of a row that a read sees.
type markers struct {
	family    int64            // DeleteFamily: every cell at or before it
	famVer    map[int64]bool   // DeleteFamilyVersion: every column's version at it
	column    map[string]int64 // DeleteColumn: the column's cells at or before it
	version   map[string]map[int64]bool
	anyMarker bool
}

func (sp *readSpec) markersOf(cells []stored) *markers {
	m := &markers{family: -1}
	for i := range cells {
		c := &cells[i]
		if c.typ == typePut || c.seq > sp.readPoint {
			continue
		}
		m.anyMarker = true
		switch c.typ {
		case typeDeleteFamily:
			m.family = max(m.family, c.ts)
		case typeDeleteFamilyVersion:
			if m.famVer == nil {
				m.famVer = map[int64]bool{}
			}
			m.famVer[c.ts] = true
		case typeDeleteColumn:
			if m.column == nil {
				m.column = map[string]int64{}
			}
			if old, ok := m.column[string(c.qualifier)]; !ok || c.ts > old {
				m.column[string(c.qualifier)] = c.ts
			}
		case typeDelete:
			if m.version == nil {
				m.version = map[string]map[int64]bool{}
			}
			q := string(c.qualifier)
			if m.version[q] == nil {
				m.version[q] = map[int64]bool{}
			}
			m.version[q][c.ts] = true
		}
	}
	return m
}

func (m *markers) masks(q []byte, ts int64) bool {
	if !m.anyMarker {
		return false
	}
	if ts <= m.family || m.famVer[ts] {
		return true
	}
	if d, ok := m.column[string(q)]; ok && ts <= d {
		return true
	}
	return m.version[string(q)][ts]
}

// appendFamily reads one family of a row as a StoreScanner with its query matcher does: for
// each column, versions newest first, skipping cells of a later write than the read point,
// duplicates of a timestamp, deleted and expired cells, cells outside the time range; then
// the filter; then the count of versions; then the per-family limit and offset.
func (sp *readSpec) appendFamily(out []kv, rowKey []byte, fs *famSel, cells []stored) []kv {
	if len(cells) == 0 {
		return out
	}
	out = sp.familyCells(out, rowKey, fs, cells)
	// Done with the row, the store reads the first cell of its next row, and its matcher
	// closes it for good if the filter is done by then (DONE_SCAN), before the filter is
	// reset for the next row.
	if f := sp.filter; f != nil && sp.later != nil && !sp.closed[fs.fam.name] && f.allRemaining() && sp.later(fs) {
		sp.closed[fs.fam.name] = true
	}
	return out
}

func (sp *readSpec) familyCells(out []kv, rowKey []byte, fs *famSel, cells []stored) []kv {
	f := sp.filter
	m := sp.markersOf(cells)
	maxV := min(sp.maxVersions, fs.fam.maxVersions)
	oldest := int64(math.MinInt64)
	if fs.fam.ttl > 0 {
		oldest = sp.now - fs.fam.ttl
	}
	explicit := fs.quals != nil
	count := 0      // cells kept in this family (store limit and offset)
	var seek []byte // a filter's hint: skip the columns before it
	for i := 0; i < len(cells); {
		q := cells[i].qualifier
		j := i + 1
		for j < len(cells) && bytes.Equal(cells[j].qualifier, q) {
			j++
		}
		column := cells[i:j]
		i = j
		if explicit {
			if _, ok := slices.BinarySearchFunc(fs.quals, q, bytes.Compare); !ok {
				continue
			}
		}
		if seek != nil {
			if bytes.Compare(q, seek) < 0 {
				continue
			}
			seek = nil
		}
		versions := 0
		lastTS := int64(math.MinInt64)
	versionsLoop:
		for k := range column {
			c := &column[k]
			if c.typ != typePut || c.seq > sp.readPoint {
				continue
			}
			if c.ts == lastTS {
				continue // an older write at the same timestamp: the newer one shadows it
			}
			lastTS = c.ts
			if c.ts < oldest {
				break // expired, and so are the older versions
			}
			if m.masks(q, c.ts) {
				continue
			}
			if c.ts >= sp.maxTS {
				continue
			}
			if c.ts < sp.minTS {
				break
			}
			cell := kv{row: rowKey, family: fs.name, qualifier: q, ts: c.ts, typ: typePut, value: c.value}
			code := rcInclude
			if f != nil {
				if f.allRemaining() {
					// The matcher's DONE_SCAN: this store is done for the rest of the scan.
					sp.closed[fs.fam.name] = true
					return out
				}
				code = f.cell(&cell)
				switch code {
				case rcSkip:
					continue
				case rcNextCol:
					break versionsLoop
				case rcNextRow:
					return out
				case rcHint:
					h := f.hint(&cell)
					switch {
					case h == nil:
						continue // nowhere to seek to: the next cell
					case !bytes.Equal(h.row, rowKey) || h.typ != hintFirstOnColumn:
						if sp.ec.beforeHint(&cell, h) {
							return out // a later row
						}
						continue
					case bytes.Compare(h.family, fs.name) > 0:
						return out
					case bytes.Equal(h.family, fs.name) && bytes.Compare(h.qualifier, q) > 0:
						seek = h.qualifier
						break versionsLoop
					}
					continue
				}
			}
			versions++
			if versions > maxV {
				break
			}
			count++
			if count > sp.storeOffset {
				if f != nil {
					cell = f.transform(cell)
				}
				out = append(out, cell)
			}
			if sp.storeLimit >= 0 && count >= sp.storeLimit+sp.storeOffset {
				return out
			}
			switch {
			case code == rcIncludeAndNextRow:
				return out
			case code == rcIncludeAndNextCol, explicit && versions >= maxV:
				break versionsLoop
			}
		}
	}
	return out
}

// readColumns reads the newest maxVersions visible versions of the given columns of one family
// of row r, as the server does before an Increment, an Append or a version delete: no filter,
// an optional time range.
func readColumns(r *row, f *family, quals [][]byte, minTS, maxTS int64, maxVersions int, readPoint uint64, now int64) []kv {
	if r == nil {
		return nil
	}
	sp := &readSpec{ec: &evalCtx{}, minTS: minTS, maxTS: maxTS, maxVersions: maxVersions, storeLimit: -1,
		readPoint: readPoint, now: now, closed: map[string]bool{}}
	fs := &famSel{fam: f, name: []byte(f.name), quals: slices.Clone(quals)}
	slices.SortFunc(fs.quals, bytes.Compare)
	fs.quals = slices.CompactFunc(fs.quals, bytes.Equal)
	return sp.appendFamily(nil, r.key, fs, r.fams[f.name])
}
