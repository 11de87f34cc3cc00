package fakehbase

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// comparator is a ByteArrayComparable: compareTo compares the comparator's value with a
// cell's bytes (row, family, qualifier or value), in that order, as HBase does.
type comparator interface {
	compareTo(v []byte) int
}

// The compare operators of filters and conditions.
const (
	opLess           = pb.CompareType_LESS
	opLessOrEqual    = pb.CompareType_LESS_OR_EQUAL
	opEqual          = pb.CompareType_EQUAL
	opNotEqual       = pb.CompareType_NOT_EQUAL
	opGreaterOrEqual = pb.CompareType_GREATER_OR_EQUAL
	opGreater        = pb.CompareType_GREATER
	opNoOp           = pb.CompareType_NO_OP
)

// filterOut is CompareFilter.compare: whether a cell whose comparison with the comparator gave
// cmp is filtered OUT under op. cmp is comparator-first, so LESS keeps cells below the value.
func filterOut(op pb.CompareType, cmp int) bool {
	switch op {
	case opLess:
		return cmp <= 0
	case opLessOrEqual:
		return cmp < 0
	case opEqual:
		return cmp != 0
	case opNotEqual:
		return cmp == 0
	case opGreaterOrEqual:
		return cmp > 0
	case opGreater:
		return cmp >= 0
	}
	return true // NO_OP filters everything out
}

func decodeComparator(p *pb.Comparator, ec *evalCtx) (comparator, error) {
	if p == nil {
		return nil, badRequest("filter without a comparator")
	}
	name := strings.TrimPrefix(p.GetName(), "org.apache.hadoop.hbase.filter.")
	b := p.GetSerializedComparator()
	switch name {
	case "BinaryComparator":
		var m pb.BinaryComparator
		if err := unmarshal(b, &m, name); err != nil {
			return nil, err
		}
		return binaryComparator(m.GetComparable().GetValue()), nil
	case "BinaryPrefixComparator":
		var m pb.BinaryPrefixComparator
		if err := unmarshal(b, &m, name); err != nil {
			return nil, err
		}
		return prefixComparator(m.GetComparable().GetValue()), nil
	case "LongComparator":
		var m pb.LongComparator
		if err := unmarshal(b, &m, name); err != nil {
			return nil, err
		}
		v := m.GetComparable().GetValue()
		if len(v) != 8 {
			return nil, badRequest("LongComparator of %d bytes", len(v))
		}
		return longComparator{value: int64(binary.BigEndian.Uint64(v)), ec: ec}, nil
	case "NullComparator":
		return nullComparator{}, nil
	case "BitComparator":
		var m pb.BitComparator
		if err := unmarshal(b, &m, name); err != nil {
			return nil, err
		}
		return bitComparator{value: m.GetComparable().GetValue(), op: m.GetBitwiseOp()}, nil
	case "SubstringComparator":
		var m pb.SubstringComparator
		if err := unmarshal(b, &m, name); err != nil {
			return nil, err
		}
		return substringComparator(strings.ToLower(m.GetSubstr())), nil
	case "RegexStringComparator":
		var m pb.RegexStringComparator
		if err := unmarshal(b, &m, name); err != nil {
			return nil, err
		}
		return newRegexComparator(&m)
	}
	return nil, unsupported("comparator %s", p.GetName())
}

func unmarshal(b []byte, m proto.Message, what string) error {
	if err := proto.Unmarshal(b, m); err != nil {
		return badRequest("cannot read %s: %v", what, err)
	}
	return nil
}

type binaryComparator []byte

func (c binaryComparator) compareTo(v []byte) int { return bytes.Compare(c, v) }

// prefixComparator compares its value with as many first bytes of v.
type prefixComparator []byte

func (c prefixComparator) compareTo(v []byte) int {
	return bytes.Compare(c, v[:min(len(c), len(v))])
}

type longComparator struct {
	value int64
	ec    *evalCtx
}

func (c longComparator) compareTo(v []byte) int {
	if len(v) != 8 {
		// HBase's Bytes.toLong throws on a value that is not 8 bytes: the call fails.
		c.ec.fail(badRequest("LongComparator: a value of %d bytes is not a long", len(v)))
		return 1
	}
	that := int64(binary.BigEndian.Uint64(v))
	switch {
	case c.value < that:
		return -1
	case c.value > that:
		return 1
	}
	return 0
}

// nullComparator matches nothing a cell can hold: a cell's bytes are never null.
type nullComparator struct{}

func (nullComparator) compareTo([]byte) int { return 1 }

type bitComparator struct {
	value []byte
	op    pb.BitComparator_BitwiseOp
}

// compareTo is 0 when the operation of the value and v has a bit set (v of the value's
// length only), as HBase's BitComparator is.
func (c bitComparator) compareTo(v []byte) int {
	if len(v) != len(c.value) {
		return 1
	}
	b := 0
	for i := len(v) - 1; i >= 0 && b == 0; i-- {
		switch c.op {
		case pb.BitComparator_AND:
			b = int(c.value[i] & v[i])
		case pb.BitComparator_OR:
			b = int(c.value[i] | v[i])
		case pb.BitComparator_XOR:
			b = int(c.value[i] ^ v[i])
		}
	}
	if b == 0 {
		return 1
	}
	return 0
}

// substringComparator is 0 when v, lower-cased, contains the (lower-cased) substring.
type substringComparator string

func (c substringComparator) compareTo(v []byte) int {
	if strings.Contains(strings.ToLower(string(v)), string(c)) {
		return 0
	}
	return 1
}

// Java's Pattern flags that RE2 has an equivalent of.
const (
	javaCaseInsensitive = 0x02
	javaMultiline       = 0x08
	javaDotAll          = 0x20
)

type regexComparator struct{ re *regexp.Regexp }

func newRegexComparator(m *pb.RegexStringComparator) (comparator, error) {
	if cs := strings.ToUpper(m.GetCharset()); cs != "UTF-8" && cs != "UTF8" {
		return nil, unsupported("RegexStringComparator charset %q", m.GetCharset())
	}
	flags := m.GetPatternFlags()
	if flags&^(javaCaseInsensitive|javaMultiline|javaDotAll) != 0 {
		return nil, unsupported("RegexStringComparator pattern flags %#x", flags)
	}
	prefix := ""
	if flags&javaCaseInsensitive != 0 {
		prefix += "i"
	}
	if flags&javaMultiline != 0 {
		prefix += "m"
	}
	if flags&javaDotAll != 0 {
		prefix += "s"
	}
	expr := m.GetPattern()
	if prefix != "" {
		expr = "(?" + prefix + ")" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, unsupported("regular expression %q (the fake has Go's RE2 syntax: %v)", m.GetPattern(), err)
	}
	return regexComparator{re}, nil
}

// compareTo is 0 when the pattern is found in v (Matcher.find).
func (c regexComparator) compareTo(v []byte) int {
	if c.re.Match(v) {
		return 0
	}
	return 1
}
