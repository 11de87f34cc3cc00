package hrpc

import (
	"bytes"
	"fmt"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

var (
	// metaTableFamily and metaStateQualifier name the hbase:meta cell that holds a table's
	// state (ENABLED, DISABLED ...), in the row named after the table.
	metaTableFamily    = []byte("table")
	metaStateQualifier = []byte("state")
)

// MetaTableStateRequest is a Get of table's state cell in hbase:meta.
func MetaTableStateRequest(metaRegion, table []byte) *pb.GetRequest {
	return &pb.GetRequest{
		Region: regionSpecifier(metaRegion),
		Get: &pb.Get{
			Row:    table,
			Column: []*pb.Column{{Family: metaTableFamily, Qualifier: [][]byte{metaStateQualifier}}},
		},
	}
}

// ParseMetaTableState reads the answer to MetaTableStateRequest, whose cell comes in the
// response or in its cellblock. ok is false when hbase:meta holds no state for the table (no
// such table). The cell's value is a bare TableState message, with no PBUF prefix.
// A cell of another row is ErrForeignCells.
func ParseMetaTableState(resp *pb.GetResponse, cellblock, table []byte) (state pb.TableState_State, ok bool, err error) {
	var row, value []byte
	switch res := resp.GetResult(); {
	case res.GetAssociatedCellCount() > 0:
		var c Cell
		if err := NewCellReader(cellblock).Next(&c); err != nil {
			return 0, false, fmt.Errorf("%w: table state cell: %v", ErrBadResponse, err)
		}
		row, value = c.Row, c.Value
	case len(res.GetCell()) > 0:
		row, value = res.GetCell()[0].GetRow(), res.GetCell()[0].GetValue()
	default:
		return 0, false, nil
	}
	if !bytes.Equal(row, table) {
		return 0, false, fmt.Errorf("%w: the state of table %q came in row %q", ErrForeignCells, table, row)
	}
	var st pb.TableState
	if err := proto.Unmarshal(value, &st); err != nil {
		return 0, false, fmt.Errorf("%w: table state in hbase:meta: %v", ErrBadResponse, err)
	}
	return st.GetState(), true, nil
}
