package hbase

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Errors returned by the client. Every call returns an *OpError that names the operation, its
// table and row, and wraps the cause: one of these sentinels, a server exception
// (*RemoteError, which wraps the sentinels its Java class maps to) or the context's error.
// Test them with errors.Is, read the details with errors.As, or decide with IsRetryable,
// IsNotFound and IsTimeout. They live in package hberr, shared by every layer.
var (
	// ErrClosed is returned by every call on a closed Client.
	ErrClosed = hberr.ErrClosed
	// ErrConnection: a connection to a region server broke. The client retries on its own; it
	// surfaces only inside a context error's cause or a batch result that ran out of time.
	ErrConnection = hberr.ErrConnection
	// ErrRegionUnavailable: the region was not served where the cache said (moved, splitting,
	// opening). The client looks the region up again at once.
	ErrRegionUnavailable = hberr.ErrRegionUnavailable
	// ErrServerStopping: the region server is stopping, aborted or not yet running.
	ErrServerStopping = hberr.ErrServerStopping
	// ErrRetryable: a transient server condition, retried after a backoff.
	ErrRetryable = hberr.ErrRetryable
	// ErrDoNotRetry: the server rejected the request for good (DoNotRetryIOException family).
	ErrDoNotRetry = hberr.ErrDoNotRetry
	// ErrTableNotFound: the table does not exist (found by the client in hbase:meta or thrown
	// by the server).
	ErrTableNotFound = hberr.ErrTableNotFound
	// ErrNoSuchFamily: a column family named by the request does not exist.
	ErrNoSuchFamily = hberr.ErrNoSuchFamily
	// ErrNamespaceNotFound: the table's namespace does not exist.
	ErrNamespaceNotFound = hberr.ErrNamespaceNotFound
	// ErrTableDisabled: the table is disabled. Calls on a table disabled after the client
	// cached its regions end with it at once too (the client reads the table state when a
	// region's server no longer serves it).
	ErrTableDisabled = hberr.ErrTableDisabled
	// ErrScannerExpired: a server-side scanner expired or was reset; the Scanner reopens it
	// from the last row it returned, so callers see it only when that is impossible.
	ErrScannerExpired = hberr.ErrScannerExpired
	// ErrCorruptResponse: a response failed its integrity checks (cells of a row other than
	// the one asked for, a cell count that disagrees with the response, bytes that do not
	// decode). It is never returned as data: the connection was reset, the response logged at
	// error level with its bytes and dropped. Reads and Puts and Deletes are sent again; a
	// write that must not be applied twice reports ErrIndeterminate instead.
	ErrCorruptResponse = hberr.ErrCorruptResponse
	// ErrIndeterminate is returned when an Append, Increment, CheckAndMutate or MutateRow got
	// a corrupt response, or a CheckAndMutate or MutateRow lost its connection after it was
	// sent: the server may or may not have applied it, and sending it again could apply it
	// twice or misreport a condition. (Appends and Increments carry a nonce, so the server
	// recognises their resend after a lost connection and they are retried.) The error also
	// wraps ErrCorruptResponse or ErrConnection and the cause. Read the row to find out.
	ErrIndeterminate = hberr.ErrIndeterminate
	// ErrTLS is wrapped by the error of a dial whose TLS handshake failed (WithTLS): a server
	// without TLS, a certificate the client does not trust or that has expired, or a server
	// that refused the client's certificate. It is a configuration error: calls fail at once.
	ErrTLS = hberr.ErrTLS
	// ErrBootstrapUnreachable is wrapped by the error of a meta lookup that no bootstrap
	// server answered (WithBootstrapServers); the error also wraps each server's error.
	ErrBootstrapUnreachable = hberr.ErrBootstrapUnreachable
	// ErrAttemptsExhausted: the call failed as many times as WithMaxAttempts, WithNoRetries or
	// hrpc.MaxAttempts allowed; it comes in an *AttemptsError with the count and the last
	// failure.
	ErrAttemptsExhausted = hberr.ErrAttemptsExhausted
)

// indeterminate reports a corrupt response to a write that is not safe to send again.
func indeterminate(err error) error {
	return fmt.Errorf("%w: %w", ErrIndeterminate, err)
}

// safeToResend says whether call may be sent again after its response was lost or corrupt:
// reads, and Puts and Deletes (applying them twice leaves the same data). An Append or
// Increment carries a nonce, but the server's answer to a repeated nonce is the row as it is
// then, not the first result, so they are not resent either.
// resendableAfterLoss reports whether call may be sent again after its connection broke while
// it was outstanding: the calls safe to resend, and Appends and Increments, whose nonce lets
// the server recognise the resend and not apply it twice.
func resendableAfterLoss(call hrpc.Call) bool {
	if n, ok := call.(interface{ Nonce() uint64 }); ok && n.Nonce() != 0 {
		return true
	}
	return safeToResend(call)
}

func safeToResend(call hrpc.Call) bool {
	switch call.(type) {
	case *hrpc.Get, *hrpc.Put, *hrpc.Delete:
		return true
	}
	return false
}

// RemoteError is an exception thrown by a server, classified by its Java class.
type RemoteError = hberr.RemoteError

// OpError is the error of every call: operation, table, row and cause.
type OpError = hberr.OpError

// IsRetryable reports whether sending the same request again later may succeed and is safe
// (a transient cause; see hberr.IsRetryable for the exact rules).
func IsRetryable(err error) bool { return hberr.IsRetryable(err) }

// IsNotFound reports whether the table, column family or namespace a request names does not
// exist. A missing row is not an error.
func IsNotFound(err error) bool { return hberr.IsNotFound(err) }

// IsTimeout reports whether err is a timeout: the call's deadline, a network timeout or the
// server's call timeout.
func IsTimeout(err error) bool { return hberr.IsTimeout(err) }

// errRegionNotAssigned: hbase:meta has the region but no server for it yet (it is being
// assigned or moved). Retried with backoff.
var errRegionNotAssigned = errors.New("region not assigned to a server yet")

// errRegionHole: hbase:meta has no region for the key at the moment (a split or merge is
// being recorded). Retried with backoff.
var errRegionHole = errors.New("no region in hbase:meta holds the key yet")

// errLookupTimeout: one region lookup attempt ran out of the region lookup timeout (the
// cluster is slow or hbase:meta is moving). Retried with backoff while the caller's context
// allows.
var errLookupTimeout = errors.New("region lookup timed out")

// LookupError says which table and row a region lookup was for. It wraps the cause. Its
// message is the cause's: the *OpError around it already names the table and row.
type LookupError struct {
	Table, Row []byte
	Err        error
}

func (e *LookupError) Error() string { return e.Err.Error() }

func (e *LookupError) Unwrap() error { return e.Err }
