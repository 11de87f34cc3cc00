package wire

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// KeyValueCodec framing (hbase-common codec/KeyValueCodec.java, KeyValue.java), per cell:
//
//	be32 len(kv) | be32 keyLen | be32 valueLen |
//	key: be16 rowLen | row | u8 famLen | family | qualifier | be64 timestamp | u8 type |
//	value
//
// keyLen covers the key only; len(kv) = 8 + keyLen + valueLen (no tags over RPC).
const (
	kvHeaderLen = 8             // keyLen + valueLen
	keyFixedLen = 2 + 1 + 8 + 1 // rowLen + famLen + timestamp + type
	// MinCellLen is the fewest bytes a cell takes in a cellblock: a count of cells a block
	// cannot hold is refused before anything is allocated for them.
	MinCellLen = 4 + kvHeaderLen + keyFixedLen
	// MaxRowLen is the longest row HBase takes (HConstants.MAX_ROW_LENGTH).
	MaxRowLen = math.MaxInt16
	// MaxRequestCells bounds the cells of one request: the frame limit of the client's
	// connections (region.DefaultMaxFrameSize) and HBase's own default request limit
	// (hbase.ipc.max.request.size), both 256 MiB.
	MaxRequestCells = 256 << 20
	// MaxFamilyLen is the longest family: KeyValue keeps its length in one signed byte.
	MaxFamilyLen = math.MaxInt8
	// MaxCellLen is the largest KeyValue: its length prefix is a signed int.
	MaxCellLen = math.MaxInt32 - 4
)

// Cell types as HBase encodes them in KeyValue.Type (the values of hrpc.CellType).
const (
	CellTypePut                 = 4
	CellTypeDelete              = 8
	CellTypeDeleteFamilyVersion = 10
	CellTypeDeleteColumn        = 12
	CellTypeDeleteFamily        = 14
)

// CellOf is one KeyValue as the codec reads and writes it, its type byte of type T. In a cell
// read by a CellReader the byte slices alias the block. With T = hrpc.CellType it has the very
// fields of hrpc.Cell, which converts to it (*hrpc.Cell to *CellOf[hrpc.CellType]) without a
// copy: the reader decodes straight into a Result's cells.
type CellOf[T ~uint8] struct {
	Row, Family, Qualifier []byte
	Timestamp              uint64
	Type                   T
	Value                  []byte
}

// Cell is a cell of the codec's own: its type is a plain byte.
type Cell = CellOf[uint8]

// CellSize is the number of bytes AppendCell adds for c.
func CellSize[T ~uint8](c *CellOf[T]) int {
	return 4 + kvHeaderLen + keyFixedLen + len(c.Row) + len(c.Family) + len(c.Qualifier) + len(c.Value)
}

// AppendCell appends c to dst in KeyValueCodec encoding. The cell must satisfy the KeyValue
// limits (MaxRowLen, MaxFamilyLen, MaxCellLen); requests check this when they are built.
func AppendCell[T ~uint8](dst []byte, c *CellOf[T]) []byte {
	keyLen := keyFixedLen + len(c.Row) + len(c.Family) + len(c.Qualifier)
	kvLen := kvHeaderLen + keyLen + len(c.Value)
	dst = binary.BigEndian.AppendUint32(dst, uint32(kvLen))
	dst = binary.BigEndian.AppendUint32(dst, uint32(keyLen))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.Value)))
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.Row)))
	dst = append(dst, c.Row...)
	dst = append(dst, byte(len(c.Family)))
	dst = append(dst, c.Family...)
	dst = append(dst, c.Qualifier...)
	dst = binary.BigEndian.AppendUint64(dst, c.Timestamp)
	dst = append(dst, byte(c.Type))
	return append(dst, c.Value...)
}

// CellReader iterates the cells of a KeyValueCodec cellblock. The cells it returns alias the
// block: nothing is copied. The zero value reads an empty block.
type CellReader struct {
	block []byte
	off   int
	n     int // cells read so far, for error messages
}

// NewCellReader returns a reader over block. A nil or empty block has no cells.
func NewCellReader(block []byte) *CellReader {
	return &CellReader{block: block}
}

// Reset makes r read block from its start.
func (r *CellReader) Reset(block []byte) {
	*r = CellReader{block: block}
}

// Remaining is the number of bytes not yet read.
func (r *CellReader) Remaining() int {
	if r == nil {
		return 0
	}
	return len(r.block) - r.off
}

// Read is the number of cells read so far.
func (r *CellReader) Read() int { return r.n }

// Next decodes the next cell into c. It returns io.EOF when the block is exhausted and an error
// wrapping ErrCorruptCellBlock when the bytes do not form a cell; it never panics.
func (r *CellReader) Next(c *Cell) error { return ReadCell(r, c) }

// ReadCell is r.Next for a cell of any type byte (hrpc's cells).
func ReadCell[T ~uint8](r *CellReader, c *CellOf[T]) error {
	if r == nil || r.off >= len(r.block) {
		return io.EOF
	}
	rest := r.block[r.off:]
	if len(rest) < 4 {
		return r.corrupt("%d trailing bytes cannot hold a cell length", len(rest))
	}
	kvLen := uint64(binary.BigEndian.Uint32(rest))
	if kvLen > uint64(len(rest)-4) {
		return r.corrupt("cell length %d exceeds the %d bytes left", kvLen, len(rest)-4)
	}
	kv := rest[4 : 4+kvLen]
	if err := decodeKeyValue(kv, c); err != nil {
		return r.corrupt("%v", err)
	}
	r.off += 4 + int(kvLen)
	r.n++
	return nil
}

func (r *CellReader) corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: cell %d at offset %d: %s", ErrCorruptCellBlock, r.n, r.off,
		fmt.Sprintf(format, args...))
}

// decodeKeyValue parses one KeyValue (without its length prefix). Trailing bytes after the
// value are tags, which KeyValueCodec never sends; they are ignored.
func decodeKeyValue[T ~uint8](kv []byte, c *CellOf[T]) error {
	if len(kv) < kvHeaderLen+keyFixedLen {
		return fmt.Errorf("cell of %d bytes is shorter than the minimum %d", len(kv), kvHeaderLen+keyFixedLen)
	}
	keyLen := uint64(binary.BigEndian.Uint32(kv))
	valueLen := uint64(binary.BigEndian.Uint32(kv[4:]))
	if kvHeaderLen+keyLen+valueLen > uint64(len(kv)) {
		return fmt.Errorf("key length %d + value length %d exceed cell length %d", keyLen, valueLen, len(kv))
	}
	if keyLen < keyFixedLen {
		return fmt.Errorf("key length %d is shorter than the minimum %d", keyLen, keyFixedLen)
	}
	key := kv[kvHeaderLen : kvHeaderLen+keyLen]
	rowLen := uint64(binary.BigEndian.Uint16(key))
	if 2+rowLen+1 > keyLen-9 {
		return fmt.Errorf("row length %d exceeds key length %d", rowLen, keyLen)
	}
	famOff := 2 + rowLen + 1
	famLen := uint64(key[2+rowLen])
	qualEnd := keyLen - 9
	if famOff+famLen > qualEnd {
		return fmt.Errorf("family length %d exceeds key length %d", famLen, keyLen)
	}
	valOff := kvHeaderLen + keyLen
	c.Row = key[2 : 2+rowLen : 2+rowLen]
	c.Family = key[famOff : famOff+famLen : famOff+famLen]
	c.Qualifier = key[famOff+famLen : qualEnd : qualEnd]
	c.Timestamp = binary.BigEndian.Uint64(key[qualEnd:])
	c.Type = T(key[keyLen-1])
	c.Value = kv[valOff : valOff+valueLen : valOff+valueLen]
	return nil
}
