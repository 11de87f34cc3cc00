package hbase

import (
	"errors"

	"github.com/go-hbase/hbase/region"
)

// Errors returned by the client. The server's exceptions arrive as *region.RemoteError values
// that wrap one or more of these sentinels, so test them with errors.Is and read the details
// with errors.As.
var (
	// ErrClosed is returned by every call on a closed Client.
	ErrClosed = errors.New("hbase: client closed")
	// ErrConnection: a connection to a region server broke. The client retries on its own; it
	// surfaces only inside a context error's cause or a batch result that ran out of time.
	ErrConnection = region.ErrConnection
	// ErrRegionUnavailable: the region was not served where the cache said (moved, splitting,
	// opening). The client looks the region up again at once.
	ErrRegionUnavailable = region.ErrRegionUnavailable
	// ErrServerStopping: the region server is stopping, aborted or not yet running.
	ErrServerStopping = region.ErrServerStopping
	// ErrRetryable: a transient server condition, retried after a backoff.
	ErrRetryable = region.ErrRetryable
	// ErrDoNotRetry: the server rejected the request for good (DoNotRetryIOException family).
	ErrDoNotRetry = region.ErrDoNotRetry
	// ErrTableNotFound: the table does not exist (found by the client in hbase:meta or thrown
	// by the server).
	ErrTableNotFound = region.ErrTableNotFound
	// ErrNoSuchFamily: a column family named by the request does not exist.
	ErrNoSuchFamily = region.ErrNoSuchFamily
	// ErrTableDisabled: the table is disabled.
	ErrTableDisabled = region.ErrTableDisabled
	// ErrScannerExpired: a server-side scanner expired or was reset; the Scanner reopens it
	// from the last row it returned, so callers see it only when that is impossible.
	ErrScannerExpired = region.ErrScannerExpired
)

// errRegionNotAssigned: hbase:meta has the region but no server for it yet (it is being
// assigned or moved). Retried with backoff.
var errRegionNotAssigned = errors.New("hbase: region not assigned to a server yet")

// errRegionHole: hbase:meta has no region for the key at the moment (a split or merge is
// being recorded). Retried with backoff.
var errRegionHole = errors.New("hbase: no region in hbase:meta holds the key yet")

// errLookupTimeout: one region lookup attempt ran out of the region lookup timeout (the
// cluster is slow or hbase:meta is moving). Retried with backoff while the caller's context
// allows.
var errLookupTimeout = errors.New("hbase: region lookup timed out")

// LookupError says which table and row a region lookup was for. It wraps the cause.
type LookupError struct {
	Table, Row []byte
	Err        error
}

func (e *LookupError) Error() string {
	return "hbase: looking up the region of row " + quoteBytes(e.Row) + " in table " +
		quoteBytes(e.Table) + ": " + e.Err.Error()
}

func (e *LookupError) Unwrap() error { return e.Err }
