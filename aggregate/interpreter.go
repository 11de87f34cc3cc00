package aggregate

import (
	"cmp"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Interpreter is how the server reads a column's values and how the client combines the
// regions' answers: one of HBase's ColumnInterpreters, named by its Java class, which the
// server instantiates. Long and Double make one; the set is closed.
type Interpreter[T any] interface {
	// className is the interpreter's canonical Java class name, sent in every request.
	className() string
	// decode reads a value of the interpreter's message type (LongMsg, DoubleMsg).
	decode(msg []byte) (T, error)
	add(a, b T) T
	// compare orders two values as the Java interpreter does.
	compare(a, b T) int
	// float is the value as a double, as divideForAvg takes it.
	float(v T) float64
}

// Long is LongColumnInterpreter: a value is a cell of exactly 8 bytes, a big-endian int64 (what
// an Increment writes, or Bytes.toBytes(long)); other cells count as no value. Sums wrap
// around as Java's long arithmetic does.
func Long() Interpreter[int64] { return longInterpreter{} }

// Double is DoubleColumnInterpreter: a value is a cell of exactly 8 bytes, a big-endian IEEE 754
// double (Bytes.toBytes(double)); other cells count as no value.
func Double() Interpreter[float64] { return doubleInterpreter{} }

type longInterpreter struct{}

func (longInterpreter) className() string {
	return "org.apache.hadoop.hbase.client.coprocessor.LongColumnInterpreter"
}

func (longInterpreter) decode(msg []byte) (int64, error) {
	v, err := field1(msg, protowire.VarintType, "LongMsg")
	return int64(v), err
}

func (longInterpreter) add(a, b int64) int64       { return a + b }
func (longInterpreter) compare(a, b int64) int     { return cmp.Compare(a, b) }
func (longInterpreter) float(v int64) float64      { return float64(v) }
func (doubleInterpreter) add(a, b float64) float64 { return a + b }
func (doubleInterpreter) float(v float64) float64  { return v }

type doubleInterpreter struct{}

func (doubleInterpreter) className() string {
	return "org.apache.hadoop.hbase.client.coprocessor.DoubleColumnInterpreter"
}

func (doubleInterpreter) decode(msg []byte) (float64, error) {
	v, err := field1(msg, protowire.Fixed64Type, "DoubleMsg")
	return math.Float64frombits(v), err
}

// compare is Java's Double.compareTo: -0.0 before 0.0, NaN after everything and equal to
// itself.
func (doubleInterpreter) compare(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	// Equal, or -0.0 and 0.0: Java orders them by their bits.
	return cmp.Compare(int64(math.Float64bits(a)), int64(math.Float64bits(b)))
}

// field1 reads field 1 of a message of one required scalar field (HBase's LongMsg {int64
// long_msg = 1}, DoubleMsg {double double_msg = 1}), skipping any other field.
func field1(msg []byte, typ protowire.Type, what string) (uint64, error) {
	var v uint64
	found := false
	for len(msg) > 0 {
		num, t, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return 0, fmt.Errorf("aggregate: corrupt %s: %v", what, protowire.ParseError(n))
		}
		msg = msg[n:]
		if num == 1 && t == typ {
			switch typ {
			case protowire.VarintType:
				v, n = protowire.ConsumeVarint(msg)
			default:
				v, n = protowire.ConsumeFixed64(msg)
			}
			found = true
		} else {
			n = protowire.ConsumeFieldValue(num, t, msg)
		}
		if n < 0 {
			return 0, fmt.Errorf("aggregate: corrupt %s: %v", what, protowire.ParseError(n))
		}
		msg = msg[n:]
	}
	if !found {
		return 0, fmt.Errorf("aggregate: %s without its value", what)
	}
	return v, nil
}
