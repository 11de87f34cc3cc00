package hrpc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

var regionName = []byte("t,,1700000000000.0123456789abcdef0123456789abcdef.")

func decodeAll(t *testing.T, block []byte) []Cell {
	t.Helper()
	var out []Cell
	r := wire.NewCellReader(block)
	for r.Remaining() > 0 {
		var c Cell
		if err := readCell(r, &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestPutMarshal(t *testing.T) {
	f := []byte("f")
	put, err := NewPut("t", []byte("row"),
		Value(f, []byte("b"), []byte("2")),
		ValueAt(f, []byte("a"), 7, []byte("1")),
		Value(f, []byte("c"), nil),
		Timestamp(42), WithDurability(SkipWAL), Attribute("k", []byte("x")))
	if err != nil {
		t.Fatal(err)
	}
	prefix := []byte("keep")
	msg, block, err := mutW(put).Marshal(regionName, prefix)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(block, prefix) {
		t.Fatal("Marshal did not append to the given cellblock")
	}
	want := &pb.MutateRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: regionName},
		Mutation: &pb.MutationProto{
			Row: []byte("row"), MutateType: pb.MutationProto_PUT.Enum(), Timestamp: ptr(uint64(42)),
			Durability: pb.MutationProto_SKIP_WAL.Enum(), AssociatedCellCount: ptr(int32(3)),
			Attribute: []*pb.NameBytesPair{{Name: ptr("k"), Value: []byte("x")}},
		},
	}
	if !proto.Equal(msg, want) {
		t.Fatalf("request\n %v\nwant\n %v", msg, want)
	}
	cells := decodeAll(t, block[len(prefix):])
	// The user's order is kept: b, a, c.
	wantCells := []Cell{
		{Row: []byte("row"), Family: f, Qualifier: []byte("b"), Timestamp: 42, Type: CellTypePut, Value: []byte("2")},
		{Row: []byte("row"), Family: f, Qualifier: []byte("a"), Timestamp: 7, Type: CellTypePut, Value: []byte("1")},
		{Row: []byte("row"), Family: f, Qualifier: []byte("c"), Timestamp: 42, Type: CellTypePut, Value: []byte{}},
	}
	if len(cells) != len(wantCells) {
		t.Fatalf("%d cells, want %d", len(cells), len(wantCells))
	}
	for i := range cells {
		if !cellEqual(cells[i], wantCells[i]) {
			t.Errorf("cell %d = %+v, want %+v", i, cells[i], wantCells[i])
		}
	}
}

func TestDeleteCells(t *testing.T) {
	f, q := []byte("f"), []byte("q")
	del, err := NewDelete("t", []byte("r"),
		DeleteColumn(f, q), DeleteColumnVersion(f, q, 5), DeleteLatestVersion(f, q),
		DeleteFamily(f), DeleteFamilyVersion(f, 9))
	if err != nil {
		t.Fatal(err)
	}
	msg, block, _ := mutW(del).Marshal(regionName, nil)
	m := msg.(*pb.MutateRequest).Mutation
	if m.GetMutateType() != pb.MutationProto_DELETE || m.GetAssociatedCellCount() != 5 || m.GetTimestamp() != LatestTimestamp {
		t.Fatalf("mutation %v", m)
	}
	want := []struct {
		typ CellType
		ts  uint64
		q   string
	}{
		{CellTypeDeleteColumn, LatestTimestamp, "q"},
		{CellTypeDelete, 5, "q"},
		{CellTypeDelete, LatestTimestamp, "q"},
		{CellTypeDeleteFamily, LatestTimestamp, ""},
		{CellTypeDeleteFamilyVersion, 9, ""},
	}
	cells := decodeAll(t, block)
	for i, w := range want {
		c := cells[i]
		if c.Type != w.typ || c.Timestamp != w.ts || string(c.Qualifier) != w.q || len(c.Value) != 0 {
			t.Errorf("cell %d = %+v, want %+v", i, c, w)
		}
	}

	row, err := NewDelete("t", []byte("r"), Timestamp(100))
	if err != nil {
		t.Fatal(err)
	}
	msg, block, _ = mutW(row).Marshal(regionName, nil)
	m = msg.(*pb.MutateRequest).Mutation
	if len(block) != 0 || m.AssociatedCellCount != nil || m.GetTimestamp() != 100 {
		t.Fatalf("whole-row delete: %v with %d cell bytes", m, len(block))
	}
}

func TestIncrementAndAppend(t *testing.T) {
	f := []byte("f")
	inc, err := NewIncrement("t", []byte("r"), Amount(f, []byte("n"), -3), TimeRange(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	inc2, _ := NewIncrement("t", []byte("r"), Amount(f, []byte("n"), 1))
	if mutW(inc).Nonce() == 0 || mutW(inc).Nonce() == mutW(inc2).Nonce() {
		t.Fatalf("nonces %d and %d", mutW(inc).Nonce(), mutW(inc2).Nonce())
	}
	msg, block, _ := mutW(inc).Marshal(regionName, nil)
	m := msg.(*pb.MutateRequest).Mutation
	if m.GetMutateType() != pb.MutationProto_INCREMENT || m.GetNonce() != mutW(inc).Nonce() ||
		m.GetTimeRange().GetFrom() != 1 || m.GetTimeRange().GetTo() != 2 {
		t.Fatalf("mutation %v", m)
	}
	// A retry of the same request carries the same nonce.
	again, _, _ := mutW(inc).Marshal(regionName, nil)
	if again.(*pb.MutateRequest).Mutation.GetNonce() != mutW(inc).Nonce() {
		t.Fatal("nonce changed between marshals of one request")
	}
	// Deltas travel in the message, not in a cellblock (see Mutation.deltaColumns).
	if len(block) != 0 || m.AssociatedCellCount != nil || len(m.ColumnValue) != 1 {
		t.Fatalf("increment sent %d cellblock bytes, mutation %v", len(block), m)
	}
	cv := m.ColumnValue[0]
	if string(cv.Family) != "f" || len(cv.QualifierValue) != 1 || string(cv.QualifierValue[0].Qualifier) != "n" ||
		int64(binary.BigEndian.Uint64(cv.QualifierValue[0].Value)) != -3 || cv.QualifierValue[0].Timestamp != nil {
		t.Fatalf("increment column %v", cv)
	}

	g := []byte("g")
	app, err := NewAppend("t", []byte("r"), Value(f, []byte("s"), []byte("tail")),
		Value(f, []byte("t"), []byte("x")), Value(g, []byte("u"), nil), Value(f, []byte("v"), []byte("y")))
	if err != nil {
		t.Fatal(err)
	}
	msg, block, _ = mutW(app).Marshal(regionName, nil)
	m = msg.(*pb.MutateRequest).Mutation
	if m.GetMutateType() != pb.MutationProto_APPEND || m.GetNonce() == 0 || len(block) != 0 {
		t.Fatalf("append %v, %d cellblock bytes", m, len(block))
	}
	// Runs of one family share a column value; the order given is kept.
	var got []string
	for _, cv := range m.ColumnValue {
		for _, qv := range cv.QualifierValue {
			got = append(got, string(cv.Family)+":"+string(qv.Qualifier)+"="+string(qv.Value))
		}
	}
	if want := "[f:s=tail f:t=x g:u= f:v=y]"; fmt.Sprint(got) != want || len(m.ColumnValue) != 3 {
		t.Fatalf("append columns %v (%d column values), want %s in 3", got, len(m.ColumnValue), want)
	}
	put := mustPut(t, "t", []byte("r"))
	msg, _, _ = mutW(put).Marshal(regionName, nil)
	if msg.(*pb.MutateRequest).Mutation.Nonce != nil {
		t.Fatal("a Put carries a nonce")
	}
}

// TestMutationTableRow: each kind of mutation names the table and row it was built with, as
// a Mutation too.
func TestMutationTableRow(t *testing.T) {
	f := []byte("f")
	row := []byte("r\x00w")
	put, err := NewPut("ns:t", row, Value(f, f, nil))
	if err != nil {
		t.Fatal(err)
	}
	del, err := NewDelete("ns:t", row)
	if err != nil {
		t.Fatal(err)
	}
	app, err := NewAppend("ns:t", row, Value(f, f, nil))
	if err != nil {
		t.Fatal(err)
	}
	inc, err := NewIncrement("ns:t", row, Amount(f, f, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Mutation{put, del, app, inc} {
		if m.Table() != "ns:t" || !bytes.Equal(m.Row(), row) {
			t.Errorf("%T: table %q, row %q; want \"ns:t\", %q", m, m.Table(), m.Row(), row)
		}
	}
}

func TestMutationAction(t *testing.T) {
	put := mustPut(t, "t", []byte("r"))
	a, block, err := mutW(put).Action(7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.GetIndex() != 7 || a.Mutation.GetAssociatedCellCount() != 1 || a.Get != nil {
		t.Fatalf("action %v", a)
	}
	if len(decodeAll(t, block)) != 1 {
		t.Fatal("action cells")
	}
}

func TestGetMarshal(t *testing.T) {
	f, g := []byte("f"), []byte("g")
	get, err := NewGet("t", []byte("r"),
		Families(g), Columns(f, []byte("b"), []byte("a")), MaxVersions(3), TimeRange(10, 20),
		WithFilter(KeyOnlyFilter{}), NoBlockCache(), MaxResultsPerColumnFamily(4), ResultOffsetPerColumnFamily(1),
		ExistsOnly())
	if err != nil {
		t.Fatal(err)
	}
	msg, block, err := getW(get).Marshal(regionName, nil)
	if err != nil || block != nil {
		t.Fatal(err, block)
	}
	kof, _ := KeyOnlyFilter{}.toProto()
	want := &pb.GetRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: regionName},
		Get: &pb.Get{
			Row:           []byte("r"),
			Column:        []*pb.Column{{Family: g}, {Family: f, Qualifier: [][]byte{[]byte("b"), []byte("a")}}},
			Filter:        kof,
			TimeRange:     &pb.TimeRange{From: ptr(uint64(10)), To: ptr(uint64(20))},
			MaxVersions:   ptr(uint32(3)),
			CacheBlocks:   ptr(false),
			StoreLimit:    ptr(uint32(4)),
			StoreOffset:   ptr(uint32(1)),
			ExistenceOnly: ptr(true),
		},
	}
	if !proto.Equal(msg, want) {
		t.Fatalf("request\n %v\nwant\n %v", msg, want)
	}
	a, _, _ := getW(get).Action(2, nil)
	if a.GetIndex() != 2 || !proto.Equal(a.Get, want.Get) {
		t.Fatalf("action %v", a)
	}
	// Columns after Families narrows the family; Families after Columns widens it again.
	g2, _ := NewGet("t", []byte("r"), Families(f), Columns(f, []byte("x")), Families(g), Families(g))
	if cols := g2.proto().Column; len(cols) != 2 || len(cols[0].Qualifier) != 1 || len(cols[1].Qualifier) != 0 {
		t.Fatalf("columns %v", cols)
	}
}

func TestScanProto(t *testing.T) {
	s, err := NewScan("t", StartRow([]byte("a")), StopRow([]byte("m")), Limit(5), NumberOfRows(10),
		MaxResultSize(1000), AllowPartialResults(), BatchSize(3), MaxVersions(2), Families([]byte("f")))
	if err != nil {
		t.Fatal(err)
	}
	want := &pb.Scan{
		Column:              []*pb.Column{{Family: []byte("f")}},
		StartRow:            []byte("a"),
		StopRow:             []byte("m"),
		MaxVersions:         ptr(uint32(2)),
		BatchSize:           ptr(uint32(3)),
		MaxResultSize:       ptr(uint64(1000)),
		Caching:             ptr(uint32(10)),
		AllowPartialResults: ptr(true),
	}
	if got := s.proto(); !proto.Equal(got, want) {
		t.Fatalf("scan\n %v\nwant\n %v", got, want)
	}
	if scanW(s).Limit() != 5 || scanW(s).NumberOfRows() != 10 || s.maxResultSize != 1000 || !scanW(s).AllowPartialResults() || scanW(s).BatchSize() != 3 {
		t.Fatal("accessors")
	}
	d, _ := NewScan("t")
	if scanW(d).NumberOfRows() != DefaultNumberOfRows || d.maxResultSize != DefaultMaxResultSize || !d.includeStartRow || d.includeStopRow {
		t.Fatal("defaults")
	}
	if p := d.proto(); p.StartRow != nil || p.StopRow != nil || p.Reversed != nil {
		t.Fatalf("default scan %v", p)
	}
}

func TestScanPrefix(t *testing.T) {
	cases := []struct {
		prefix, start, stop []byte
	}{
		{[]byte("ab"), []byte("ab"), []byte("ac")},
		{[]byte{'a', 0xff}, []byte{'a', 0xff}, []byte("b")},
		{[]byte{0xff, 0xff}, []byte{0xff, 0xff}, nil},
		{[]byte{}, []byte{}, nil},
	}
	for _, tc := range cases {
		s, err := NewScan("t", Prefix(tc.prefix))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(scanW(s).StartRow(), tc.start) || !bytes.Equal(s.stopRow, tc.stop) {
			t.Errorf("prefix %q: start %q stop %q, want %q %q", tc.prefix, scanW(s).StartRow(), s.stopRow, tc.start, tc.stop)
		}
	}
	r, err := NewScan("t", Prefix([]byte("ab")), Reversed())
	if err != nil {
		t.Fatal(err)
	}
	p := r.proto()
	if string(p.StartRow) != "ac" || p.GetIncludeStartRow() || string(p.StopRow) != "ab" || !p.GetIncludeStopRow() || !p.GetReversed() {
		t.Fatalf("reversed prefix scan %v", p)
	}
}

func TestCheckAndMutateMarshal(t *testing.T) {
	f, q := []byte("f"), []byte("q")
	put := mustPut(t, "t", []byte("r"))
	cam, err := NewCheckAndMutate(IfValue(f, q, Less, []byte("x")).InTimeRange(0, 9), put)
	if err != nil {
		t.Fatal(err)
	}
	if camW(cam).Method() != "Mutate" {
		t.Fatal(camW(cam).Method())
	}
	msg, block, _ := camW(cam).Marshal(regionName, nil)
	req := msg.(*pb.MutateRequest)
	wantCond := &pb.Condition{Row: []byte("r"), Family: f, Qualifier: q, CompareType: pb.CompareType_LESS.Enum(),
		Comparator: binaryComparatorProto([]byte("x")), TimeRange: &pb.TimeRange{From: ptr(uint64(0)), To: ptr(uint64(9))}}
	if !proto.Equal(req.Condition, wantCond) || req.Mutation.GetAssociatedCellCount() != 1 || len(decodeAll(t, block)) != 1 {
		t.Fatalf("request %v", req)
	}
	resp := camW(cam).NewResponse().(*pb.MutateResponse)
	resp.Processed = ptr(true)
	if ok, _, err := cam.decode(resp, nil); !ok || err != nil {
		t.Fatal(ok, err)
	}

	del, _ := NewDelete("t", []byte("r"), DeleteColumn(f, q))
	rm, _ := NewRowMutations([]Mutation{put, del})
	cam, err = NewCheckAndMutateRow(IfFilter(ValueFilter{Op: Equal, Comparator: BinaryComparator{Value: []byte("v")}}), rm)
	if err != nil {
		t.Fatal(err)
	}
	msg, block, _ = camW(cam).Marshal(regionName, nil)
	multi := msg.(*pb.MultiRequest)
	ra := multi.RegionAction[0]
	if camW(cam).Method() != "Multi" || len(multi.RegionAction) != 1 || !ra.GetAtomic() || ra.Condition.GetFilter() == nil ||
		len(ra.Action) != 2 || ra.Action[1].Mutation.GetMutateType() != pb.MutationProto_DELETE || len(decodeAll(t, block)) != 2 {
		t.Fatalf("request %v", multi)
	}
	mresp := &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{Processed: ptr(false)}}}
	if ok, _, err := cam.decode(mresp, nil); ok || err != nil {
		t.Fatal(ok, err)
	}
	eresp := &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{
		Exception: &pb.NameBytesPair{Name: ptr("org.apache.hadoop.hbase.NotServingRegionException"), Value: []byte("gone\n\tat x")}}}}
	_, _, err = cam.decode(eresp, nil)
	var ae *hberr.RemoteError
	if !errors.As(err, &ae) || ae.Class != "org.apache.hadoop.hbase.NotServingRegionException" {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "org.apache.hadoop.hbase.NotServingRegionException: gone" {
		t.Fatalf("message %q", err.Error())
	}
}

func TestRowMutationsMarshal(t *testing.T) {
	put := mustPut(t, "t", []byte("r"))
	inc, _ := NewIncrement("t", []byte("r"), Amount([]byte("f"), []byte("n"), 1))
	rm, err := NewRowMutations([]Mutation{put, inc})
	if err != nil {
		t.Fatal(err)
	}
	msg, block, _ := rmW(rm).Marshal(regionName, nil)
	multi := msg.(*pb.MultiRequest)
	ra := multi.RegionAction[0]
	if !ra.GetAtomic() || ra.Condition != nil || len(ra.Action) != 2 || ra.Action[1].Mutation.GetNonce() != mutW(inc).Nonce() {
		t.Fatalf("request %v", multi)
	}
	// The Put's cell in the cellblock, the Increment's in its message (Mutation.deltaColumns).
	incCols := ra.Action[1].Mutation.ColumnValue
	if cells := decodeAll(t, block); len(cells) != 1 || len(incCols) != 1 || string(incCols[0].QualifierValue[0].Qualifier) != "n" {
		t.Fatalf("cellblock %v, increment columns %v", cells, incCols)
	}
	ok := &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{Processed: ptr(true)}}}
	if err := rm.decode(ok, nil); err != nil {
		t.Fatal(err)
	}
	if err := rm.decode(&pb.MultiResponse{}, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("empty response: %v", err)
	}
	if err := rm.decode(&pb.GetResponse{}, nil); !errors.Is(err, wire.ErrBadResponse) {
		t.Fatalf("wrong type: %v", err)
	}
}
