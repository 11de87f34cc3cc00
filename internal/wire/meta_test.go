package wire

import (
	"errors"
	"testing"

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
