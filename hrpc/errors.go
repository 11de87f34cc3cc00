package hrpc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/region"
)

// Errors returned when a request is built with bad input. They are wrapped with details, so test
// for them with errors.Is.
var (
	ErrEmptyTable = errors.New("hrpc: empty table name")
	ErrNilRow     = errors.New("hrpc: nil or empty row")
	ErrNoCells    = errors.New("hrpc: mutation without cells")
	// ErrNotApplicable is returned when an option is given to a request type it does not apply
	// to, e.g. MaxVersions on a Put.
	ErrNotApplicable = errors.New("hrpc: option does not apply to this request")
	// ErrInvalidOption is returned for an option with a bad argument (negative limit, nil
	// family, empty filter list, oversized row...).
	ErrInvalidOption = errors.New("hrpc: invalid option")
	// ErrCorruptCellBlock is returned when a cellblock cannot be decoded.
	ErrCorruptCellBlock = errors.New("hrpc: corrupt cellblock")
	// ErrBadResponse is returned when a response does not have the shape its request implies
	// (wrong message type, missing cells, action results that do not match the actions).
	ErrBadResponse = errors.New("hrpc: bad response")
)

// ActionError is an exception the server reported for one action or one region action of a
// MultiRequest (RegionActionResult.exception or ResultOrException.exception). Class is the Java
// exception class name and Message its text (usually the stack trace).
type ActionError struct {
	Class   string
	Message string
}

func (e *ActionError) Error() string {
	msg := e.Message
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Sprintf("hrpc: server exception %s: %s", e.Class, msg)
}

// Unwrap classifies the exception the way the region package classifies RPC exceptions, so
// errors.Is(err, region.ErrRegionUnavailable) and the like work on action errors too.
func (e *ActionError) Unwrap() error {
	return region.NewRemoteError(e.Class, e.Message, false)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidOption, fmt.Sprintf(format, args...))
}

func badResponse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadResponse, fmt.Sprintf(format, args...))
}
