package hberr

import (
	"context"
	"errors"
)

// Classes of an outcome, as Class names them: short, stable label values for metrics
// (a Prometheus label, a span status) so that a dashboard can tell a slow cluster from a
// missing table without parsing messages.
const (
	ClassOK                = "ok"
	ClassCanceled          = "canceled"
	ClassTimeout           = "timeout"
	ClassNotFound          = "not_found"
	ClassTableDisabled     = "table_disabled"
	ClassDoNotRetry        = "do_not_retry"
	ClassRegionUnavailable = "region_unavailable"
	ClassServerStopping    = "server_stopping"
	ClassConnection        = "connection"
	ClassCorrupt           = "corrupt_response"
	ClassIndeterminate     = "indeterminate"
	ClassScannerExpired    = "scanner_expired"
	ClassOverloaded        = "overloaded"
	ClassRetryable         = "retryable"
	ClassConfiguration     = "configuration"
	ClassBadRequest        = "bad_request"
	ClassClosed            = "closed"
	ClassRemote            = "remote"
	ClassOther             = "other"
)

// Class returns the class of err: ClassOK for nil, else the first class err matches, in the
// order a caller acts on them: closed; a bad request refused before anything was sent; an
// indeterminate write (it may or may not have been applied: ErrIndeterminate, whatever ended
// it, a deadline included); canceled; timeout (a timeout while retrying a moved region is a
// timeout); configuration; not found... So a dashboard by class tells "maybe applied" from
// "not applied" (ClassTimeout is a failure that left nothing behind, for the calls the client
// can tell), and the caller's mistakes from the cluster's.
func Class(err error) string {
	switch {
	case err == nil:
		return ClassOK
	case errors.Is(err, ErrClosed):
		return ClassClosed
	case errors.Is(err, ErrBadRequest):
		return ClassBadRequest
	case errors.Is(err, ErrIndeterminate):
		return ClassIndeterminate
	case errors.Is(err, context.Canceled):
		return ClassCanceled
	case IsTimeout(err):
		return ClassTimeout
	case errors.Is(err, ErrConfiguration):
		return ClassConfiguration
	case IsNotFound(err):
		return ClassNotFound
	case errors.Is(err, ErrTableDisabled):
		return ClassTableDisabled
	case errors.Is(err, ErrCorruptResponse):
		return ClassCorrupt
	case errors.Is(err, ErrScannerExpired):
		return ClassScannerExpired
	case errors.Is(err, ErrDoNotRetry):
		return ClassDoNotRetry
	case errors.Is(err, ErrRegionUnavailable):
		return ClassRegionUnavailable
	case errors.Is(err, ErrServerStopping):
		return ClassServerStopping
	case errors.Is(err, ErrConnection):
		return ClassConnection
	case errors.Is(err, ErrOverloaded):
		return ClassOverloaded
	case errors.Is(err, ErrRetryable):
		return ClassRetryable
	}
	if _, ok := errors.AsType[*RemoteError](err); ok {
		return ClassRemote
	}
	return ClassOther
}
