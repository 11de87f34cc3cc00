package hrpc

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// Errors returned when a request is built with bad input. They are wrapped with details, so test
// for them with errors.Is.
var (
	ErrEmptyTable = errors.New("hrpc: empty table name")
	ErrNilRow     = errors.New("hrpc: nil or empty row")
	ErrNoCells    = errors.New("hrpc: mutation without cells")
	// ErrInvalidOption is returned for an option with a bad argument (negative limit, nil
	// family, empty filter list, oversized row...).
	ErrInvalidOption = errors.New("hrpc: invalid option")
	// ErrCorruptCellBlock is returned when a cellblock cannot be decoded.
	ErrCorruptCellBlock = errors.New("hrpc: corrupt cellblock")
	// ErrBadResponse is returned when a response does not have the shape its request implies
	// (wrong message type, missing cells, action results that do not match the actions).
	ErrBadResponse = errors.New("hrpc: bad response")
)

// ActionException turns an exception the server reported for one action or one region action
// of a MultiRequest (RegionActionResult.exception or ResultOrException.exception: name = Java
// class, value = stack trace) into the same *hberr.RemoteError an RPC's exception gives.
func ActionException(ex *pb.NameBytesPair) *hberr.RemoteError {
	return hberr.NewRemoteError(ex.GetName(), string(ex.GetValue()), false)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidOption, fmt.Sprintf(format, args...))
}

func badResponse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadResponse, fmt.Sprintf(format, args...))
}
