package hrpc

import (
	"github.com/go-hbase/hbase/internal/wire"
)

// Errors of building a request from bad input: nothing is sent. Each wraps
// hberr.ErrBadRequest (test with errors.Is(err, hberr.ErrBadRequest)) and says what was wrong.
var (
	errEmptyTable = wire.BadRequest("empty table name")
	errNilRow     = wire.BadRequest("nil or empty row")
	errNoCells    = wire.BadRequest("mutation without cells")
)

// invalid is the error of an option or argument that HBase would refuse (a negative limit, a
// nil family, an empty filter list, an oversized row...).
func invalid(format string, args ...any) error { return wire.BadRequest(format, args...) }

// badResponse is the error of a response that does not have the shape its request implies.
func badResponse(format string, args ...any) error { return wire.BadResponse(format, args...) }
