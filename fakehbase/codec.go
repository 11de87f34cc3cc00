package fakehbase

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-hbase/hbase/hrpc"
)

// The KeyValueCodec cellblock encoding is borrowed from package hrpc, and only here, so that
// the day the codec moves the fake follows by changing this one file.

// decodeCells reads every cell of a request cellblock.
func decodeCells(block []byte) ([]kv, error) {
	rd := hrpc.NewCellReader(block)
	var out []kv
	for {
		var c hrpc.Cell
		err := rd.Next(&c)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("cellblock: %w", err)
		}
		out = append(out, kv{row: c.Row, family: c.Family, qualifier: c.Qualifier,
			ts: int64(c.Timestamp), typ: byte(c.Type), value: c.Value})
	}
}

// appendCells appends cells to a response cellblock.
func appendCells(dst []byte, cells []kv) []byte {
	for i := range cells {
		c := &cells[i]
		hc := hrpc.Cell{Row: c.row, Family: c.family, Qualifier: c.qualifier,
			Timestamp: uint64(c.ts), Type: hrpc.CellType(c.typ), Value: c.value}
		dst = hrpc.AppendCell(dst, &hc)
	}
	return dst
}
