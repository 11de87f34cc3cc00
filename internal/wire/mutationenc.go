package wire

import (
	"bytes"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/go-hbase/hbase/internal/pb"
)

// MutationAction is a mutation as an action of a MultiRequest: the fields its MutationProto
// carries. AppendMutationAction encodes it without building the message.
type MutationAction struct {
	Row        []byte // nil: not sent
	Type       pb.MutationProto_MutationType
	Timestamp  uint64
	Durability pb.MutationProto_Durability // USE_DEFAULT: not sent
	Nonce      uint64                      // 0: not sent
	TimeRange  *pb.TimeRange
	Attributes []*pb.NameBytesPair
	Cells      []Cell
	// InlineCells puts the cells in the message as column values, one per run of cells of the
	// same family, in order (an Append's or Increment's), instead of in the cellblock with
	// their count in associated_cell_count.
	InlineCells bool
}

// Field numbers of Client.proto's MutationProto and its ColumnValue and QualifierValue, and of
// HBase.proto's TimeRange and NameBytesPair.
const (
	mutRow        = 1
	mutType       = 2
	mutColumn     = 3
	mutTimestamp  = 4
	mutAttribute  = 5
	mutDurability = 6
	mutTimeRange  = 7
	mutCellCount  = 8
	mutNonce      = 9
	colFamily     = 1
	colQualValue  = 2
	qvQualifier   = 1
	qvValue       = 2
	qvTimestamp   = 3
	trFrom        = 1
	trTo          = 2
	nbpName       = 1
	nbpValue      = 2
)

// latestTimestamp is hrpc.LatestTimestamp (HConstants.LATEST_TIMESTAMP): an inline cell with it has no timestamp of its own.
const latestTimestamp = uint64(math.MaxInt64)

// AppendMutationAction appends action index of m, as the action field of a RegionAction (tag and
// length included), to dst, and m's cells to cellblock unless they are inline. The bytes decode
// to the Action hrpc builds of the same mutation (FuzzEncodeMultiRequest).
func AppendMutationAction(dst []byte, index uint32, m *MutationAction, cellblock []byte) ([]byte, []byte) {
	mut := m.size()
	action := protowire.SizeTag(actionIndex) + protowire.SizeVarint(uint64(index)) +
		protowire.SizeTag(actionMutation) + protowire.SizeBytes(mut)
	dst = slices.Grow(dst, protowire.SizeTag(raAction)+protowire.SizeBytes(action))
	dst = protowire.AppendTag(dst, raAction, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(action))
	dst = protowire.AppendTag(dst, actionIndex, protowire.VarintType)
	dst = protowire.AppendVarint(dst, uint64(index))
	dst = protowire.AppendTag(dst, actionMutation, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(mut))
	dst = m.appendTo(dst)
	if !m.InlineCells && len(m.Cells) > 0 {
		size := 0
		for i := range m.Cells {
			size += CellSize(&m.Cells[i])
		}
		cellblock = slices.Grow(cellblock, size)
		for i := range m.Cells {
			cellblock = AppendCell(cellblock, &m.Cells[i])
		}
	}
	return dst, cellblock
}

// size is the encoded size of m's MutationProto.
func (m *MutationAction) size() int {
	n := 0
	if m.Row != nil {
		n += protowire.SizeTag(mutRow) + protowire.SizeBytes(len(m.Row))
	}
	n += protowire.SizeTag(mutType) + protowire.SizeVarint(uint64(m.Type))
	if m.InlineCells {
		for cells := m.Cells; len(cells) > 0; {
			run, size := familyRun(cells)
			n += protowire.SizeTag(mutColumn) + protowire.SizeBytes(size)
			cells = cells[run:]
		}
	}
	n += protowire.SizeTag(mutTimestamp) + protowire.SizeVarint(m.Timestamp)
	for _, a := range m.Attributes {
		n += protowire.SizeTag(mutAttribute) + protowire.SizeBytes(nameBytesPairSize(a))
	}
	if m.Durability != pb.MutationProto_USE_DEFAULT {
		n += protowire.SizeTag(mutDurability) + protowire.SizeVarint(uint64(m.Durability))
	}
	if m.TimeRange != nil {
		n += protowire.SizeTag(mutTimeRange) + protowire.SizeBytes(timeRangeSize(m.TimeRange))
	}
	if !m.InlineCells && len(m.Cells) > 0 {
		n += protowire.SizeTag(mutCellCount) + protowire.SizeVarint(uint64(int32(len(m.Cells))))
	}
	if m.Nonce != 0 {
		n += protowire.SizeTag(mutNonce) + protowire.SizeVarint(m.Nonce)
	}
	return n
}

// appendTo appends m's MutationProto, in field order, as proto.Marshal does.
func (m *MutationAction) appendTo(b []byte) []byte {
	if m.Row != nil {
		b = protowire.AppendTag(b, mutRow, protowire.BytesType)
		b = protowire.AppendBytes(b, m.Row)
	}
	b = protowire.AppendTag(b, mutType, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(m.Type))
	if m.InlineCells {
		for cells := m.Cells; len(cells) > 0; {
			run, size := familyRun(cells)
			b = protowire.AppendTag(b, mutColumn, protowire.BytesType)
			b = protowire.AppendVarint(b, uint64(size))
			b = appendColumnValue(b, cells[:run])
			cells = cells[run:]
		}
	}
	b = protowire.AppendTag(b, mutTimestamp, protowire.VarintType)
	b = protowire.AppendVarint(b, m.Timestamp)
	for _, a := range m.Attributes {
		b = protowire.AppendTag(b, mutAttribute, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(nameBytesPairSize(a)))
		if a.Name != nil {
			b = protowire.AppendTag(b, nbpName, protowire.BytesType)
			b = protowire.AppendString(b, *a.Name)
		}
		if a.Value != nil {
			b = protowire.AppendTag(b, nbpValue, protowire.BytesType)
			b = protowire.AppendBytes(b, a.Value)
		}
	}
	if m.Durability != pb.MutationProto_USE_DEFAULT {
		b = protowire.AppendTag(b, mutDurability, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(m.Durability))
	}
	if tr := m.TimeRange; tr != nil {
		b = protowire.AppendTag(b, mutTimeRange, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(timeRangeSize(tr)))
		if tr.From != nil {
			b = protowire.AppendTag(b, trFrom, protowire.VarintType)
			b = protowire.AppendVarint(b, *tr.From)
		}
		if tr.To != nil {
			b = protowire.AppendTag(b, trTo, protowire.VarintType)
			b = protowire.AppendVarint(b, *tr.To)
		}
	}
	if !m.InlineCells && len(m.Cells) > 0 {
		b = protowire.AppendTag(b, mutCellCount, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int32(len(m.Cells))))
	}
	if m.Nonce != 0 {
		b = protowire.AppendTag(b, mutNonce, protowire.VarintType)
		b = protowire.AppendVarint(b, m.Nonce)
	}
	return b
}

// familyRun returns how many cells from the first have its family, and the encoded size of
// their ColumnValue.
func familyRun(cells []Cell) (run, size int) {
	family := cells[0].Family
	if family != nil {
		size = protowire.SizeTag(colFamily) + protowire.SizeBytes(len(family))
	}
	for run < len(cells) && (run == 0 || bytes.Equal(cells[run].Family, family)) {
		size += protowire.SizeTag(colQualValue) + protowire.SizeBytes(qualifierValueSize(&cells[run]))
		run++
	}
	return run, size
}

// appendColumnValue appends the ColumnValue of cells, which share a family.
func appendColumnValue(b []byte, cells []Cell) []byte {
	if cells[0].Family != nil {
		b = protowire.AppendTag(b, colFamily, protowire.BytesType)
		b = protowire.AppendBytes(b, cells[0].Family)
	}
	for i := range cells {
		c := &cells[i]
		b = protowire.AppendTag(b, colQualValue, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(qualifierValueSize(c)))
		if c.Qualifier != nil {
			b = protowire.AppendTag(b, qvQualifier, protowire.BytesType)
			b = protowire.AppendBytes(b, c.Qualifier)
		}
		if c.Value != nil {
			b = protowire.AppendTag(b, qvValue, protowire.BytesType)
			b = protowire.AppendBytes(b, c.Value)
		}
		if c.Timestamp != latestTimestamp {
			b = protowire.AppendTag(b, qvTimestamp, protowire.VarintType)
			b = protowire.AppendVarint(b, c.Timestamp)
		}
	}
	return b
}

func qualifierValueSize(c *Cell) int {
	n := 0
	if c.Qualifier != nil {
		n += protowire.SizeTag(qvQualifier) + protowire.SizeBytes(len(c.Qualifier))
	}
	if c.Value != nil {
		n += protowire.SizeTag(qvValue) + protowire.SizeBytes(len(c.Value))
	}
	if c.Timestamp != latestTimestamp {
		n += protowire.SizeTag(qvTimestamp) + protowire.SizeVarint(c.Timestamp)
	}
	return n
}

func nameBytesPairSize(a *pb.NameBytesPair) int {
	n := 0
	if a.Name != nil {
		n += protowire.SizeTag(nbpName) + protowire.SizeBytes(len(*a.Name))
	}
	if a.Value != nil {
		n += protowire.SizeTag(nbpValue) + protowire.SizeBytes(len(a.Value))
	}
	return n
}

func timeRangeSize(tr *pb.TimeRange) int {
	n := 0
	if tr.From != nil {
		n += protowire.SizeTag(trFrom) + protowire.SizeVarint(*tr.From)
	}
	if tr.To != nil {
		n += protowire.SizeTag(trTo) + protowire.SizeVarint(*tr.To)
	}
	return n
}
