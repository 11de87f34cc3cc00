package hrpc

import (
	"encoding/binary"
	"strings"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Comparator is a server-side byte comparator (a Java ByteArrayComparable) used by compare
// filters. Only the comparator types of this package implement it.
type Comparator interface {
	// toProto returns the pb.Comparator HBase's ProtobufUtil.toComparator reads: the Java class
	// name and the serialized comparator message.
	toProto() (*pb.Comparator, error)
}

// CompareOp is how a compare filter or condition compares the cell's bytes with the
// comparator's operand.
type CompareOp int32

// Compare operations, with the values of HBase's CompareType.
const (
	Less           CompareOp = 0
	LessOrEqual    CompareOp = 1
	Equal          CompareOp = 2
	NotEqual       CompareOp = 3
	GreaterOrEqual CompareOp = 4
	Greater        CompareOp = 5
	NoOp           CompareOp = 6
)

func (op CompareOp) proto() (*pb.CompareType, error) {
	if op < Less || op > NoOp {
		return nil, invalid("unknown compare op %d", op)
	}
	return pb.CompareType(op).Enum(), nil
}

const comparatorPackage = "org.apache.hadoop.hbase.filter."

func marshalComparator(class string, m proto.Message) (*pb.Comparator, error) {
	b, err := proto.Marshal(m)
	if err != nil {
		return nil, invalid("%s: %v", class, err)
	}
	name := comparatorPackage + class
	return &pb.Comparator{Name: &name, SerializedComparator: b}, nil
}

// BinaryComparator compares lexicographically with Value.
type BinaryComparator struct{ Value []byte }

// toProto implements Comparator.
func (c BinaryComparator) toProto() (*pb.Comparator, error) {
	return marshalComparator("BinaryComparator",
		&pb.BinaryComparator{Comparable: &pb.ByteArrayComparable{Value: c.Value}})
}

// BinaryPrefixComparator compares the first len(Value) bytes lexicographically with Value.
type BinaryPrefixComparator struct{ Value []byte }

// toProto implements Comparator.
func (c BinaryPrefixComparator) toProto() (*pb.Comparator, error) {
	return marshalComparator("BinaryPrefixComparator",
		&pb.BinaryPrefixComparator{Comparable: &pb.ByteArrayComparable{Value: c.Value}})
}

// BinaryComponentComparator compares the bytes at Offset with Value.
type BinaryComponentComparator struct {
	Value  []byte
	Offset uint32
}

// toProto implements Comparator.
func (c BinaryComponentComparator) toProto() (*pb.Comparator, error) {
	v := c.Value
	if v == nil {
		v = []byte{}
	}
	return marshalComparator("BinaryComponentComparator",
		&pb.BinaryComponentComparator{Value: v, Offset: &c.Offset})
}

// LongComparator compares the bytes, read as a big-endian int64, with Value.
type LongComparator struct{ Value int64 }

// toProto implements Comparator.
func (c LongComparator) toProto() (*pb.Comparator, error) {
	v := binary.BigEndian.AppendUint64(nil, uint64(c.Value))
	return marshalComparator("LongComparator",
		&pb.LongComparator{Comparable: &pb.ByteArrayComparable{Value: v}})
}

// NullComparator compares "not equal" to every value that is present, even an empty one: use
// it with NotEqual to keep cells (or, in a SingleColumnValueFilter with FilterIfMissing, rows)
// where the column exists.
type NullComparator struct{}

// toProto implements Comparator.
func (NullComparator) toProto() (*pb.Comparator, error) {
	return marshalComparator("NullComparator", &pb.NullComparator{})
}

// BitwiseOp is the operation of a BitComparator.
type BitwiseOp int32

// Bitwise operations, with the values of HBase's BitComparator.BitwiseOp.
const (
	BitAnd BitwiseOp = 1
	BitOr  BitwiseOp = 2
	BitXor BitwiseOp = 3
)

// BitComparator matches when (bytes Op Value) has a non-zero bit; the lengths must be equal.
type BitComparator struct {
	Value []byte
	Op    BitwiseOp
}

// toProto implements Comparator.
func (c BitComparator) toProto() (*pb.Comparator, error) {
	if c.Op < BitAnd || c.Op > BitXor {
		return nil, invalid("BitComparator: unknown bitwise op %d", c.Op)
	}
	return marshalComparator("BitComparator", &pb.BitComparator{
		Comparable: &pb.ByteArrayComparable{Value: c.Value},
		BitwiseOp:  pb.BitComparator_BitwiseOp(c.Op).Enum(),
	})
}

// Java regular expression flags (java.util.regex.Pattern) for RegexStringComparator.
const (
	RegexCaseInsensitive int32 = 0x02
	RegexMultiline       int32 = 0x08
	RegexDotAll          int32 = 0x20
)

// RegexStringComparator matches the bytes, decoded with Charset (default UTF-8), against a Java
// regular expression. Engine is "JAVA" (default) or "JONI".
type RegexStringComparator struct {
	Pattern string
	Flags   int32
	Charset string
	Engine  string
}

// toProto implements Comparator.
func (c RegexStringComparator) toProto() (*pb.Comparator, error) {
	charset, engine := c.Charset, c.Engine
	if charset == "" {
		charset = "UTF-8"
	}
	if engine == "" {
		engine = "JAVA"
	}
	if engine != "JAVA" && engine != "JONI" {
		return nil, invalid("RegexStringComparator: unknown engine %q (JAVA or JONI)", engine)
	}
	return marshalComparator("RegexStringComparator", &pb.RegexStringComparator{
		Pattern: &c.Pattern, PatternFlags: &c.Flags, Charset: &charset, Engine: &engine,
	})
}

// SubstringComparator matches values containing Substr, ignoring case.
type SubstringComparator struct{ Substr string }

// toProto implements Comparator.
func (c SubstringComparator) toProto() (*pb.Comparator, error) {
	// The Java constructor lower-cases the operand; do the same so both sides agree.
	s := strings.ToLower(c.Substr)
	return marshalComparator("SubstringComparator", &pb.SubstringComparator{Substr: &s})
}
