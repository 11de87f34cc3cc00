package hrpc

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	"github.com/go-hbase/hbase/pb"
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

// Mutation is a Put, Delete, Append or Increment of one row. Cells are sent in the order the
// options gave them. A Mutation is immutable once built and safe for concurrent use.
//
// An Append or Increment carries a nonce drawn when it is built, so that the server applies it
// once even when the client retries it. Sending the same Append or Increment value twice is
// therefore a retry, not a second operation: build a new one for each operation.
type Mutation struct {
	table, row []byte
	mtype      pb.MutationProto_MutationType
	cells      []Cell
	timestamp  uint64
	durability Durability
	timeRange  *pb.TimeRange
	nonce      uint64
	attributes []*pb.NameBytesPair
}

// NewPut builds a Put of the cells given with Value or ValueAt.
func NewPut(table, row []byte, opts ...Option) (*Mutation, error) {
	return newMutation(kindPut, pb.MutationProto_PUT, table, row, opts)
}

// NewDelete builds a Delete. Without DeleteColumn, DeleteFamily... options it deletes the whole
// row (every version up to Timestamp, when given).
func NewDelete(table, row []byte, opts ...Option) (*Mutation, error) {
	return newMutation(kindDelete, pb.MutationProto_DELETE, table, row, opts)
}

// NewAppend builds an Append: each Value is appended to the column's current value. The result
// holds the new values.
func NewAppend(table, row []byte, opts ...Option) (*Mutation, error) {
	return newMutation(kindAppend, pb.MutationProto_APPEND, table, row, opts)
}

// NewIncrement builds an Increment of the columns given with Amount. The result holds the new
// values as 8-byte big-endian integers.
func NewIncrement(table, row []byte, opts ...Option) (*Mutation, error) {
	return newMutation(kindIncrement, pb.MutationProto_INCREMENT, table, row, opts)
}

func newMutation(k kind, t pb.MutationProto_MutationType, table, row []byte, opts []Option) (*Mutation, error) {
	if err := checkTable(table); err != nil {
		return nil, err
	}
	if err := checkRow(row); err != nil {
		return nil, err
	}
	o := options{kind: k, timestamp: LatestTimestamp}
	if err := applyOptions(&o, opts); err != nil {
		return nil, err
	}
	if len(o.cells) == 0 && k != kindDelete {
		return nil, ErrNoCells
	}
	m := &Mutation{
		table:      table,
		row:        row,
		mtype:      t,
		cells:      o.cells,
		timestamp:  o.timestamp,
		durability: o.durability,
		timeRange:  o.timeRange,
		attributes: attributesProto(o.attributes),
	}
	for i := range m.cells {
		c := &m.cells[i]
		c.Row = row
		if c.Timestamp == unsetTimestamp {
			c.Timestamp = o.timestamp
		}
		if err := checkCell(c); err != nil {
			return nil, err
		}
	}
	if k&kindDelta != 0 {
		m.nonce = newNonce()
	}
	return m, nil
}

// newNonce draws a non-zero nonce; zero is HConstants.NO_NONCE.
func newNonce() uint64 {
	for {
		if n := rand.Uint64(); n != 0 {
			return n
		}
	}
}

func (o *options) addCell(name string, kinds kind, family, qualifier []byte, ts uint64, t CellType, value []byte) error {
	if err := o.allow(name, kinds); err != nil {
		return err
	}
	if err := checkFamily(family); err != nil {
		return err
	}
	if ts != unsetTimestamp && ts > LatestTimestamp {
		return invalid("%s: timestamp %d beyond the largest timestamp %d", name, ts, LatestTimestamp)
	}
	o.cells = append(o.cells, Cell{Family: family, Qualifier: qualifier, Timestamp: ts, Type: t, Value: value})
	return nil
}

// Value adds a cell to a Put, or a value to append to a column for an Append. The value may be
// empty.
func Value(family, qualifier, value []byte) Option {
	return func(o *options) error {
		return o.addCell("Value", kindPut|kindAppend, family, qualifier, unsetTimestamp, CellTypePut, value)
	}
}

// ValueAt adds a cell with its own timestamp to a Put.
func ValueAt(family, qualifier []byte, timestamp uint64, value []byte) Option {
	return func(o *options) error {
		return o.addCell("ValueAt", kindPut, family, qualifier, timestamp, CellTypePut, value)
	}
}

// Amount adds delta to a column in an Increment.
func Amount(family, qualifier []byte, delta int64) Option {
	return func(o *options) error {
		v := binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(delta))
		return o.addCell("Amount", kindIncrement, family, qualifier, unsetTimestamp, CellTypePut, v)
	}
}

// DeleteColumn deletes every version of a column (up to the Delete's Timestamp, when given).
func DeleteColumn(family, qualifier []byte) Option {
	return func(o *options) error {
		return o.addCell("DeleteColumn", kindDelete, family, qualifier, unsetTimestamp, CellTypeDeleteColumn, nil)
	}
}

// DeleteColumnVersion deletes the version of a column with exactly this timestamp.
func DeleteColumnVersion(family, qualifier []byte, timestamp uint64) Option {
	return func(o *options) error {
		return o.addCell("DeleteColumnVersion", kindDelete, family, qualifier, timestamp, CellTypeDelete, nil)
	}
}

// DeleteLatestVersion deletes the newest version of a column (or, with the Delete's Timestamp,
// the version with that timestamp).
func DeleteLatestVersion(family, qualifier []byte) Option {
	return func(o *options) error {
		return o.addCell("DeleteLatestVersion", kindDelete, family, qualifier, unsetTimestamp, CellTypeDelete, nil)
	}
}

// DeleteFamily deletes every version of every column of a family (up to the Delete's
// Timestamp, when given).
func DeleteFamily(family []byte) Option {
	return func(o *options) error {
		return o.addCell("DeleteFamily", kindDelete, family, nil, unsetTimestamp, CellTypeDeleteFamily, nil)
	}
}

// DeleteFamilyVersion deletes the versions of every column of a family with exactly this
// timestamp.
func DeleteFamilyVersion(family []byte, timestamp uint64) Option {
	return func(o *options) error {
		return o.addCell("DeleteFamilyVersion", kindDelete, family, nil, timestamp, CellTypeDeleteFamilyVersion, nil)
	}
}

// Timestamp sets the timestamp of a mutation: the default for its cells (instead of the
// server's clock) and, for a Delete, the newest version deleted.
func Timestamp(ts uint64) Option {
	return func(o *options) error {
		if err := o.allow("Timestamp", kindMutation); err != nil {
			return err
		}
		if ts > LatestTimestamp {
			return invalid("Timestamp(%d) beyond the largest timestamp %d", ts, LatestTimestamp)
		}
		o.timestamp = ts
		return nil
	}
}

// WithDurability sets how the server writes a mutation to its write-ahead log.
func WithDurability(d Durability) Option {
	return func(o *options) error {
		if err := o.allow("WithDurability", kindMutation); err != nil {
			return err
		}
		if d < UseDefault || d > FsyncWAL {
			return invalid("unknown durability %d", d)
		}
		o.durability = d
		return nil
	}
}

// Table is the table the mutation is for.
func (m *Mutation) Table() []byte { return m.table }

// Key is the row the mutation changes.
func (m *Mutation) Key() []byte { return m.row }

// Method is "Mutate".
func (m *Mutation) Method() string { return "Mutate" }

// Cells are the mutation's cells in the order they were given. Do not modify them.
func (m *Mutation) Cells() []Cell { return m.cells }

// Type is the mutation type: PUT, DELETE, APPEND or INCREMENT.
func (m *Mutation) Type() pb.MutationProto_MutationType { return m.mtype }

// Nonce is the Append's or Increment's nonce (0 for Put and Delete).
func (m *Mutation) Nonce() uint64 { return m.nonce }

// mutationAlloc holds a MutationProto with every field it points to, so that encoding a
// mutation costs one allocation instead of one per optional field.
type mutationAlloc struct {
	mut        pb.MutationProto
	mtype      pb.MutationProto_MutationType
	durability pb.MutationProto_Durability
	timestamp  uint64
	count      int32
	nonce      uint64
}

// fill sets a.mut to m's metadata (no cells: they travel in the cellblock) and appends the
// cells to cellblock.
func (m *Mutation) fill(a *mutationAlloc, cellblock []byte) []byte {
	a.mtype = m.mtype
	a.timestamp = m.timestamp
	a.mut.Row = m.row
	a.mut.MutateType = &a.mtype
	a.mut.Timestamp = &a.timestamp
	if m.durability != UseDefault {
		a.durability = pb.MutationProto_Durability(m.durability)
		a.mut.Durability = &a.durability
	}
	if len(m.cells) > 0 {
		a.count = int32(len(m.cells))
		a.mut.AssociatedCellCount = &a.count
	}
	if m.nonce != 0 {
		a.nonce = m.nonce
		a.mut.Nonce = &a.nonce
	}
	a.mut.TimeRange = m.timeRange
	a.mut.Attribute = m.attributes
	for i := range m.cells {
		cellblock = AppendCell(cellblock, &m.cells[i])
	}
	return cellblock
}

type mutateAlloc struct {
	req        pb.MutateRequest
	region     pb.RegionSpecifier
	regionType pb.RegionSpecifier_RegionSpecifierType
	m          mutationAlloc
}

// Marshal builds the MutateRequest for regionName and appends the cells to cellblock.
func (m *Mutation) Marshal(regionName, cellblock []byte) (proto.Message, []byte, error) {
	a := new(mutateAlloc)
	a.regionType = pb.RegionSpecifier_REGION_NAME
	a.region.Type = &a.regionType
	a.region.Value = regionName
	a.req.Region = &a.region
	cellblock = m.fill(&a.m, cellblock)
	a.req.Mutation = &a.m.mut
	return &a.req, cellblock, nil
}

// NewResponse returns an empty MutateResponse.
func (m *Mutation) NewResponse() proto.Message { return new(pb.MutateResponse) }

type actionAlloc struct {
	action pb.Action
	index  uint32
	m      mutationAlloc
}

// Action builds the mutation as action index of a MultiRequest and appends its cells to
// cellblock.
func (m *Mutation) Action(index uint32, cellblock []byte) (*pb.Action, []byte, error) {
	a := new(actionAlloc)
	a.index = index
	a.action.Index = &a.index
	cellblock = m.fill(&a.m, cellblock)
	a.action.Mutation = &a.m.mut
	return &a.action, cellblock, nil
}

// Decode turns a MutateResponse and its cellblock into a Result. Put and Delete return an
// empty Result; Append and Increment return the new values.
func (m *Mutation) Decode(resp proto.Message, cellblock []byte) (*Result, error) {
	r, ok := resp.(*pb.MutateResponse)
	if !ok {
		return nil, badResponse("%T for a %s", resp, m.mtype)
	}
	if r.Result == nil {
		return &Result{}, nil
	}
	return ParseResult(r.Result, NewCellReader(cellblock))
}
