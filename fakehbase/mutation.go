package fakehbase

import (
	"bytes"
	"encoding/binary"
	"maps"
	"math"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
)

// maxCellSize is hbase.server.keyvalue.maxsize's default: a larger cell is refused.
const maxCellSize = 10 << 20

// mutation is a decoded MutationProto.
type mutation struct {
	typ          pb.MutationProto_MutationType
	row          []byte
	ts           int64
	cells        []kv
	minTS, maxTS int64 // Append and Increment read the current value in this range
	nonce        uint64
	noResults    bool // Append and Increment: the client asked for no result
}

// op is the mutation's operation name, as fault matchers know it.
func (m *mutation) op() Op {
	switch m.typ {
	case pb.MutationProto_PUT:
		return "Put"
	case pb.MutationProto_DELETE:
		return "Delete"
	case pb.MutationProto_APPEND:
		return "Append"
	}
	return "Increment"
}

// deleteTypes maps a column value's delete type to a cell type.
var deleteTypes = map[pb.MutationProto_DeleteType]byte{
	pb.MutationProto_DELETE_ONE_VERSION:       typeDelete,
	pb.MutationProto_DELETE_MULTIPLE_VERSIONS: typeDeleteColumn,
	pb.MutationProto_DELETE_FAMILY:            typeDeleteFamily,
	pb.MutationProto_DELETE_FAMILY_VERSION:    typeDeleteFamilyVersion,
}

// decodeMutation reads a MutationProto and its cells (from the request cellblock, or from
// its column values).
func (c *call) decodeMutation(p *pb.MutationProto) (*mutation, error) {
	m := &mutation{typ: p.GetMutateType(), row: p.GetRow(), ts: latestTS, nonce: p.GetNonce()}
	if p.Timestamp != nil {
		m.ts = int64(p.GetTimestamp())
	}
	if len(m.row) == 0 {
		return nil, badRequest("a mutation without a row")
	}
	m.minTS, m.maxTS = timeRange(p.GetTimeRange())
	for _, a := range p.GetAttribute() {
		switch a.GetName() {
		case "_ttl":
			return nil, unsupported("the TTL of a mutation (attribute _ttl)")
		case "acl":
			return nil, unsupported("cell ACLs (attribute acl)")
		case "VISIBILITY":
			return nil, unsupported("visibility labels (the visibility expression of a mutation, attribute VISIBILITY)")
		case "_rr_":
			m.noResults = len(a.GetValue()) == 1 && a.GetValue()[0] == 0
		}
	}
	if n := int(p.GetAssociatedCellCount()); n > 0 {
		cells, err := c.takeCells(n)
		if err != nil {
			return nil, err
		}
		for _, k := range cells {
			if !bytes.Equal(k.row, m.row) {
				return nil, badRequest("the mutation of row %q holds a cell of row %q", m.row, k.row)
			}
		}
		m.cells = cells
		return m, nil
	}
	for _, cv := range p.GetColumnValue() {
		for _, qv := range cv.GetQualifierValue() {
			k := kv{row: m.row, family: cv.GetFamily(), qualifier: qv.GetQualifier(), ts: m.ts, typ: typePut, value: qv.GetValue()}
			if qv.Timestamp != nil {
				k.ts = int64(qv.GetTimestamp())
			}
			if m.typ == pb.MutationProto_DELETE {
				k.typ = deleteTypes[qv.GetDeleteType()]
				if k.typ == 0 {
					return nil, badRequest("unknown delete type %v", qv.GetDeleteType())
				}
				k.value = nil
			}
			m.cells = append(m.cells, k)
		}
	}
	return m, nil
}

// check refuses a mutation HBase would refuse for table t: a family it lacks, a cell too
// large, a row outside the region.
func (m *mutation) check(r *region) error {
	if r.t.name == metaTable {
		return unsupported("writing to hbase:meta")
	}
	if !r.contains(m.row) {
		return jerr(WrongRegion, "Requested row out of range for %s on HRegion %s, startKey='%s', getEndKey()='%s', row='%s'",
			m.op(), r.name, r.start, r.end, m.row)
	}
	for i := range m.cells {
		k := &m.cells[i]
		if r.t.fams[string(k.family)] == nil {
			return noSuchFamily(r.t, r.name, k.family)
		}
		size := 4 + 8 + 2 + len(k.row) + 1 + len(k.family) + len(k.qualifier) + 8 + 1 + len(k.value)
		if size > maxCellSize {
			return badRequest("Cell with size %d exceeds limit of %d bytes", size, maxCellSize)
		}
		if m.typ == pb.MutationProto_INCREMENT && len(k.value) != 8 {
			return badRequest("Attempted to increment field that isn't 64 bits wide")
		}
	}
	return nil
}

// noSuchFamily is HBase's NoSuchColumnFamilyException (its message also holds the table's
// descriptor; the fake names the table only).
func noSuchFamily(t *table, regionName, fam []byte) error {
	return jerr(NoSuchColumnFamily, "Column family %s does not exist in region %s in table '%s'", fam, regionName, t.name)
}

// apply writes mutation m to region r (checked already) with write number seq and the time
// now, and returns the cells of its result (Append, Increment).
func (s *Server) apply(r *region, m *mutation, seq uint64, now int64) ([]kv, error) {
	w := &mutationWrite{t: r.t, m: m, seq: seq, now: now}
	switch m.typ {
	case pb.MutationProto_PUT:
		w.put()
		return nil, nil
	case pb.MutationProto_DELETE:
		w.delete()
		return nil, nil
	}
	return w.readModifyWrite()
}

// mutationWrite is the write of one mutation: its table, its write number and time.
type mutationWrite struct {
	t   *table
	m   *mutation
	seq uint64
	now int64
}

// store writes cell k of the mutation's row.
func (w *mutationWrite) store(k kv) {
	w.t.data.add(w.m.row, string(k.family), stored{qualifier: k.qualifier, ts: k.ts, typ: k.typ, value: k.value, seq: w.seq})
}

// stamp is the timestamp a cell is written at: the time of the write when it has none.
func (w *mutationWrite) stamp(ts int64) int64 {
	if ts == latestTS {
		return w.now
	}
	return ts
}

func (w *mutationWrite) put() {
	for _, k := range w.m.cells {
		k.ts = w.stamp(k.ts)
		w.store(k)
	}
}

// delete writes the mutation's delete markers, the version deletes without a timestamp timed
// by versionDeletes; a mutation without cells deletes every family.
func (w *mutationWrite) delete() {
	if len(w.m.cells) == 0 {
		for _, f := range w.t.famNames {
			w.store(kv{family: []byte(f), ts: w.stamp(w.m.ts), typ: typeDeleteFamily})
		}
		return
	}
	latest := w.latestVersionDeletes()
	for _, k := range w.m.cells {
		if k.typ == typeDelete && k.ts == latestTS {
			k.ts = latest.next(k)
		}
		if k.typ == typeDeleteFamily || k.typ == typeDeleteFamilyVersion {
			k.qualifier = nil
		}
		k.ts = w.stamp(k.ts)
		k.value = nil
		w.store(k)
	}
}

// versionDeletes picks the timestamps of a mutation's version deletes that carry none: the
// newest version for the first of a column, the second newest for the second, and so on; or
// the time of the write when the column has fewer versions than such deletes.
type versionDeletes struct {
	w     *mutationWrite
	row   *row
	count map[string]int // such deletes per column
	seen  map[string]int // of them, given a timestamp so far
}

func (w *mutationWrite) latestVersionDeletes() *versionDeletes {
	d := &versionDeletes{w: w, row: w.t.data.get(w.m.row), count: map[string]int{}, seen: map[string]int{}}
	for _, k := range w.m.cells {
		if k.typ == typeDelete && k.ts == latestTS {
			d.count[columnKey(k)]++
		}
	}
	return d
}

func columnKey(k kv) string { return string(k.family) + "\x00" + string(k.qualifier) }

// next is the timestamp of version delete k, the next of its column.
func (d *versionDeletes) next(k kv) int64 {
	key := columnKey(k)
	d.seen[key]++
	n := d.count[key]
	w := d.w
	versions := readColumns(d.row, w.t.fams[string(k.family)], [][]byte{k.qualifier}, 0, math.MaxInt64, n, w.seq-1, w.now)
	if len(versions) < n {
		return w.now
	}
	return versions[d.seen[key]-1].ts
}

// readModifyWrite is an Append or an Increment: it reads the current values, writes the new
// ones, and returns them sorted by column.
func (w *mutationWrite) readModifyWrite() ([]kv, error) {
	row := w.t.data.get(w.m.row)
	byFam := map[string][]kv{}
	for _, k := range w.m.cells {
		byFam[string(k.family)] = append(byFam[string(k.family)], k)
	}
	var out []kv
	for _, fam := range slices.Sorted(maps.Keys(byFam)) {
		cells, err := w.modifyFamily(row, fam, byFam[fam])
		if err != nil {
			return nil, err
		}
		out = append(out, cells...)
	}
	for _, k := range out {
		w.store(k)
	}
	slices.SortStableFunc(out, func(a, b kv) int {
		if c := bytes.Compare(a.family, b.family); c != 0 {
			return c
		}
		return bytes.Compare(a.qualifier, b.qualifier)
	})
	return out, nil
}

// modifyFamily applies the deltas of one family to its current values, in order (a column
// given twice adds to its first result).
func (w *mutationWrite) modifyFamily(row *row, fam string, deltas []kv) ([]kv, error) {
	m := w.m
	var quals [][]byte
	for _, d := range deltas {
		quals = append(quals, d.qualifier)
	}
	cur := map[string]kv{}
	for _, k := range readColumns(row, w.t.fams[fam], quals, m.minTS, m.maxTS, 1, w.seq-1, w.now) {
		cur[string(k.qualifier)] = k
	}
	out := make([]kv, 0, len(deltas))
	for _, d := range deltas {
		nk := kv{row: m.row, family: d.family, qualifier: d.qualifier, typ: typePut, ts: w.stamp(d.ts)}
		old, ok := cur[string(d.qualifier)]
		if ok {
			nk.ts = max(old.ts+1, w.now)
		}
		var err error
		if nk.value, err = m.modify(old.value, ok, d.value); err != nil {
			return nil, err
		}
		cur[string(d.qualifier)] = nk
		out = append(out, nk)
	}
	return out, nil
}

// modify is the new value of a column the mutation appends delta to or increments by delta;
// found says whether the column had a value.
func (m *mutation) modify(old []byte, found bool, delta []byte) ([]byte, error) {
	if m.typ != pb.MutationProto_INCREMENT {
		return append(slices.Clip(old), delta...), nil
	}
	var base int64
	if found {
		if len(old) != 8 {
			return nil, badRequest("Field is not a long, it's %d bytes wide", len(old))
		}
		base = int64(binary.BigEndian.Uint64(old))
	}
	return binary.BigEndian.AppendUint64(nil, uint64(base+int64(binary.BigEndian.Uint64(delta)))), nil
}
