package parallelscan

import (
	"errors"
	"reflect"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func TestParallelTokenRoundTrip(t *testing.T) {
	ranges := []keyRange{
		{start: nil, stop: []byte(",")},
		{start: []byte("\x00,\x00"), after: true, stop: []byte("m")},
		{start: []byte{0xff, 0x00}, after: true, stop: nil},
	}
	tok := encodeToken("ns:t", ranges)
	table, got, err := decodeToken(tok)
	if err != nil {
		t.Fatal(err)
	}
	norm := func(rs []keyRange) []keyRange {
		for i := range rs {
			if len(rs[i].start) == 0 {
				rs[i].start = nil
			}
			if len(rs[i].stop) == 0 {
				rs[i].stop = nil
			}
		}
		return rs
	}
	if table != "ns:t" || !reflect.DeepEqual(norm(got), norm(ranges)) {
		t.Fatalf("decoded %q %+v, want %+v", table, got, ranges)
	}
	// Every change of a byte and every cut is refused, never misread.
	for i := range tok {
		bad := append([]byte(nil), tok...)
		bad[i] ^= 0x40
		if _, _, err := decodeToken(bad); !errors.Is(err, hberr.ErrBadRequest) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
		if _, _, err := decodeToken(tok[:i]); !errors.Is(err, hberr.ErrBadRequest) {
			t.Fatalf("cut at %d: %v", i, err)
		}
	}
}

func FuzzParallelToken(f *testing.F) {
	f.Add(encodeToken("t", []keyRange{{start: []byte("a"), stop: []byte("b")}}))
	f.Add([]byte("HBPS\x01"))
	f.Fuzz(func(t *testing.T, tok []byte) {
		table, ranges, err := decodeToken(tok)
		if err != nil {
			if !errors.Is(err, hberr.ErrBadRequest) {
				t.Fatalf("error not a bad request: %v", err)
			}
			return
		}
		again := encodeToken(table, ranges)
		if string(again) != string(tok) {
			t.Fatalf("token %q decodes and encodes to %q", tok, again)
		}
	})
}

func TestSplitRange(t *testing.T) {
	bounds := [][]byte{[]byte(","), []byte("m"), []byte("t")}
	got := splitRange(keyRange{start: []byte("a"), after: true, stop: []byte("s")}, bounds)
	want := []keyRange{{start: []byte("a"), after: true, stop: []byte("m")}, {start: []byte("m"), stop: []byte("s")}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("splitRange = %+v, want %+v", got, want)
	}
	// A range starting at a boundary is not cut there; one to the table's end is cut at
	// every boundary after its start.
	got = splitRange(keyRange{start: []byte("m")}, bounds)
	want = []keyRange{{start: []byte("m"), stop: []byte("t")}, {start: []byte("t")}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("splitRange = %+v, want %+v", got, want)
	}
}

// A cursor result (the server read up to its row and found nothing to return) moves its
// range's start in the token to the cursor's row, so a sparse scan resumed does not read again
// what the server went through; a row returned moves it past the row, and a cursor behind
// the range's start moves nothing.
func TestCursorMovesToken(t *testing.T) {
	p := &Scanner{table: "t", started: true}
	pr := &parallelRange{scan: keyRange{start: []byte("a"), stop: []byte("m")}}
	pr.left = pr.scan
	p.ranges = []*parallelRange{pr}
	p.returned(pr, &hrpc.Result{Cursor: []byte("c")})
	check := func(want keyRange) {
		t.Helper()
		_, ranges, err := decodeToken(p.Token())
		if err != nil {
			t.Fatal(err)
		}
		if len(ranges) != 1 || string(ranges[0].start) != string(want.start) || ranges[0].after != want.after ||
			string(ranges[0].stop) != string(want.stop) {
			t.Fatalf("token ranges %+v; want [%+v]", ranges, want)
		}
	}
	check(keyRange{start: []byte("c"), stop: []byte("m")})
	p.returned(pr, &hrpc.Result{Cells: []hrpc.Cell{{Row: []byte("d")}}})
	check(keyRange{start: []byte("d"), after: true, stop: []byte("m")})
	p.returned(pr, &hrpc.Result{Cursor: []byte("b")})
	check(keyRange{start: []byte("d"), after: true, stop: []byte("m")})
}
