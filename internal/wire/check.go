package wire

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The checks of a response against its request before it is decoded (a Call's CheckResponse;
// the region connection runs them while it still has the frame, so that a corrupt response
// can be logged with its bytes and the connection reset): a single-row result must hold cells
// of the requested row only, exactly as many as it announces, and nothing may be left in the
// cellblock after them. They allocate nothing.

// CheckRowActions checks a MultiResponse of actions on one row: every action's result is of
// row, and the cellblock holds exactly their cells.
func CheckRowActions(resp proto.Message, cells []byte, row []byte) error {
	m, ok := resp.(*pb.MultiResponse)
	if !ok {
		return BadResponse("%T for a MultiRequest", resp)
	}
	var rd CellReader
	rd.Reset(cells)
	for _, rar := range m.RegionActionResult {
		for _, roe := range rar.ResultOrException {
			if err := CheckResult(roe.Result, &rd, row); err != nil {
				return err
			}
		}
	}
	return CheckDrained(&rd)
}

// CheckSingleResult checks the one result of a Get or Mutate response for row and its
// cellblock.
func CheckSingleResult(r *pb.Result, cells []byte, row []byte) error {
	var rd CellReader
	rd.Reset(cells)
	if err := CheckResult(r, &rd, row); err != nil {
		return err
	}
	return CheckDrained(&rd)
}

// CheckDrained reports cellblock bytes that no result claimed.
func CheckDrained(rd *CellReader) error {
	if n := rd.Remaining(); n > 0 {
		return BadResponse("%d cellblock bytes after the cells the results announce (%d cells)", n, rd.n)
	}
	return nil
}

// CheckResult checks one result of the request for row: its associated_cell_count cells,
// read from rd (advanced past them), and the cells in the protobuf itself must all be of row.
// An exists-only result must have no cells.
func CheckResult(r *pb.Result, rd *CellReader, row []byte) error {
	if r == nil {
		return nil
	}
	count := int(r.GetAssociatedCellCount())
	switch {
	case count < 0:
		return BadResponse("negative associated cell count %d", count)
	case r.Exists != nil && (count > 0 || len(r.Cell) > 0):
		return BadResponse("result with exists and cells")
	}
	var c Cell
	for i := range count {
		if err := rd.Next(&c); err != nil {
			if errors.Is(err, io.EOF) {
				return BadResponse("result announces %d cells but the cellblock holds %d", count, i)
			}
			return err
		}
		if !bytes.Equal(c.Row, row) {
			return ForeignCell(row, c.Row, i)
		}
	}
	for i, pc := range r.Cell {
		if !bytes.Equal(pc.Row, row) {
			return ForeignCell(row, pc.Row, count+i)
		}
	}
	return nil
}
