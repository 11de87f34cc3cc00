package wire

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// A Put cell written byte by byte from the KeyValue layout in hbase-common KeyValue.java.
var handBuiltPut = []byte{
	0, 0, 0, 25, // kv length: 8 + key 16 + value 1
	0, 0, 0, 16, // key length: 2 + 2 (row) + 1 + 1 (family) + 1 (qualifier) + 8 + 1
	0, 0, 0, 1, // value length
	0, 2, 'r', '1', // row
	1, 'f', // family
	'q',                    // qualifier
	1, 2, 3, 4, 5, 6, 7, 8, // timestamp
	4,   // type Put
	'v', // value
}

func TestAppendCellHandBuilt(t *testing.T) {
	c := Cell{Row: []byte("r1"), Family: []byte("f"), Qualifier: []byte("q"),
		Timestamp: 0x0102030405060708, Type: CellTypePut, Value: []byte("v")}
	got := AppendCell(nil, &c)
	if !bytes.Equal(got, handBuiltPut) {
		t.Fatalf("AppendCell:\n got %v\nwant %v", got, handBuiltPut)
	}
	if CellSize(&c) != len(handBuiltPut) {
		t.Fatalf("CellSize = %d, want %d", CellSize(&c), len(handBuiltPut))
	}
}

func TestAppendCellDeleteFamilyEmptyParts(t *testing.T) {
	// Empty qualifier and value, latest timestamp, DeleteFamily type.
	c := Cell{Row: []byte{0}, Family: []byte("cf"), Timestamp: latestTimestamp, Type: CellTypeDeleteFamily}
	want := []byte{
		0, 0, 0, 23, // 8 + key 15 + value 0
		0, 0, 0, 15, // 2 + 1 + 1 + 2 + 0 + 8 + 1
		0, 0, 0, 0,
		0, 1, 0,
		2, 'c', 'f',
		0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		14,
	}
	if got := AppendCell([]byte{}, &c); !bytes.Equal(got, want) {
		t.Fatalf("AppendCell:\n got %v\nwant %v", got, want)
	}
}

func TestCellReaderHandBuilt(t *testing.T) {
	block := append(append([]byte(nil), handBuiltPut...), handBuiltPut...)
	r := NewCellReader(block)
	for i := 0; i < 2; i++ {
		var c Cell
		if err := r.Next(&c); err != nil {
			t.Fatalf("cell %d: %v", i, err)
		}
		if string(c.Row) != "r1" || string(c.Family) != "f" || string(c.Qualifier) != "q" ||
			c.Timestamp != 0x0102030405060708 || c.Type != CellTypePut || string(c.Value) != "v" {
			t.Fatalf("cell %d decoded as %+v", i, c)
		}
		// Cells alias the block and cannot grow into the next field.
		if cap(c.Row) != len(c.Row) || cap(c.Value) != len(c.Value) {
			t.Fatalf("cell %d: slices not capped: row cap %d value cap %d", i, cap(c.Row), cap(c.Value))
		}
	}
	var c Cell
	if err := r.Next(&c); err != io.EOF {
		t.Fatalf("after last cell: %v, want io.EOF", err)
	}
}

func TestCellRoundTripEveryByte(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	cells := []Cell{
		{Row: all[:], Family: all[1:128], Qualifier: all, Timestamp: 0, Type: CellTypePut, Value: all},
		{Row: []byte{}, Family: []byte("f"), Qualifier: nil, Timestamp: latestTimestamp, Type: CellTypeDeleteColumn, Value: nil},
		{Row: bytes.Repeat([]byte{0xff}, MaxRowLen), Family: bytes.Repeat([]byte{'x'}, MaxFamilyLen), Timestamp: 1, Type: 255, Value: make([]byte, 1<<20)},
	}
	var block []byte
	for i := range cells {
		block = AppendCell(block, &cells[i])
	}
	r := NewCellReader(block)
	for i, want := range cells {
		var got Cell
		if err := r.Next(&got); err != nil {
			t.Fatalf("cell %d: %v", i, err)
		}
		if !cellEqual(got, want) {
			t.Fatalf("cell %d: round trip changed it", i)
		}
	}
	if r.Remaining() != 0 {
		t.Fatalf("%d bytes left", r.Remaining())
	}
}

func cellEqual(a, b Cell) bool {
	return bytes.Equal(a.Row, b.Row) && bytes.Equal(a.Family, b.Family) &&
		bytes.Equal(a.Qualifier, b.Qualifier) && a.Timestamp == b.Timestamp &&
		a.Type == b.Type && bytes.Equal(a.Value, b.Value)
}

func TestCellReaderCorrupt(t *testing.T) {
	mutate := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), handBuiltPut...))
	}
	cases := map[string]struct {
		block []byte
		want  string
	}{
		"short length":       {[]byte{0, 0, 1}, "cannot hold a cell length"},
		"length past end":    {mutate(func(b []byte) []byte { b[3] = 26; return b }), "exceeds"},
		"truncated":          {handBuiltPut[:20], "exceeds"},
		"kv too small":       {[]byte{0, 0, 0, 4, 0, 0, 0, 0}, "shorter than the minimum"},
		"key past kv":        {mutate(func(b []byte) []byte { b[7] = 17; return b }), "exceed cell length"},
		"value past kv":      {mutate(func(b []byte) []byte { b[11] = 2; return b }), "exceed cell length"},
		"key below minimum":  {mutate(func(b []byte) []byte { b[7] = 11; b[11] = 6; return b }), "key length 11"},
		"row past key":       {mutate(func(b []byte) []byte { b[13] = 9; return b }), "row length 9"},
		"family past key":    {mutate(func(b []byte) []byte { b[16] = 3; return b }), "family length 3"},
		"huge lengths":       {mutate(func(b []byte) []byte { copy(b[4:12], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}); return b }), "exceed"},
		"garbage after cell": {append(append([]byte(nil), handBuiltPut...), 1, 2), "cannot hold"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := NewCellReader(tc.block)
			var err error
			for err == nil {
				var c Cell
				err = r.Next(&c)
			}
			if !errors.Is(err, ErrCorruptCellBlock) {
				t.Fatalf("err = %v, want ErrCorruptCellBlock", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func FuzzCellReader(f *testing.F) {
	f.Add(handBuiltPut)
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, block []byte) {
		r := NewCellReader(block)
		var c Cell
		for {
			before := r.off
			err := r.Next(&c)
			if err == io.EOF {
				return
			}
			if err != nil {
				if !errors.Is(err, ErrCorruptCellBlock) {
					t.Fatalf("unexpected error type: %v", err)
				}
				return
			}
			// A decoded cell encodes back to the bytes it came from, except for trailing
			// tag bytes that KeyValueCodec never sends and the reader skips.
			consumed := block[before:r.off]
			enc := AppendCell(nil, &c)
			if len(enc) > len(consumed) || !bytes.Equal(enc[4:], consumed[4:len(enc)]) {
				t.Fatalf("cell %x re-encodes as %x", consumed, enc)
			}
		}
	})
}
