package hberr

import (
	"context"
	"errors"
	"net"
	"strconv"
)

// OpError is the error every call of the client returns: the operation, its table and row
// (the start row for a Scan), and the cause. It prints as the user's operation, e.g.
//
//	hbase: Get "users"/"alice": table not found
//
// and unwraps to the cause, so errors.Is and errors.As see the sentinels, the *RemoteError and
// the context's error under it.
type OpError struct {
	Op    string // Get, Put, Delete, Append, Increment, CheckAndMutate, MutateRow, Scan
	Table string
	Row   []byte
	Err   error
}

// Error implements error.
func (e *OpError) Error() string {
	return "hbase: " + e.Op + " " + strconv.Quote(e.Table) + "/" + quoteRow(e.Row) +
		": " + e.Err.Error()
}

// quotedRowMax bounds what an error message shows of a row: rows may be 32767 bytes.
const quotedRowMax = 64

// quoteRow quotes a row for an error message as strconv.Quote does, its first 64 bytes only
// when it is longer, followed by its length: "abc"... (32767 bytes).
func quoteRow(row []byte) string {
	if len(row) <= quotedRowMax {
		return strconv.Quote(string(row))
	}
	return strconv.Quote(string(row[:quotedRowMax])) + "... (" + strconv.Itoa(len(row)) + " bytes)"
}

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// IsRetryable reports whether sending the same request again later may succeed and is safe:
// the call failed for a transient reason (a region moving, a server stopping or overloaded, a
// broken connection, an expired scanner), possibly after the caller's deadline cut the
// client's own retries short, and the request did not take effect or taking effect twice does
// no harm. A corrupt response (ErrCorruptResponse) is retryable only for a read (Get, Scan):
// for a write its outcome is unknown, and an ErrIndeterminate write is never retryable. It is
// false for the server's final refusals (ErrDoNotRetry: missing table or family, access
// denied...), for a closed client, for a cancelled context, and for errors it does not know.
// Modelled on pgx's SafeToRetry.
func IsRetryable(err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, ErrDoNotRetry), errors.Is(err, ErrClosed), errors.Is(err, context.Canceled),
		errors.Is(err, ErrIndeterminate), errors.Is(err, ErrConfiguration):
		return false
	case errors.Is(err, ErrCorruptResponse):
		op, ok := errors.AsType[*OpError](err)
		return ok && (op.Op == "Get" || op.Op == "Scan")
	case errors.Is(err, ErrRetryable), errors.Is(err, ErrServerStopping),
		errors.Is(err, ErrRegionUnavailable), errors.Is(err, ErrConnection),
		errors.Is(err, ErrScannerExpired):
		return true
	}
	return false
}

// IsOverloaded reports whether err says a server refused a call because it is overloaded
// (ErrOverloaded: CallQueueTooBigException, CallDroppedException, or any exception the server
// flagged as overloaded), possibly as the last failure of a call whose attempts or context
// ran out. Such calls were not executed; a caller may retry them later, preferably after
// slowing down.
func IsOverloaded(err error) bool { return errors.Is(err, ErrOverloaded) }

// IsNotFound reports whether err says that what the request names does not exist: the table
// (ErrTableNotFound), a column family (ErrNoSuchFamily), the namespace
// (ErrNamespaceNotFound) or, for admin calls, the snapshot (ErrSnapshotNotFound). A missing
// row is not an error: Get returns a Result without cells.
func IsNotFound(err error) bool {
	return errors.Is(err, ErrTableNotFound) || errors.Is(err, ErrNoSuchFamily) ||
		errors.Is(err, ErrNamespaceNotFound) || errors.Is(err, ErrSnapshotNotFound)
}

// IsTimeout reports whether err is a timeout: the call's context deadline passed (whatever
// the client was retrying then), a network timeout, or the server's CallTimeoutException or
// OperationTimeoutExceededException. Modelled on pgx's Timeout.
func IsTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	if re, ok := errors.AsType[*RemoteError](err); ok {
		switch simpleName(re.Class) {
		case "CallTimeoutException", "OperationTimeoutExceededException":
			return true
		}
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		return true
	}
	return false
}
