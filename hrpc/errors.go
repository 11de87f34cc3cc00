package hrpc

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// Errors of building a request from bad input: nothing is sent. Each wraps
// hberr.ErrBadRequest (test with errors.Is(err, hberr.ErrBadRequest)) and says what was wrong.
var (
	errEmptyTable = fmt.Errorf("hrpc: %w: empty table name", hberr.ErrBadRequest)
	errNilRow     = fmt.Errorf("hrpc: %w: nil or empty row", hberr.ErrBadRequest)
	errNoCells    = fmt.Errorf("hrpc: %w: mutation without cells", hberr.ErrBadRequest)
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

// invalid is the error of an option or argument that HBase would refuse (a negative limit, a
// nil family, an empty filter list, an oversized row...).
func invalid(format string, args ...any) error {
	return fmt.Errorf("hrpc: %w: %s", hberr.ErrBadRequest, fmt.Sprintf(format, args...))
}

func badResponse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadResponse, fmt.Sprintf(format, args...))
}
