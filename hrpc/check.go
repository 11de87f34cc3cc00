package hrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// ErrForeignCells is returned when a result meant for one row holds a cell of another row: the
// response cannot be the answer to the request, whatever produced it.
var ErrForeignCells = errors.New("hrpc: result holds cells of another row")

// The CheckResponse methods check a response against its request before it is decoded (the
// region connection calls them while it still has the frame, so that a corrupt response can be
// logged with its bytes and the connection reset): a single-row result must hold cells of the
// requested row only, exactly as many as it announces, and nothing may be left in the
// cellblock after them. They allocate nothing.

// CheckResponse checks a GetResponse.
func (g *Get) CheckResponse(resp proto.Message, cells []byte) error {
	if rr, ok := resp.(*getResponse); ok {
		return checkSingleResult(rr.Result, cells, g.row)
	}
	r, ok := resp.(*pb.GetResponse)
	if !ok {
		return badResponse("%T for a Get", resp)
	}
	return checkSingleResult(r.Result, cells, g.row)
}

// CheckResponse checks a MutateResponse.
func (m *mutation) CheckResponse(resp proto.Message, cells []byte) error {
	r, ok := resp.(*pb.MutateResponse)
	if !ok {
		return badResponse("%T for a %s", resp, m.mtype)
	}
	return checkSingleResult(r.Result, cells, m.row)
}

// CheckResponse checks the MutateResponse, or the MultiResponse of RowMutations.
func (c *CheckAndMutate) CheckResponse(resp proto.Message, cells []byte) error {
	if c.rows != nil {
		return checkRowActions(resp, cells, c.row)
	}
	r, ok := resp.(*pb.MutateResponse)
	if !ok {
		return badResponse("%T for a conditional Mutate", resp)
	}
	return checkSingleResult(r.Result, cells, c.row)
}

// CheckResponse checks the MultiResponse: every action's result is of the mutations' row.
func (r *RowMutations) CheckResponse(resp proto.Message, cells []byte) error {
	return checkRowActions(resp, cells, r.Key())
}

func checkRowActions(resp proto.Message, cells []byte, row []byte) error {
	m, ok := resp.(*pb.MultiResponse)
	if !ok {
		return badResponse("%T for a MultiRequest", resp)
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
	return checkDrained(&rd)
}

func checkSingleResult(r *pb.Result, cells []byte, row []byte) error {
	var rd CellReader
	rd.Reset(cells)
	if err := CheckResult(r, &rd, row); err != nil {
		return err
	}
	return checkDrained(&rd)
}

// checkDrained reports cellblock bytes that no result claimed.
func checkDrained(rd *CellReader) error {
	if n := rd.Remaining(); n > 0 {
		return badResponse("%d cellblock bytes after the cells the results announce (%d cells)", n, rd.n)
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
		return badResponse("negative associated cell count %d", count)
	case r.Exists != nil && (count > 0 || len(r.Cell) > 0):
		return badResponse("result with exists and cells")
	}
	var c Cell
	for i := range count {
		if err := rd.Next(&c); err != nil {
			if errors.Is(err, io.EOF) {
				return badResponse("result announces %d cells but the cellblock holds %d", count, i)
			}
			return err
		}
		if !bytes.Equal(c.Row, row) {
			return foreignCell(row, c.Row, i)
		}
	}
	for i, pc := range r.Cell {
		if !bytes.Equal(pc.Row, row) {
			return foreignCell(row, pc.Row, count+i)
		}
	}
	return nil
}

func foreignCell(want, got []byte, i int) error {
	return fmt.Errorf("%w: cell %d is of row %s, the request is for row %s", ErrForeignCells, i, quoted(got), quoted(want))
}

// quoted prints a row for an error message, bounded: a corrupt row may be long garbage.
func quoted(b []byte) string {
	const maxRow = 64
	if len(b) > maxRow {
		return fmt.Sprintf("%q... (%d bytes)", b[:maxRow], len(b))
	}
	return fmt.Sprintf("%q", b)
}
