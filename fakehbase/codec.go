package fakehbase

import (
	"encoding/binary"
	"fmt"
)

// The KeyValueCodec cellblock encoding (HBase's codec/KeyValueCodec.java, KeyValue.java), the
// fake's own: it shares no code with the client's, so a mistake in one is not hidden by the
// other (the conformance suite runs them against HBase's). Per cell:
//
//	be32 len(kv) | be32 keyLen | be32 valueLen |
//	key: be16 rowLen | row | u8 famLen | family | qualifier | be64 timestamp | u8 type |
//	value
//
// Tags, which KeyValueCodec never sends, would follow the value; they are ignored.
const keyFixed = 2 + 1 + 8 + 1 // row length, family length, timestamp, type

// decodeCells reads every cell of a request cellblock. The cells alias block.
func decodeCells(block []byte) ([]kv, error) {
	var out []kv
	for off := 0; off < len(block); {
		if len(block)-off < 4 {
			return nil, fmt.Errorf("cellblock: %d trailing bytes after cell %d", len(block)-off, len(out))
		}
		n := int(binary.BigEndian.Uint32(block[off:]))
		if n < 8+keyFixed || n > len(block)-off-4 {
			return nil, fmt.Errorf("cellblock: cell %d claims %d bytes, %d left", len(out), n, len(block)-off-4)
		}
		c, err := decodeKeyValue(block[off+4 : off+4+n])
		if err != nil {
			return nil, fmt.Errorf("cellblock: cell %d: %w", len(out), err)
		}
		out = append(out, c)
		off += 4 + n
	}
	return out, nil
}

func decodeKeyValue(b []byte) (kv, error) {
	keyLen := int(binary.BigEndian.Uint32(b))
	valueLen := int(binary.BigEndian.Uint32(b[4:]))
	if keyLen < keyFixed || valueLen < 0 || keyLen > len(b)-8 || valueLen > len(b)-8-keyLen {
		return kv{}, fmt.Errorf("key of %d and value of %d bytes in %d", keyLen, valueLen, len(b))
	}
	key := b[8 : 8+keyLen]
	rowLen := int(binary.BigEndian.Uint16(key))
	if 2+rowLen+1 > keyLen-9 {
		return kv{}, fmt.Errorf("row of %d bytes in a key of %d", rowLen, keyLen)
	}
	famLen := int(key[2+rowLen])
	famEnd := 2 + rowLen + 1 + famLen
	if famEnd > keyLen-9 {
		return kv{}, fmt.Errorf("family of %d bytes in a key of %d", famLen, keyLen)
	}
	return kv{
		row:       key[2 : 2+rowLen],
		family:    key[2+rowLen+1 : famEnd],
		qualifier: key[famEnd : keyLen-9],
		ts:        int64(binary.BigEndian.Uint64(key[keyLen-9:])),
		typ:       key[keyLen-1],
		value:     b[8+keyLen : 8+keyLen+valueLen],
	}, nil
}

// appendCells appends cells to a response cellblock.
func appendCells(dst []byte, cells []kv) []byte {
	for i := range cells {
		c := &cells[i]
		keyLen := keyFixed + len(c.row) + len(c.family) + len(c.qualifier)
		dst = binary.BigEndian.AppendUint32(dst, uint32(8+keyLen+len(c.value)))
		dst = binary.BigEndian.AppendUint32(dst, uint32(keyLen))
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.value)))
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.row)))
		dst = append(dst, c.row...)
		dst = append(dst, byte(len(c.family)))
		dst = append(dst, c.family...)
		dst = append(dst, c.qualifier...)
		dst = binary.BigEndian.AppendUint64(dst, uint64(c.ts))
		dst = append(dst, c.typ)
		dst = append(dst, c.value...)
	}
	return dst
}
