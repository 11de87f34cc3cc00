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
	m := &mutation{typ: p.GetMutateType(), row: p.GetRow(), ts: latestTS, minTS: 0, maxTS: math.MaxInt64,
		nonce: p.GetNonce()}
	if p.Timestamp != nil {
		m.ts = int64(p.GetTimestamp())
	}
	if len(m.row) == 0 {
		return nil, badRequest("a mutation without a row")
	}
	if tr := p.GetTimeRange(); tr != nil {
		if tr.From != nil {
			m.minTS = int64(tr.GetFrom())
		}
		if tr.To != nil {
			m.maxTS = int64(tr.GetTo())
		}
	}
	for _, a := range p.GetAttribute() {
		switch a.GetName() {
		case "_ttl":
			return nil, unsupported("the TTL of a mutation (attribute _ttl)")
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
	t := r.t
	put := func(k kv) {
		t.data.add(m.row, string(k.family), stored{qualifier: k.qualifier, ts: k.ts, typ: k.typ, value: k.value, seq: seq})
	}
	stamp := func(ts int64) int64 {
		if ts == latestTS {
			return now
		}
		return ts
	}
	switch m.typ {
	case pb.MutationProto_PUT:
		for _, k := range m.cells {
			k.ts = stamp(k.ts)
			put(k)
		}
		return nil, nil
	case pb.MutationProto_DELETE:
		if len(m.cells) == 0 {
			for _, f := range t.famNames {
				put(kv{family: []byte(f), ts: stamp(m.ts), typ: typeDeleteFamily})
			}
			return nil, nil
		}
		// A version delete without a timestamp deletes the newest version (the n-th newest
		// for the n-th such delete of one column in this mutation), or marks "now" if there
		// is none.
		latest := map[string]int{}
		for _, k := range m.cells {
			if k.typ == typeDelete && k.ts == latestTS {
				latest[string(k.family)+"\x00"+string(k.qualifier)]++
			}
		}
		seen := map[string]int{}
		row := t.data.get(m.row)
		for _, k := range m.cells {
			if k.typ == typeDelete && k.ts == latestTS {
				key := string(k.family) + "\x00" + string(k.qualifier)
				seen[key]++
				n := latest[key]
				versions := readColumns(row, t.fams[string(k.family)], [][]byte{k.qualifier}, 0, math.MaxInt64, n, seq-1, now)
				if len(versions) < n {
					k.ts = now
				} else {
					k.ts = versions[seen[key]-1].ts
				}
			}
			if k.typ == typeDeleteFamily || k.typ == typeDeleteFamilyVersion {
				k.qualifier = nil
			}
			k.ts = stamp(k.ts)
			k.value = nil
			put(k)
		}
		return nil, nil
	}
	// Append and Increment: read the current values, write the new ones.
	row := t.data.get(m.row)
	var out []kv
	byFam := map[string][]kv{}
	for _, k := range m.cells {
		byFam[string(k.family)] = append(byFam[string(k.family)], k)
	}
	for _, fam := range slices.Sorted(maps.Keys(byFam)) {
		deltas := byFam[fam]
		var quals [][]byte
		for _, d := range deltas {
			quals = append(quals, d.qualifier)
		}
		cur := map[string]kv{}
		for _, k := range readColumns(row, t.fams[fam], quals, m.minTS, m.maxTS, 1, seq-1, now) {
			cur[string(k.qualifier)] = k
		}
		for _, d := range deltas {
			nk := kv{row: m.row, family: d.family, qualifier: d.qualifier, typ: typePut}
			old, ok := cur[string(d.qualifier)]
			if m.typ == pb.MutationProto_INCREMENT {
				var base int64
				if ok {
					if len(old.value) != 8 {
						return nil, badRequest("Field is not a long, it's %d bytes wide", len(old.value))
					}
					base = int64(binary.BigEndian.Uint64(old.value))
				}
				nk.value = binary.BigEndian.AppendUint64(nil, uint64(base+int64(binary.BigEndian.Uint64(d.value))))
			} else {
				nk.value = append(slices.Clip(old.value), d.value...)
			}
			if ok {
				nk.ts = max(old.ts+1, now)
			} else {
				nk.ts = stamp(d.ts)
			}
			cur[string(d.qualifier)] = nk
			out = append(out, nk)
		}
	}
	for _, k := range out {
		put(k)
	}
	slices.SortStableFunc(out, func(a, b kv) int {
		if c := bytes.Compare(a.family, b.family); c != 0 {
			return c
		}
		return bytes.Compare(a.qualifier, b.qualifier)
	})
	return out, nil
}
