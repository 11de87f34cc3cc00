package hrpc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

func BenchmarkEncodeGet(b *testing.B) {
	get, err := NewGet("table", []byte("row-0000001"), Families([]byte("f")))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		msg, _, err := getW(get).Marshal(regionName, nil)
		if err != nil {
			b.Fatal(err)
		}
		buf, err = proto.MarshalOptions{}.MarshalAppend(buf[:0], msg)
		if err != nil {
			b.Fatal(err)
		}
		getW(get).Recycle(msg) // as the client does once the request is encoded
	}
}

func BenchmarkEncodePut(b *testing.B) {
	value := bytes.Repeat([]byte("v"), 100)
	f := []byte("f")
	put, err := NewPut("table", []byte("row-0000001"),
		Value(f, []byte("a"), value), Value(f, []byte("b"), value), Value(f, []byte("c"), value))
	if err != nil {
		b.Fatal(err)
	}
	// reused: a cellblock buffer kept between calls; client: none, as Client.Put calls Marshal.
	for _, reuse := range []bool{true, false} {
		name := map[bool]string{true: "reused", false: "client"}[reuse]
		b.Run(name, func(b *testing.B) {
			buf := make([]byte, 0, 256)
			cells := make([]byte, 0, 1024)
			b.ReportAllocs()
			for b.Loop() {
				in := cells[:0]
				if !reuse {
					in = nil
				}
				msg, cb, err := mutW(put).Marshal(regionName, in)
				if err != nil {
					b.Fatal(err)
				}
				cells = cb
				buf, err = proto.MarshalOptions{}.MarshalAppend(buf[:0], msg)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(buf) + len(cells)))
		})
	}
}

func BenchmarkDecodeGetResult(b *testing.B) {
	cells := testCells(10)
	block := encodeCells(cells)
	get, _ := NewGet("table", []byte("row"))
	resp := &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: ptr(int32(10))}}
	wire, _ := proto.Marshal(resp)
	b.SetBytes(int64(len(block) + len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		r := getW(get).NewResponse() // merged into, as region does
		if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(wire, r); err != nil {
			b.Fatal(err)
		}
		res, err := get.decode(r, block)
		if err != nil || len(res.Cells) != 10 {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckGetResponse is the integrity check a Get's response passes before it is
// decoded (check.go), on the response of BenchmarkDecodeGetResult: its cost on top of the
// decode.
func BenchmarkCheckGetResponse(b *testing.B) {
	cells := testCells(10)
	block := encodeCells(cells)
	get, _ := NewGet("table", cells[0].Row)
	resp := &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: ptr(int32(10))}}
	b.SetBytes(int64(len(block)))
	b.ReportAllocs()
	for b.Loop() {
		if err := getW(get).CheckResponse(resp, block); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeScanResponse(b *testing.B) {
	const rows = 100
	var block []byte
	resp := &pb.ScanResponse{ScannerId: ptr(uint64(7)), MoreResults: ptr(true), MoreResultsInRegion: ptr(true)}
	for i := range rows {
		for j := range 3 {
			c := Cell{Row: []byte(fmt.Sprintf("row-%07d", i)), Family: []byte("f"), Qualifier: []byte{byte('a' + j)},
				Timestamp: 1700000000000, Type: CellTypePut, Value: bytes.Repeat([]byte("v"), 100)}
			block = appendCell(block, &c)
		}
		resp.CellsPerResult = append(resp.CellsPerResult, 3)
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, false)
	}
	wire, _ := proto.Marshal(resp)
	b.SetBytes(int64(len(block) + len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		r := new(pb.ScanResponse)
		if err := proto.Unmarshal(wire, r); err != nil {
			b.Fatal(err)
		}
		results, err := appendScanResults(nil, r, block)
		if err != nil || len(results) != rows {
			b.Fatal(err)
		}
	}
}

func BenchmarkCellReader(b *testing.B) {
	block := encodeCells(testCells(100))
	b.SetBytes(int64(len(block)))
	b.ReportAllocs()
	var r wire.CellReader
	var c Cell
	for b.Loop() {
		r.Reset(block)
		for r.Remaining() > 0 {
			if err := readCell(&r, &c); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// sink keeps what a constructor benchmark builds, so the compiler cannot drop it.
var sink any

// benchBuild is a sub-benchmark of building a request with build, its result kept in sink (on
// the heap, as a caller's request is).
func benchBuild[T any](b *testing.B, name string, build func() (T, error)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := build()
			if err != nil {
				b.Fatal(err)
			}
			sink = v
		}
	})
}

// BenchmarkNewMutation: building a mutation, as a caller does once per write.
func BenchmarkNewMutation(b *testing.B) {
	table, row, f := "table", []byte("row-0000001"), []byte("f")
	value := bytes.Repeat([]byte("v"), 100)
	qa, qb, qc := []byte("a"), []byte("b"), []byte("c")
	benchBuild(b, "Put1", func() (*Put, error) { return NewPut(table, row, Value(f, qa, value)) })
	benchBuild(b, "Put3", func() (*Put, error) {
		return NewPut(table, row, Value(f, qa, value), Value(f, qb, value), Value(f, qc, value))
	})
	benchBuild(b, "DeleteRow", func() (*Delete, error) { return NewDelete(table, row) })
	benchBuild(b, "Increment", func() (*Increment, error) { return NewIncrement(table, row, Amount(f, qa, 1)) })
}

// BenchmarkNewGet: building a Get of a whole row and of one family.
func BenchmarkNewGet(b *testing.B) {
	table, row, f := "table", []byte("row-0000001"), []byte("f")
	benchBuild(b, "row", func() (*Get, error) { return NewGet(table, row) })
	benchBuild(b, "family", func() (*Get, error) { return NewGet(table, row, Families(f)) })
}
