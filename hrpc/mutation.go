package hrpc

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Durability says how the server persists a mutation to its write-ahead log.
type Durability int32

// Durability levels (MutationProto.Durability).
const (
	UseDefault Durability = iota // the table's setting
	SkipWAL                      // no WAL entry: lost if the server dies before a flush
	AsyncWAL
	SyncWAL
	FsyncWAL
)

// unsetTimestamp marks, while options are applied, a cell whose timestamp comes from the
// mutation's Timestamp option (or the server clock); it is never sent.
const unsetTimestamp = math.MaxUint64

// mutation is what a Put, Delete, Append and Increment share: one row's cells and metadata.
// Cells are sent in the order the options gave them. It is immutable once built and safe for
// concurrent use.
type mutation struct {
	// options are the mutation's options, applied in place: cells (with the row and timestamp
	// filled in), timestamp, durability, timeRange, attributes, maxAttempts (0 when not
	// given), hdr.
	options
	table string
	row   []byte
	mtype pb.MutationProto_MutationType
	nonce uint64
	// size is what the mutation weighs in a request: its cells as encoded, its row and a
	// constant for the rest of its message (a batch's cellblock is sized from it).
	size int
	// heap is what the mutation keeps in memory: itself, its cells and the bytes they and the
	// row point to (the memory bound of bufwriter.Writer, as Java's heapSize).
	heap int
}

// Mutation is a Put, Delete, Append or Increment: what RowMutations groups and
// CheckAndMutate applies. Only the types of this package implement it.
type Mutation interface {
	Batchable
	// Table is the table the mutation is for, as it was given to its constructor.
	Table() string
	// Row is the row the mutation changes: the slice given to its constructor, not a copy,
	// so it must not be modified.
	Row() []byte
	base() *mutation
}

// Put writes cells to one row. Build it with NewPut; it is immutable and safe for concurrent
// use.
type Put struct{ mutation }

// Delete deletes cells, columns, families or a whole row. Build it with NewDelete.
type Delete struct{ mutation }

// Append appends to the values of columns of one row and returns the new values. Build it
// with NewAppend. It carries a nonce drawn when it is built, so that the server applies it once
// even when the client retries it: sending the same Append twice is a retry, not a second
// operation. Build a new one for each operation.
type Append struct{ mutation }

// Increment adds to the 8-byte counters of columns of one row and returns the new values.
// Build it with NewIncrement. Like an Append it carries a nonce: build a new one for each
// operation.
type Increment struct{ mutation }

// NewPut builds a Put of the cells given with Value or ValueAt.
func NewPut(table string, row []byte, opts ...PutOption) (*Put, error) {
	p, cells, size := allocMutation[Put](cellOptions(opts))
	if err := newMutation(&p.mutation, pb.MutationProto_PUT, table, row, opts, cells, size); err != nil {
		return nil, err
	}
	return p, nil
}

// NewDelete builds a Delete. Without DeleteColumn, DeleteFamily... options it deletes the whole
// row (every version up to Timestamp, when given).
func NewDelete(table string, row []byte, opts ...DeleteOption) (*Delete, error) {
	d, cells, size := allocMutation[Delete](cellOptions(opts))
	if err := newMutation(&d.mutation, pb.MutationProto_DELETE, table, row, opts, cells, size); err != nil {
		return nil, err
	}
	return d, nil
}

// NewAppend builds an Append: each Value is appended to the column's current value. The result
// holds the new values.
func NewAppend(table string, row []byte, opts ...AppendOption) (*Append, error) {
	a, cells, size := allocMutation[Append](cellOptions(opts))
	if err := newMutation(&a.mutation, pb.MutationProto_APPEND, table, row, opts, cells, size); err != nil {
		return nil, err
	}
	return a, nil
}

// NewIncrement builds an Increment of the columns given with Amount. The result holds the new
// values as 8-byte big-endian integers.
func NewIncrement(table string, row []byte, opts ...IncrementOption) (*Increment, error) {
	inc, cells, size := allocMutation[Increment](cellOptions(opts))
	if err := newMutation(&inc.mutation, pb.MutationProto_INCREMENT, table, row, opts, cells, size); err != nil {
		return nil, err
	}
	return inc, nil
}

// withCell is a mutation allocated together with room for one cell.
type withCell[T any] struct {
	m    T
	cell [1]wire.Cell
}

// allocMutation allocates a mutation, to be built in place (newMutation), with room for n
// cells: a mutation of one cell (the common Put) comes with its cell, in one allocation; one of
// several gets a slice of exactly n cells. size is the memory allocated besides that slice.
func allocMutation[T any](n int) (m *T, cells []wire.Cell, size int) {
	switch {
	case n == 1:
		a := new(withCell[T])
		return &a.m, a.cell[:0], int(unsafe.Sizeof(*a))
	case n > 1:
		cells = make([]wire.Cell, 0, n)
	}
	return new(T), cells, int(unsafe.Sizeof(*new(T)))
}

// cellOptions counts the options that add a cell: Value, ValueAt, Amount and the Delete...
// options, each of one cell; the other options of mutations (MutationOption, RequestOption,
// AttributeOption, TimeRangeOption) add none. An option converted to another type may break the count, which
// costs the cells' slice a reallocation (addCell appends), not correctness.
func cellOptions[O any](opts []O) int {
	n := 0
	for _, opt := range opts {
		switch any(opt).(type) {
		case ValueOption, putOnly, incrementOnly, deleteOnly:
			n++
		}
	}
	return n
}

// newMutation builds m, a zero mutation, in place: its options are applied to m.options
// directly, its cells appended to cells (see allocMutation). alloc is the memory allocated
// with m.
func newMutation[O any](m *mutation, t pb.MutationProto_MutationType, table string, row []byte, opts []O, cells []wire.Cell, alloc int) error {
	if err := checkTable(table); err != nil {
		return err
	}
	if err := checkRow(row); err != nil {
		return err
	}
	m.cells = cells
	m.timestamp = LatestTimestamp
	if err := applyOptions(&m.options, opts); err != nil {
		return err
	}
	if len(m.cells) == 0 && t != pb.MutationProto_DELETE {
		return errNoCells
	}
	m.table, m.row, m.mtype = table, row, t
	// Only what is set is written: a store into m, in the heap, may cost a write barrier.
	if m.rd != nil {
		m.rd = nil // see options.rd
	}
	size, heap := 0, alloc+len(row)
	// The cells' own slice, unless they are in the room allocated with m (cap(cells) == 1).
	if cap(m.cells) > 0 && (cap(cells) != 1 || unsafe.SliceData(m.cells) != unsafe.SliceData(cells)) {
		heap += cap(m.cells) * int(unsafe.Sizeof(wire.Cell{}))
	}
	for i := range m.cells {
		c := &m.cells[i]
		c.Row = row
		if c.Timestamp == unsetTimestamp {
			c.Timestamp = m.timestamp
		}
		if err := checkCell(c); err != nil {
			return err
		}
		size += wire.CellSize(c)
		heap += len(c.Family) + len(c.Qualifier) + len(c.Value)
	}
	if size > wire.MaxRequestCells {
		// Refused here, before the client copies the cells into a request it cannot send.
		return invalid("cells of %d bytes, over the %d bytes one request may carry", size, wire.MaxRequestCells)
	}
	if t == pb.MutationProto_APPEND || t == pb.MutationProto_INCREMENT {
		m.nonce = newNonce()
	}
	m.size = size + len(row) + mutationOverhead
	m.heap = heap
	return nil
}

// newNonce draws a non-zero nonce; zero is HConstants.NO_NONCE.
func newNonce() uint64 {
	for {
		if n := rand.Uint64(); n != 0 {
			return n
		}
	}
}

func (o *options) addCell(name string, family, qualifier []byte, ts uint64, t CellType, value []byte) error {
	if err := checkFamily(family); err != nil {
		return err
	}
	if ts != unsetTimestamp && ts > LatestTimestamp {
		return invalid("%s: timestamp %d beyond the largest timestamp %d", name, ts, LatestTimestamp)
	}
	o.cells = append(o.cells, wire.Cell{Family: family, Qualifier: qualifier, Timestamp: ts, Type: uint8(t), Value: value})
	return nil
}

// Value adds a cell to a Put, or a value to append to a column for an Append. The value may be
// empty.
func Value(family, qualifier, value []byte) ValueOption {
	return ValueOption(func(o *options) error {
		return o.addCell("Value", family, qualifier, unsetTimestamp, CellTypePut, value)
	})
}

// ValueAt adds a cell with its own timestamp to a Put.
func ValueAt(family, qualifier []byte, timestamp uint64, value []byte) PutOption {
	return putOnly(func(o *options) error {
		return o.addCell("ValueAt", family, qualifier, timestamp, CellTypePut, value)
	})
}

// Amount adds delta to a column in an Increment.
func Amount(family, qualifier []byte, delta int64) IncrementOption {
	return incrementOnly(func(o *options) error {
		v := binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(delta))
		return o.addCell("Amount", family, qualifier, unsetTimestamp, CellTypePut, v)
	})
}

// DeleteColumn deletes every version of a column (up to the Delete's Timestamp, when given).
func DeleteColumn(family, qualifier []byte) DeleteOption {
	return deleteOnly(func(o *options) error {
		return o.addCell("DeleteColumn", family, qualifier, unsetTimestamp, CellTypeDeleteColumn, nil)
	})
}

// DeleteColumnVersion deletes the version of a column with exactly this timestamp.
func DeleteColumnVersion(family, qualifier []byte, timestamp uint64) DeleteOption {
	return deleteOnly(func(o *options) error {
		return o.addCell("DeleteColumnVersion", family, qualifier, timestamp, CellTypeDelete, nil)
	})
}

// DeleteLatestVersion deletes the newest version of a column (or, with the Delete's Timestamp,
// the version with that timestamp).
func DeleteLatestVersion(family, qualifier []byte) DeleteOption {
	return deleteOnly(func(o *options) error {
		return o.addCell("DeleteLatestVersion", family, qualifier, unsetTimestamp, CellTypeDelete, nil)
	})
}

// DeleteFamily deletes every version of every column of a family (up to the Delete's
// Timestamp, when given).
func DeleteFamily(family []byte) DeleteOption {
	return deleteOnly(func(o *options) error {
		return o.addCell("DeleteFamily", family, nil, unsetTimestamp, CellTypeDeleteFamily, nil)
	})
}

// DeleteFamilyVersion deletes the versions of every column of a family with exactly this
// timestamp.
func DeleteFamilyVersion(family []byte, timestamp uint64) DeleteOption {
	return deleteOnly(func(o *options) error {
		return o.addCell("DeleteFamilyVersion", family, nil, timestamp, CellTypeDeleteFamilyVersion, nil)
	})
}

// Timestamp sets the timestamp of a mutation: the default for its cells (instead of the
// server's clock) and, for a Delete, the newest version deleted.
func Timestamp(ts uint64) MutationOption {
	return MutationOption(func(o *options) error {
		if ts > LatestTimestamp {
			return invalid("Timestamp(%d) beyond the largest timestamp %d", ts, LatestTimestamp)
		}
		o.timestamp = ts
		return nil
	})
}

// WithDurability sets how the server writes a mutation to its write-ahead log.
func WithDurability(d Durability) MutationOption {
	return MutationOption(func(o *options) error {
		if d < UseDefault || d > FsyncWAL {
			return invalid("unknown durability %d", d)
		}
		o.durability = d
		return nil
	})
}

func (m *mutation) base() *mutation { return m }

// Table is the table the mutation is for, as it was given to its constructor.
func (m *mutation) Table() string { return m.table }

// Row is the row the mutation changes: the slice given to its constructor, not a copy, so it
// must not be modified.
func (m *mutation) Row() []byte { return m.row }

func (m *mutation) batchable() wire.Batchable { return (*mutationCall)(m) }

// mutationCall is a mutation's wire side (wire.Call, wire.Batchable), on a type of its own so
// that its methods are not part of the API of Put, Delete, Append and Increment.
type mutationCall mutation

// TableName is the table the mutation is for.
func (m *mutationCall) TableName() string { return m.table }

// Table is the table's bytes, a read-only view (wire.TableBytes).
func (m *mutationCall) Table() []byte { return wire.TableBytes(m.table) }

// Key is the row the mutation changes.
func (m *mutationCall) Key() []byte { return m.row }

// Header is the request's priority and request attributes (wire.HeaderFields).
func (m *mutationCall) Header() (uint32, []*pb.NameBytesPair) { return m.hdr.fields() }

// Method is "Mutate".
func (m *mutationCall) Method() string { return "Mutate" }

// Op is "Put", "Delete", "Append" or "Increment".
func (m *mutationCall) Op() string { return (*mutation)(m).op() }

func (m *mutation) op() string {
	switch m.mtype {
	case pb.MutationProto_PUT:
		return "Put"
	case pb.MutationProto_DELETE:
		return "Delete"
	case pb.MutationProto_APPEND:
		return "Append"
	}
	return "Increment"
}

// MaxAttempts is the request's MaxAttempts option, 0 when it has none.
func (m *mutationCall) MaxAttempts() int { return m.maxAttempts }

// mutationOverhead stands for the fields of a MutationProto and an Action besides the cells
// and the row (type, timestamp, nonce, index, durability, lengths): at most a few dozen bytes.
const mutationOverhead = 64

// EncodedSize is about what the mutation weighs in a request: its cells as encoded, its row and
// a constant for the rest of its message.
func (m *mutationCall) EncodedSize() int { return m.size }

// HeapSize is about the memory the mutation keeps: its struct, its cells and the bytes they
// point to, counted even when shared with other mutations (as Java's Mutation.heapSize).
func (m *mutationCall) HeapSize() int { return m.heap }

// Nonce is the Append's or Increment's nonce (0 for Put and Delete).
func (m *mutationCall) Nonce() uint64 { return m.nonce }

// fill sets a.Mutation to m's metadata and appends the cells of a Put or Delete to cellblock. An
// Append's or Increment's cells go in the message instead (see deltaColumns).
func (m *mutation) fill(a *wire.MutationSlot, cellblock []byte) []byte {
	a.Type = m.mtype
	a.Timestamp = m.timestamp
	a.Mutation.Row = m.row
	a.Mutation.MutateType = &a.Type
	a.Mutation.Timestamp = &a.Timestamp
	if m.durability != UseDefault {
		a.Durability = pb.MutationProto_Durability(m.durability)
		a.Mutation.Durability = &a.Durability
	}
	if m.nonce != 0 {
		a.Nonce = m.nonce
		a.Mutation.Nonce = &a.Nonce
	}
	a.Mutation.TimeRange = m.timeRange
	a.Mutation.Attribute = m.attributes
	if m.nonce != 0 {
		a.Mutation.ColumnValue = m.deltaColumns()
		return cellblock
	}
	if len(m.cells) > 0 {
		a.Count = int32(len(m.cells))
		a.Mutation.AssociatedCellCount = &a.Count
	}
	// One allocation for the whole cellblock rather than append's doublings from nil (the
	// client passes none): 4 allocations fewer for a Put of one 100-byte cell, 6 for three.
	size := 0
	for i := range m.cells {
		size += wire.CellSize(&m.cells[i])
	}
	cellblock = slices.Grow(cellblock, size)
	for i := range m.cells {
		cellblock = wire.AppendCell(cellblock, &m.cells[i])
	}
	return cellblock
}

// deltaColumns returns the cells of an Append or Increment as the message's column values,
// one per run of cells of the same family, in the order given.
//
// Not in a cellblock, because of a server bug (HBase 2.4 to 2.6 at least; issue 9 and
// region/server_release_test.go): for a column with no value yet, the server's result cell is
// the request's own cell, and the server encodes the result only after it has released the
// request's buffer. From a cellblock, that cell lives in the buffer, so the result carries
// whatever the buffer holds by then, now and then another request's bytes. Values in the
// message are copied out of the buffer when the server decodes it, so the result is intact.
// Java's client sends a single Append or Increment this way too.
func (m *mutation) deltaColumns() []*pb.MutationProto_ColumnValue {
	var cols []*pb.MutationProto_ColumnValue
	qvs := make([]pb.MutationProto_ColumnValue_QualifierValue, len(m.cells))
	for i := range m.cells {
		c := &m.cells[i]
		if len(cols) == 0 || !bytes.Equal(cols[len(cols)-1].Family, c.Family) {
			cols = append(cols, &pb.MutationProto_ColumnValue{Family: c.Family})
		}
		qv := &qvs[i]
		qv.Qualifier, qv.Value = c.Qualifier, c.Value
		if c.Timestamp != LatestTimestamp {
			qv.Timestamp = &c.Timestamp
		}
		col := cols[len(cols)-1]
		col.QualifierValue = append(col.QualifierValue, qv)
	}
	return cols
}

type mutateAlloc struct {
	req        pb.MutateRequest
	region     pb.RegionSpecifier
	regionType pb.RegionSpecifier_RegionSpecifierType
	m          wire.MutationSlot
}

// Marshal builds the MutateRequest for regionName and appends the cells to cellblock.
func (m *mutationCall) Marshal(regionName, cellblock []byte) (proto.Message, []byte, error) {
	a := new(mutateAlloc)
	a.regionType = pb.RegionSpecifier_REGION_NAME
	a.region.Type = &a.regionType
	a.region.Value = regionName
	a.req.Region = &a.region
	cellblock = (*mutation)(m).fill(&a.m, cellblock)
	a.req.Mutation = &a.m.Mutation
	return &a.req, cellblock, nil
}

// NewResponse returns an empty MutateResponse.
func (m *mutationCall) NewResponse() proto.Message { return new(pb.MutateResponse) }

// Action builds the mutation as action index of a MultiRequest and appends its cells to
// cellblock.
func (m *mutationCall) Action(index uint32, cellblock []byte) (*pb.Action, []byte, error) {
	a := new(wire.ActionSlot)
	cellblock, err := m.ActionInto(a, index, cellblock)
	return &a.Action, cellblock, err
}

// ActionInto is Action into a, a zero slot.
func (m *mutationCall) ActionInto(a *wire.ActionSlot, index uint32, cellblock []byte) ([]byte, error) {
	a.Index = index
	a.Action.Index = &a.Index
	cellblock = (*mutation)(m).fill(&a.Mutation, cellblock)
	a.Action.Mutation = &a.Mutation.Mutation
	return cellblock, nil
}

// AppendAction appends the mutation as action index of a MultiRequest's region action to dst,
// and its cells to cellblock (wire.ActionAppender): the bytes of the Action that Action builds,
// without building it.
func (m *mutationCall) AppendAction(dst []byte, index uint32, cellblock []byte) ([]byte, []byte, error) {
	a := wire.MutationAction{
		Row:         m.row,
		Type:        m.mtype,
		Timestamp:   m.timestamp,
		Durability:  pb.MutationProto_Durability(m.durability),
		Nonce:       m.nonce,
		TimeRange:   m.timeRange,
		Attributes:  m.attributes,
		Cells:       m.cells,
		InlineCells: m.nonce != 0, // as fill
	}
	dst, cellblock = wire.AppendMutationAction(dst, index, &a, cellblock)
	return dst, cellblock, nil
}

// decode turns a MutateResponse and its cellblock into a Result. Put and Delete return an
// empty Result; Append and Increment return the new values.
func (m *mutation) decode(resp proto.Message, cellblock []byte) (*Result, error) {
	r, ok := resp.(*pb.MutateResponse)
	if !ok {
		return nil, badResponse("%T for a %s", resp, m.mtype)
	}
	if r.Result == nil {
		return &Result{}, nil
	}
	var rd wire.CellReader
	rd.Reset(cellblock)
	return parseResult(r.Result, &rd)
}
