package wire

import (
	"bytes"
	"errors"
	"testing"

	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestParseMetaTableState(t *testing.T) {
	table := []byte("ns:t")
	value, err := proto.Marshal(&pb.TableState{State: pb.TableState_DISABLED.Enum()})
	if err != nil {
		t.Fatal(err)
	}
	cell := &Cell{Row: table, Family: metaTableFamily, Qualifier: metaStateQualifier, Timestamp: 1, Value: value}
	inBlock := &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1)}}
	inline := &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: table, Value: value}}}}
	foreign := &Cell{Row: []byte("ns:u"), Family: metaTableFamily, Qualifier: metaStateQualifier, Value: value}

	for _, tc := range []struct {
		name      string
		resp      *pb.GetResponse
		block     []byte
		wantOK    bool
		wantState pb.TableState_State
		wantErr   error
	}{
		{"cellblock", inBlock, AppendCell(nil, cell), true, pb.TableState_DISABLED, nil},
		{"inline", inline, nil, true, pb.TableState_DISABLED, nil},
		{"no such table", &pb.GetResponse{Result: &pb.Result{}}, nil, false, 0, nil},
		{"no result", &pb.GetResponse{}, nil, false, 0, nil},
		{"another row", inBlock, AppendCell(nil, foreign), false, 0, ErrForeignCells},
		{"cellblock missing", inBlock, nil, false, 0, ErrBadResponse},
		{"not a TableState", &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: table, Value: []byte{0xff, 0xff}}}}}, nil, false, 0, ErrBadResponse},
	} {
		st, ok, err := ParseMetaTableState(tc.resp, tc.block, table)
		if ok != tc.wantOK || st != tc.wantState || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s: %v, %v, %v; want %v, %v, %v", tc.name, st, ok, err, tc.wantState, tc.wantOK, tc.wantErr)
		}
	}
	req := MetaTableStateRequest([]byte("hbase:meta,,1"), table)
	if string(req.GetGet().GetRow()) != "ns:t" || string(req.GetGet().GetColumn()[0].GetFamily()) != "table" ||
		string(req.GetGet().GetColumn()[0].GetQualifier()[0]) != "state" {
		t.Errorf("request %v", req)
	}
}

// TestMetaLookupKeyOfLongRows: the lookup key of a row up to MaxRowLen fits in a row of
// hbase:meta (the server refuses a longer start row) and still sorts, in hbase:meta's order,
// after the name of every region that can hold the row and before every region after it.
func TestMetaLookupKeyOfLongRows(t *testing.T) {
	table := []byte("ns:table")
	long := bytes.Repeat([]byte{'r'}, MaxRowLen)
	// The longest region names hbase:meta can hold start with the row's first bytes.
	room := MaxRowLen - len(table) - len(",,1795651191980.0123456789abcdef0123456789abcdef.")
	name := func(start []byte) []byte {
		return regionNameFor(table, start, "1795651191980.0123456789abcdef0123456789abcdef.")
	}
	at := name(long[:room])                                // a region starting in the row, as late as can be
	after := name(append(bytes.Clone(long[:room-1]), 's')) // the first region after the row
	for _, before := range []bool{false, true} {
		key := metaLookupKey(table, long, before)
		if len(key) > MaxRowLen {
			t.Fatalf("before %v: key of %d bytes, more than %d", before, len(key), MaxRowLen)
		}
		if metarow.Compare(at, key) > 0 {
			t.Errorf("before %v: the key sorts before the region holding the row", before)
		}
		if metarow.Compare(after, key) <= 0 {
			t.Errorf("before %v: the key sorts after the region following the row", before)
		}
	}
	if got := metaLookupKey(table, []byte("row"), false); string(got) != "ns:table,row,99999999999999" {
		t.Errorf("short row: %q", got)
	}
}
