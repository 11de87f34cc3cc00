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

// timeRange is [minTS, maxTS) of a request's time range: every time when it has none, or for
// the bound it lacks.
func timeRange(tr *pb.TimeRange) (minTS, maxTS int64) {
	minTS, maxTS = 0, math.MaxInt64
	if tr == nil {
		return minTS, maxTS
	}
	if tr.From != nil {
		minTS = int64(tr.GetFrom())
	}
	if tr.To != nil {
		maxTS = int64(tr.GetTo())
	}
	return minTS, maxTS
}

// newReadSpec checks a read's columns against table t (region names the region, for the
// error) and decodes its filter.
func newReadSpec(t *table, regionName []byte, p readParams, readPoint uint64, now int64) (*readSpec, error) {
	sp := &readSpec{ec: &evalCtx{reversed: p.reversed},
		maxVersions: max(int(p.maxVersions), 1), storeLimit: -1, readPoint: readPoint, now: now,
		closed: map[string]bool{}}
	sp.minTS, sp.maxTS = timeRange(p.timeRange)
	if sp.minTS < 0 || sp.maxTS < sp.minTS {
		return nil, badRequest("bad time range [%d, %d)", sp.minTS, sp.maxTS)
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

// familyRead is the read of one family of one row by appendFamily: where it is, and the cells
// it kept.
type familyRead struct {
	sp       *readSpec
	rowKey   []byte
	fs       *famSel
	m        *markers
	maxV     int    // versions kept of a column
	oldest   int64  // the oldest timestamp the family's TTL leaves
	explicit bool   // the read names the family's columns
	count    int    // cells kept in this family (store limit and offset)
	seek     []byte // a filter's hint: the columns before it are skipped
	out      []kv

	// The column being read: its versions counted and the timestamp of its last cell.
	versions int
	lastTS   int64
}

// readStep is where a family's read goes on after a cell.
type readStep uint8

const (
	stepOn          readStep = iota // on with this cell
	stepNextVersion                 // to the column's next version
	stepNextColumn                  // to the next column
	stepFamilyDone                  // the family is done for this row
)

// familyCells reads the columns of one family of a row in order, each as readColumn does.
func (sp *readSpec) familyCells(out []kv, rowKey []byte, fs *famSel, cells []stored) []kv {
	fr := familyRead{sp: sp, rowKey: rowKey, fs: fs, m: sp.markersOf(cells),
		maxV: min(sp.maxVersions, fs.fam.maxVersions), oldest: math.MinInt64, explicit: fs.quals != nil, out: out}
	if fs.fam.ttl > 0 {
		fr.oldest = sp.now - fs.fam.ttl
	}
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && bytes.Equal(cells[j].qualifier, cells[i].qualifier) {
			j++
		}
		column := cells[i:j]
		i = j
		if q := column[0].qualifier; fr.wants(q) && fr.readColumn(q, column) == stepFamilyDone {
			break
		}
	}
	return fr.out
}

// wants reports whether the read selects column q and a filter's seek has not passed it.
func (fr *familyRead) wants(q []byte) bool {
	if fr.explicit {
		if _, ok := slices.BinarySearchFunc(fr.fs.quals, q, bytes.Compare); !ok {
			return false
		}
	}
	if fr.seek != nil {
		if bytes.Compare(q, fr.seek) < 0 {
			return false
		}
		fr.seek = nil
	}
	return true
}

// readColumn reads the versions of column q, newest first.
func (fr *familyRead) readColumn(q []byte, column []stored) readStep {
	fr.versions, fr.lastTS = 0, math.MinInt64
	for k := range column {
		if s := fr.readVersion(q, &column[k]); s != stepNextVersion {
			return s
		}
	}
	return stepNextColumn
}

func (fr *familyRead) readVersion(q []byte, c *stored) readStep {
	if s := fr.visible(c); s != stepOn {
		return s
	}
	cell := kv{row: fr.rowKey, family: fr.fs.name, qualifier: q, ts: c.ts, typ: typePut, value: c.value}
	code, s := fr.filterCell(&cell)
	if s != stepOn {
		return s
	}
	return fr.keep(cell, code)
}

// visible skips the cells of a later write than the read point, duplicates of a timestamp,
// deleted cells, and cells outside the time range or the TTL (and the older versions with
// them).
func (fr *familyRead) visible(c *stored) readStep {
	sp := fr.sp
	if c.typ != typePut || c.seq > sp.readPoint {
		return stepNextVersion
	}
	if c.ts == fr.lastTS {
		return stepNextVersion // an older write at the same timestamp: the newer one shadows it
	}
	fr.lastTS = c.ts
	switch {
	case c.ts < fr.oldest:
		return stepNextColumn // expired, and so are the older versions
	case fr.m.masks(c.qualifier, c.ts), c.ts >= sp.maxTS:
		return stepNextVersion
	case c.ts < sp.minTS:
		return stepNextColumn
	}
	return stepOn
}

// filterCell asks the filter about cell, and turns its code into a step.
func (fr *familyRead) filterCell(cell *kv) (rc, readStep) {
	f := fr.sp.filter
	if f == nil {
		return rcInclude, stepOn
	}
	if f.allRemaining() {
		// The matcher's DONE_SCAN: this store is done for the rest of the scan.
		fr.sp.closed[fr.fs.fam.name] = true
		return rcInclude, stepFamilyDone
	}
	code := f.cell(cell)
	switch code {
	case rcSkip:
		return code, stepNextVersion
	case rcNextCol:
		return code, stepNextColumn
	case rcNextRow:
		return code, stepFamilyDone
	case rcHint:
		return code, fr.seekHint(cell)
	}
	return code, stepOn
}

// seekHint follows the filter's hint for cell: within the family, to a later column of it;
// else past the family or the row, or to the next cell when the hint is not ahead.
func (fr *familyRead) seekHint(cell *kv) readStep {
	h := fr.sp.filter.hint(cell)
	switch {
	case h == nil:
		return stepNextVersion // nowhere to seek to: the next cell
	case !bytes.Equal(h.row, fr.rowKey) || h.typ != hintFirstOnColumn:
		if fr.sp.ec.beforeHint(cell, h) {
			return stepFamilyDone // a later row
		}
		return stepNextVersion
	case bytes.Compare(h.family, fr.fs.name) > 0:
		return stepFamilyDone
	case bytes.Equal(h.family, fr.fs.name) && bytes.Compare(h.qualifier, cell.qualifier) > 0:
		fr.seek = h.qualifier
		return stepNextColumn
	}
	return stepNextVersion
}

// keep counts a cell the filter let through against the versions, the store offset and the
// store limit, and keeps it (transformed) past the offset.
func (fr *familyRead) keep(cell kv, code rc) readStep {
	sp := fr.sp
	fr.versions++
	if fr.versions > fr.maxV {
		return stepNextColumn
	}
	fr.count++
	if fr.count > sp.storeOffset {
		if sp.filter != nil {
			cell = sp.filter.transform(cell)
		}
		fr.out = append(fr.out, cell)
	}
	switch {
	case sp.storeLimit >= 0 && fr.count >= sp.storeLimit+sp.storeOffset, code == rcIncludeAndNextRow:
		return stepFamilyDone
	case code == rcIncludeAndNextCol, fr.explicit && fr.versions >= fr.maxV:
		return stepNextColumn
	}
	return stepNextVersion
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
