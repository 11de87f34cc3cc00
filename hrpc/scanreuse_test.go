package hrpc

import (
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// TestScanProtoIntoReused: a wire.ScanProtoBuffer used for one scan after another holds only the
// last one's message.
func TestScanProtoIntoReused(t *testing.T) {
	full, err := NewScan("t", StartRow([]byte("z")), StopRow([]byte("a")), Reversed(), NumberOfRows(10),
		MaxResultSize(1000), AllowPartialResults(), BatchSize(3), MaxVersions(2), Families([]byte("f")),
		NoBlockCache(), MaxResultsPerColumnFamily(4), ResultOffsetPerColumnFamily(1))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewScan("t", StartRow([]byte("b")))
	if err != nil {
		t.Fatal(err)
	}
	var b wire.ScanProtoBuffer
	for _, s := range []*Scan{full, plain, full, plain} {
		if got, want := scanW(s).ProtoInto(&b), s.proto(); !proto.Equal(got, want) {
			t.Fatalf("reused buffer: %v, want %v", got, want)
		}
	}
	if a := testing.AllocsPerRun(100, func() { scanW(plain).ProtoInto(&b) }); a != 0 {
		t.Errorf("ScanProtoInto allocates %.0f times, want 0", a)
	}
}

// TestAppendScanResults: the results are appended to dst, and are new: none is one that dst
// held (a scanner reuses dst, and the caller keeps the results). Rows of one cell come in one
// block, others in the general layout; both parse alike.
func TestAppendScanResults(t *testing.T) {
	cells := testCells(4)
	for _, counts := range [][]uint32{{1, 1, 1, 1}, {1, 2, 1}, {1, 0, 3}} {
		resp := &pb.ScanResponse{CellsPerResult: counts}
		first, err := appendScanResults(nil, resp, encodeCells(cells))
		if err != nil {
			t.Fatal(err)
		}
		old := &Result{}
		dst := append(make([]*Result, 0, 8), old)
		got, err := appendScanResults(dst, resp, encodeCells(cells))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1+len(counts) || got[0] != old {
			t.Fatalf("counts %v: %d results, first %p; want %d, %p", counts, len(got), got[0], 1+len(counts), old)
		}
		k := 0
		for i, r := range got[1:] {
			if r == first[i] || len(r.Cells) != int(counts[i]) {
				t.Fatalf("counts %v: result %d is %+v (same as before: %v)", counts, i, r, r == first[i])
			}
			for _, c := range r.Cells {
				if !cellEqual(c, cells[k]) {
					t.Fatalf("counts %v: cell %d is %+v, want %+v", counts, k, c, cells[k])
				}
				k++
			}
			// Appending to one result's cells must not overwrite the next result's.
			_ = append(r.Cells, Cell{Row: []byte("x")})
		}
		for i, r := range got[1:] {
			if len(r.Cells) > 0 && string(r.Cells[0].Row) == "x" {
				t.Fatalf("counts %v: result %d shares its cells' capacity", counts, i)
			}
		}
	}
}
