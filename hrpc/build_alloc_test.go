package hrpc

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"github.com/go-hbase/hbase/internal/wire"
)

// TestMutationAllocations: a mutation is built in place in what NewPut (NewDelete...)
// allocates: a Put of one cell, with other options or not, and a Delete of a row are one
// allocation; a Put of several cells one more, for their slice.
func TestMutationAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	tb, row, f, v := "t", []byte("r"), []byte("f"), []byte("v")
	cases := []struct {
		name  string
		build func()
		want  float64
	}{
		{"Put of one cell", func() { _, _ = NewPut(tb, row, Value(f, f, v)) }, 1},
		{"Put of one cell and options", func() {
			_, _ = NewPut(tb, row, Timestamp(1), Value(f, f, v), WithDurability(SkipWAL), MaxAttempts(2))
		}, 1},
		{"Put of three cells", func() { _, _ = NewPut(tb, row, Value(f, f, v), Value(f, v, v), ValueAt(f, row, 1, v)) }, 2},
		{"Delete of a row", func() { _, _ = NewDelete(tb, row) }, 1},
		{"Delete of a column", func() { _, _ = NewDelete(tb, row, DeleteColumn(f, f), Timestamp(3)) }, 1},
		{"Append of one value", func() { _, _ = NewAppend(tb, row, Value(f, f, v)) }, 1},
		// Amount's 8-byte value is an allocation of its own.
		{"Increment of one column", func() { _, _ = NewIncrement(tb, row, Amount(f, f, 1)) }, 2},
	}
	for _, c := range cases {
		if got := testing.AllocsPerRun(100, c.build); got != c.want {
			t.Errorf("%s: %v allocations, want %v", c.name, got, c.want)
		}
	}
}

// TestMutationHeapSize: HeapSize counts what the mutation keeps: the allocation it was built in
// (with room for one cell, for a mutation of one), its cells' slice when it has one, whatever
// the options' count predicted, and the bytes of its row and cells.
func TestMutationHeapSize(t *testing.T) {
	tb, row, f, q, v := "t", []byte("row"), []byte("f"), []byte("qq"), []byte("value")
	cellBytes := len(f) + len(q) + len(v)
	cell := int(unsafe.Sizeof(wire.Cell{}))
	put := int(unsafe.Sizeof(Put{}))
	heap := func(m Mutation) int { return mutW(m).HeapSize() }
	cases := []struct {
		name string
		m    Mutation
		want int
	}{
		{"one cell", ok(NewPut(tb, row, Value(f, q, v))), int(unsafe.Sizeof(withCell[Put]{})) + len(row) + cellBytes},
		{"one cell and Timestamp", ok(NewPut(tb, row, Value(f, q, v), Timestamp(1))), int(unsafe.Sizeof(withCell[Put]{})) + len(row) + cellBytes},
		{"three cells", ok(NewPut(tb, row, Value(f, q, v), Value(f, q, v), Value(f, q, v))), put + 3*cell + len(row) + 3*cellBytes},
		{"row Delete", ok(NewDelete(tb, row)), int(unsafe.Sizeof(Delete{})) + len(row)},
		// Options converted to another option type: the count misses or overshoots; the cells'
		// slice is whatever it grew to or was made with.
		{"cells the count missed", ok(NewPut(tb, row, MutationOption(Value(f, q, v)), MutationOption(Value(f, q, v)))),
			put + 2*cell + len(row) + 2*cellBytes},
		{"a cell the count expected", ok(NewPut(tb, row, Value(f, q, v), ValueOption(Timestamp(1)))),
			put + 2*cell + len(row) + cellBytes},
		{"one cell beyond the room for one", ok(NewPut(tb, row, Value(f, q, v), MutationOption(Value(f, q, v)))),
			int(unsafe.Sizeof(withCell[Put]{})) + 2*cell + len(row) + 2*cellBytes},
	}
	for _, c := range cases {
		if got := heap(c.m); got != c.want {
			t.Errorf("%s: HeapSize %d, want %d", c.name, got, c.want)
		}
	}
}

// TestMutationBuiltInPlace: the cells of a mutation built in the room allocated with it, of
// one built with a slice of several cells and of one whose options' count missed are the
// cells given, in order, with the row and timestamps filled in; an option of a Get converted to
// a Put's is ignored, as before, and the Put still encodes.
func TestMutationBuiltInPlace(t *testing.T) {
	tb, row, f := "t", []byte("r"), []byte("f")
	want := func(n int) []wire.Cell {
		var cells []wire.Cell
		for i := range n {
			q := []byte{'a' + byte(i)}
			cells = append(cells, wire.Cell{Row: row, Family: f, Qualifier: q, Timestamp: 7, Type: uint8(CellTypePut), Value: q})
		}
		return cells
	}
	val := func(i int) ValueOption { q := []byte{'a' + byte(i)}; return Value(f, q, q) }
	for _, c := range []struct {
		name string
		p    *Put
		n    int
	}{
		{"one", ok(NewPut(tb, row, val(0), Timestamp(7))), 1},
		{"three", ok(NewPut(tb, row, Timestamp(7), val(0), val(1), val(2))), 3},
		{"missed", ok(NewPut(tb, row, Timestamp(7), val(0), MutationOption(val(1)), MutationOption(val(2)))), 3},
		{"read option", ok(NewPut(tb, row, Timestamp(7), MutationOption(MaxVersions(3)), PutOption(MutationOption(Families(f))), val(0))), 1},
	} {
		got := c.p.cells
		w := want(c.n)
		if len(got) != len(w) {
			t.Fatalf("%s: %d cells, want %d", c.name, len(got), len(w))
		}
		for i := range w {
			g := got[i]
			if !bytes.Equal(g.Row, w[i].Row) || !bytes.Equal(g.Family, w[i].Family) || !bytes.Equal(g.Qualifier, w[i].Qualifier) ||
				g.Timestamp != w[i].Timestamp || g.Type != w[i].Type || !bytes.Equal(g.Value, w[i].Value) {
				t.Errorf("%s: cell %d is %+v, want %+v", c.name, i, g, w[i])
			}
		}
		if c.p.rd != nil {
			t.Errorf("%s: keeps the options of a Get", c.name)
		}
		if _, _, err := mutW(c.p).Marshal([]byte("region"), nil); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestGetAllocations: a Get is built in place too: one allocation for a Get of a row, with
// options that set only values; columns cost their pb.Columns and the slice of them.
func TestGetAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	tb, row, f := "t", []byte("r"), []byte("f")
	cases := []struct {
		name  string
		build func()
		want  float64
	}{
		{"row", func() { _, _ = NewGet(tb, row) }, 1},
		{"row and options", func() {
			_, _ = NewGet(tb, row, MaxVersions(2), NoBlockCache(), ExistsOnly(), Consistency(Timeline), MaxAttempts(3))
		}, 1},
		{"family", func() { _, _ = NewGet(tb, row, Families(f)) }, 3},
	}
	for _, c := range cases {
		if got := testing.AllocsPerRun(100, c.build); got != c.want {
			t.Errorf("%s: %v allocations, want %v", c.name, got, c.want)
		}
	}
}

// TestGetDropsOtherOptions: options of mutations and Scans converted to a Get's option type
// are ignored, as they were, and the Get keeps nothing of them.
func TestGetDropsOtherOptions(t *testing.T) {
	f := []byte("f")
	limit := reflect.ValueOf(Limit(1)).Convert(reflect.TypeFor[ReadOption]()).Interface().(ReadOption)
	g, err := NewGet("t", []byte("r"), ReadOption(Value(f, f, f)), limit, MaxVersions(2), Families(f))
	if err != nil {
		t.Fatal(err)
	}
	if g.cells != nil || g.sc != nil || g.rd != nil {
		t.Errorf("the Get keeps cells %v, scan options %v, read options %p", g.cells, g.sc, g.rd)
	}
	p := g.proto()
	if p.GetMaxVersions() != 2 || len(p.GetColumn()) != 1 || !bytes.Equal(p.GetColumn()[0].GetFamily(), f) {
		t.Errorf("Get %v", p)
	}
}
