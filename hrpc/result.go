package hrpc

import (
	"errors"
	"io"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// parseResult turns a protobuf Result into a Result. The first associated_cell_count cells come
// from cells (the response's cellblock, which may be shared by several results and is advanced
// past them); cells carried in the protobuf itself follow. Cells alias their buffers.
func parseResult(r *pb.Result, cells *wire.CellReader) (*Result, error) {
	var res *Result
	if r != nil && r.Exists == nil && int(r.GetAssociatedCellCount())+len(r.Cell) == 1 {
		// The most common result, one cell, in one allocation.
		rc := new(resultCell)
		rc.res.Cells = rc.cell[:]
		res = &rc.res
	} else {
		res = new(Result)
	}
	if err := parseResultInto(res, r, cells); err != nil {
		return nil, err
	}
	return res, nil
}

// resultCell is a Result with room for one cell.
type resultCell struct {
	res  Result
	cell [1]Cell
}

// parseResultInto fills res with one allocation: the cells of the result, unless res.Cells
// already has room for exactly them.
func parseResultInto(res *Result, r *pb.Result, cells *wire.CellReader) error {
	if r == nil {
		return nil
	}
	res.Stale = r.GetStale()
	res.Partial = r.GetPartial()
	count := int(r.GetAssociatedCellCount())
	if r.Exists != nil {
		if count > 0 || len(r.Cell) > 0 {
			return badResponse("result with exists and cells")
		}
		exists := *r.Exists
		res.Exists = &exists
		return nil
	}
	if count < 0 {
		return badResponse("negative associated cell count %d", count)
	}
	n := count + len(r.Cell)
	if n == 0 {
		return nil
	}
	if count > 0 && int64(cells.Remaining()) < int64(count)*wire.MinCellLen {
		return badResponse("result claims %d cells but the cellblock has %d bytes left", count, cells.Remaining())
	}
	if len(res.Cells) != n {
		res.Cells = make([]Cell, n)
	}
	for i := 0; i < count; i++ {
		if err := readCell(cells, &res.Cells[i]); err != nil {
			if errors.Is(err, io.EOF) {
				return badResponse("result claims %d cells but the cellblock has %d", count, i)
			}
			return err
		}
	}
	for i, pc := range r.Cell {
		c := &res.Cells[count+i]
		c.Row = pc.Row
		c.Family = pc.Family
		c.Qualifier = pc.Qualifier
		c.Timestamp = pc.GetTimestamp()
		c.Type = CellType(pc.GetCellType())
		c.Value = pc.Value
	}
	return nil
}

// BatchResult is the outcome of one call of a batch: its result, or why it failed.
type BatchResult struct {
	Result *Result
	Err    error
	// Applied is, for a CheckAndMutate, whether its condition held and its mutations were
	// applied; it is false for every other call.
	Applied bool
}
