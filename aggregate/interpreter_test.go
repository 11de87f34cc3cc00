package aggregate

import (
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func TestLongDecode(t *testing.T) {
	for _, v := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64} {
		msg := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(v))
		// A field HBase may add one day comes before it and is skipped.
		msg = append(protowire.AppendString(protowire.AppendTag(nil, 7, protowire.BytesType), "x"), msg...)
		got, err := Long().decode(msg)
		if err != nil || got != v {
			t.Fatalf("Long decode of %d = %d, %v; want %d", v, got, err, v)
		}
	}
	for name, msg := range map[string][]byte{
		"empty":          nil,
		"truncated":      {0x08},
		"wrong type":     protowire.AppendFixed64(protowire.AppendTag(nil, 1, protowire.Fixed64Type), 1),
		"bad tag":        {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"truncated skip": protowire.AppendTag(nil, 2, protowire.BytesType),
	} {
		if _, err := Long().decode(msg); err == nil {
			t.Errorf("Long decode of %s message: no error", name)
		}
	}
}

func TestDoubleDecode(t *testing.T) {
	for _, v := range []float64{0, -1.5, math.Inf(1), math.SmallestNonzeroFloat64} {
		msg := protowire.AppendFixed64(protowire.AppendTag(nil, 1, protowire.Fixed64Type), math.Float64bits(v))
		got, err := Double().decode(msg)
		if err != nil || got != v {
			t.Fatalf("Double decode of %v = %v, %v; want %v", v, got, err, v)
		}
	}
	if _, err := Double().decode(protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1)); err == nil {
		t.Fatal("Double decode of a varint: no error")
	}
}

func TestDoubleCompareIsJavas(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	cases := []struct {
		a, b float64
		want int
	}{
		{1, 2, -1}, {2, 1, 1}, {1, 1, 0},
		{nan, math.Inf(1), 1}, {math.Inf(1), nan, -1}, {nan, nan, 0},
		{negZero, 0, -1}, {0, negZero, 1}, {negZero, negZero, 0},
	}
	for _, c := range cases {
		if got := Double().compare(c.a, c.b); got != c.want {
			t.Errorf("compare(%v, %v) = %d; want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	if n, err := count([][]byte{{0, 0, 0, 0, 0, 0, 1, 2}}, 0); err != nil || n != 258 {
		t.Fatalf("count = %d, %v; want 258", n, err)
	}
	for _, parts := range [][][]byte{nil, {{1, 2}}, {nil}} {
		if _, err := count(parts, 0); err == nil {
			t.Fatalf("count(%v): no error", parts)
		}
	}
}
