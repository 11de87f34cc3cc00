package doc

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
)

// The first byte of a cell's value says what it holds; the tags are ordered as values of
// different types sort (null < booleans < numbers < strings), so that a range condition is a
// byte range of the values, and a comparison never crosses types.
const (
	tagNull   byte = 0x01
	tagFalse  byte = 0x02
	tagTrue   byte = 0x03
	tagNumber byte = 0x04 // 8 bytes ordered float, 2 bytes residual, 1 byte kind
	tagString byte = 0x05 // the UTF-8 bytes
	tagObject byte = 0x06 // an object's marker: no payload
	tagArray  byte = 0x07 // an array's marker: its length, uvarint
)

// The kind byte of a number: what it was, below the part that orders it.
const (
	kindFloat   byte = 0x00
	kindInt     byte = 0x01
	kindNegZero byte = 0x02 // float64 -0, ordered as 0
)

// numberLen is a number's cell value: tag, 10 bytes that order it, its kind.
const numberLen = 12

// numberKeyLen is the part of a number's encoding that orders it (tag included): what index
// keys hold and what range filters compare.
const numberKeyLen = 11

// orderedFloat maps a float64 to a uint64 of the same order (negatives below positives).
func orderedFloat(f float64) uint64 {
	bits := math.Float64bits(f)
	if bits>>63 == 1 {
		return ^bits
	}
	return bits | 1<<63
}

func unorderedFloat(u uint64) float64 {
	if u>>63 == 1 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}

// two63 is 2^63 as a float64: where float64(int64) can round to.
const two63 = float64(1 << 63)

// intParts is an int64 as the float64 nearest to it and the exact difference (at most 512
// either way): the float orders it among all numbers, the residual among the integers
// rounding to the same float.
func intParts(i int64) (float64, int16) {
	f := float64(i)
	if f >= two63 {
		return f, int16(i - math.MaxInt64 - 1)
	}
	return f, int16(i - int64(f))
}

func intFromParts(f float64, r int16) int64 {
	if f >= two63 {
		return math.MaxInt64 + int64(r) + 1
	}
	return int64(f) + int64(r)
}

// appendNumberKey appends the ordering part of a number: tag, ordered float, residual.
func appendNumberKey(b []byte, f float64, r int16) []byte {
	if f == 0 {
		f = 0 // -0 orders as 0
	}
	b = append(b, tagNumber)
	b = binary.BigEndian.AppendUint64(b, orderedFloat(f))
	return binary.BigEndian.AppendUint16(b, uint16(r)^0x8000)
}

// appendInt appends the cell value of an int64.
func appendInt(b []byte, i int64) []byte {
	f, r := intParts(i)
	return append(appendNumberKey(b, f, r), kindInt)
}

// appendFloat appends the cell value of a finite float64.
func appendFloat(b []byte, f float64) []byte {
	kind := kindFloat
	if f == 0 && math.Signbit(f) {
		kind = kindNegZero
	}
	return append(appendNumberKey(b, f, 0), kind)
}

// appendScalar appends the cell value of a canonical scalar (nil, bool, int64, float64,
// string); the caller checked it.
func appendScalar(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, tagNull)
	case bool:
		if x {
			return append(b, tagTrue)
		}
		return append(b, tagFalse)
	case int64:
		return appendInt(b, x)
	case float64:
		return appendFloat(b, x)
	case string:
		b = append(b, tagString)
		return append(b, x...)
	}
	panic(fmt.Sprintf("doc: appendScalar of %T", v))
}

// appendArrayMarker appends the value of an array's marker cell.
func appendArrayMarker(b []byte, n int) []byte {
	return binary.AppendUvarint(append(b, tagArray), uint64(n))
}

// corrupt is ErrInvalidDocument for a stored cell that does not decode.
func corrupt(q string, format string, args ...any) error {
	return fmt.Errorf("%w: cell %s: %s", hberr.ErrInvalidDocument, q, fmt.Sprintf(format, args...))
}

// decodeScalar decodes a scalar cell's value.
func decodeScalar(q string, v []byte) (any, error) {
	if len(v) == 0 {
		return nil, corrupt(q, "empty value")
	}
	switch v[0] {
	case tagNull:
		if len(v) == 1 {
			return nil, nil
		}
	case tagFalse, tagTrue:
		if len(v) == 1 {
			return v[0] == tagTrue, nil
		}
	case tagNumber:
		if len(v) == numberLen {
			return decodeNumber(q, v)
		}
	case tagString:
		if !utf8.Valid(v[1:]) {
			return nil, corrupt(q, "string is not UTF-8")
		}
		return string(v[1:]), nil
	default:
		return nil, corrupt(q, "unknown tag %#x", v[0])
	}
	return nil, corrupt(q, "value of %d bytes for tag %#x", len(v), v[0])
}

func decodeNumber(q string, v []byte) (any, error) {
	f := unorderedFloat(binary.BigEndian.Uint64(v[1:9]))
	r := int16(binary.BigEndian.Uint16(v[9:11]) ^ 0x8000)
	switch v[11] {
	case kindInt:
		if math.IsNaN(f) || math.IsInf(f, 0) || f < -two63 || f > two63 || r < -512 || r > 512 {
			return nil, corrupt(q, "int out of range")
		}
		return intFromParts(f, r), nil
	case kindFloat, kindNegZero:
		if r != 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, corrupt(q, "bad float")
		}
		if v[11] == kindNegZero {
			if f != 0 {
				return nil, corrupt(q, "bad negative zero")
			}
			return math.Copysign(0, -1), nil
		}
		return f, nil
	}
	return nil, corrupt(q, "unknown number kind %#x", v[11])
}

// decodeArrayLen decodes an array marker's length.
func decodeArrayLen(q string, v []byte) (int, error) {
	n, k := binary.Uvarint(v[1:])
	if k <= 0 || k != len(v)-1 || n > maxIndex+1 {
		return 0, corrupt(q, "bad array length")
	}
	return int(n), nil
}

// scalarKey appends the order-preserving, self-delimiting encoding of a scalar: what an index
// row holds before the id. Numbers keep only their ordering part (5 and 5.0 are one key);
// strings escape 0x00 as 0x00 0xff and end with 0x00 0x01.
func scalarKey(b []byte, v any) []byte {
	switch x := v.(type) {
	case int64:
		f, r := intParts(x)
		return appendNumberKey(b, f, r)
	case float64:
		return appendNumberKey(b, x, 0)
	case string:
		b = append(b, tagString)
		for i := 0; i < len(x); i++ {
			if x[i] == 0 {
				b = append(b, 0, 0xff)
			} else {
				b = append(b, x[i])
			}
		}
		return append(b, 0, 1)
	}
	return appendScalar(b, v) // null and booleans: one byte
}

// scalarKeyLen is the length of the scalar key at the start of k, or an error.
func scalarKeyLen(k []byte) (int, error) {
	if len(k) == 0 {
		return 0, fmt.Errorf("empty key")
	}
	switch k[0] {
	case tagNull, tagFalse, tagTrue:
		return 1, nil
	case tagNumber:
		if len(k) < numberKeyLen {
			return 0, fmt.Errorf("short number key")
		}
		return numberKeyLen, nil
	case tagString:
		for i := 1; i+1 < len(k); i++ {
			if k[i] == 0 {
				switch k[i+1] {
				case 1:
					return i + 2, nil
				case 0xff:
					i++
				default:
					return 0, fmt.Errorf("bad escape in a string key")
				}
			}
		}
		return 0, fmt.Errorf("unterminated string key")
	}
	return 0, fmt.Errorf("unknown key tag %#x", k[0])
}

// prefixEnd is the smallest byte string greater than every string starting with p (nil: none).
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
