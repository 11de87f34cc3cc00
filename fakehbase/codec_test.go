package fakehbase

import (
	"bytes"
	"testing"
)

func TestCodecRoundTrip(t *testing.T) {
	cells := []kv{
		{row: []byte("r"), family: []byte("f"), qualifier: []byte("q"), ts: 5, typ: typePut, value: []byte("v")},
		{row: []byte{0, 0xff}, family: []byte("fam"), qualifier: nil, ts: latestTS, typ: typeDeleteFamily},
		{row: bytes.Repeat([]byte("x"), 300), family: []byte("g"), qualifier: []byte{}, ts: 0, typ: typePut, value: bytes.Repeat([]byte("y"), 70000)},
	}
	block := appendCells(nil, cells)
	got, err := decodeCells(block)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cells) {
		t.Fatalf("decoded %d cells; want %d", len(got), len(cells))
	}
	for i := range cells {
		a, b := cells[i], got[i]
		if !bytes.Equal(a.row, b.row) || !bytes.Equal(a.family, b.family) || !bytes.Equal(a.qualifier, b.qualifier) ||
			a.ts != b.ts || a.typ != b.typ || !bytes.Equal(a.value, b.value) {
			t.Errorf("cell %d = %+v; want %+v", i, b, a)
		}
	}
	bounds := map[int]bool{}
	for i := range cells {
		bounds[len(appendCells(nil, cells[:i+1]))] = true
	}
	for n := 1; n < len(block); n++ {
		if _, err := decodeCells(block[:n]); (err == nil) != bounds[n] {
			t.Fatalf("a cellblock cut at %d of %d bytes: err %v", n, len(block), err)
		}
	}
}

func FuzzDecodeCells(f *testing.F) {
	f.Add(appendCells(nil, []kv{{row: []byte("r"), family: []byte("f"), qualifier: []byte("q"), ts: 1, typ: typePut, value: []byte("v")}}))
	f.Add([]byte{0, 0, 0, 20, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, block []byte) {
		cells, err := decodeCells(block)
		if err != nil {
			return
		}
		if again := appendCells(nil, cells); len(again) > len(block) {
			t.Fatalf("%d cells re-encode to %d bytes, more than the %d read", len(cells), len(again), len(block))
		}
	})
}
