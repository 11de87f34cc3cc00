package wire

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// Errors of reading a response. The client wraps them in hberr's terms (a corrupt response
// resets the connection and is hberr.ErrCorruptResponse): users never test for these.
var (
	// ErrBadResponse is returned when a response does not have the shape its request implies
	// (wrong message type, missing cells, action results that do not match the actions).
	ErrBadResponse = errors.New("hrpc: bad response")
	// ErrForeignCells is returned when a result meant for one row holds a cell of another
	// row: the response cannot be the answer to the request, whatever produced it.
	ErrForeignCells = errors.New("hrpc: result holds cells of another row")
	// ErrCorruptCellBlock is returned when a cellblock cannot be decoded.
	ErrCorruptCellBlock = errors.New("hrpc: corrupt cellblock")
)

// BadRequest is the error of an argument HBase would refuse (a negative limit, a nil family, an
// oversized row...): nothing is sent. It wraps hberr.ErrBadRequest.
func BadRequest(format string, args ...any) error {
	return fmt.Errorf("hrpc: %w: %s", hberr.ErrBadRequest, fmt.Sprintf(format, args...))
}

// BadResponse is an error wrapping ErrBadResponse.
func BadResponse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadResponse, fmt.Sprintf(format, args...))
}

// ForeignCell is the ErrForeignCells error of cell i, of row got, in a result for row want.
func ForeignCell(want, got []byte, i int) error {
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

// ActionException turns an exception the server reported for one action or one region action
// of a MultiRequest (RegionActionResult.exception or ResultOrException.exception: name = Java
// class, value = stack trace) into the same *hberr.RemoteError an RPC's exception gives.
func ActionException(ex *pb.NameBytesPair) *hberr.RemoteError {
	return hberr.NewRemoteError(ex.GetName(), string(ex.GetValue()), false)
}
