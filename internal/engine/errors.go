package engine

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// indeterminate reports a corrupt response to a write that is not safe to send again.
func indeterminate(err error) error {
	return fmt.Errorf("%w: %w", hberr.ErrIndeterminate, err)
}

// resendableAfterLoss reports whether call may be sent again after its connection broke while
// it was outstanding: the calls safe to resend, and Appends and Increments, whose nonce lets
// the server recognise the resend and not apply it twice.
func resendableAfterLoss(call wire.Call) bool {
	if n, ok := call.(interface{ Nonce() uint64 }); ok && n.Nonce() != 0 {
		return true
	}
	return safeToResend(call)
}

// safeToResend says whether call may be sent again after its response was lost or corrupt:
// reads, and Puts and Deletes (applying them twice leaves the same data). An Append or
// Increment carries a nonce, but the server's answer to a repeated nonce is the row as it is
// then, not the first result, so they are not resent either. A call of a coprocessor endpoint
// says itself (wire.ExecCall.Idempotent).
func safeToResend(call wire.Call) bool {
	if i, ok := call.(interface{ Idempotent() bool }); ok {
		return i.Idempotent()
	}
	switch call.Op() {
	case "Get", "Put", "Delete":
		return true
	}
	return false
}

// UserError is err as the caller of a call sees it: every cause in hberr's terms. Errors of the
// connection layer mostly are already (a broken connection wraps hberr.ErrConnection); the one
// that is not is region.ErrClosed, a connection the client closed itself (a suspect server's,
// or one it relocated away from) under a call that then ran out of time or attempts. Such an
// error also matches hberr.ErrConnection; its message and chain are unchanged.
func UserError(err error) error {
	if err != nil && errors.Is(err, region.ErrClosed) && !errors.Is(err, hberr.ErrConnection) {
		return connectionClosed{err}
	}
	return err
}

// connectionClosed is an error whose connection the client closed: hberr.ErrConnection too.
type connectionClosed struct{ error }

func (e connectionClosed) Unwrap() []error { return []error{e.error, hberr.ErrConnection} }

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

// lookupError says which table and row a region lookup was for. It wraps the cause. Its
// message is the cause's: the *OpError around it already names the table and row.
type lookupError struct {
	Table, Row []byte
	Err        error
}

func (e *lookupError) Error() string { return e.Err.Error() }

func (e *lookupError) Unwrap() error { return e.Err }

// errBackpressure is the last failure of a write whose context ended while it was held for
// its server's load (loadstats.go).
var errBackpressure = errors.New("backpressure")

// NilRequest is the error of an operation called with a nil request: an *hberr.OpError like every
// other error of a call.
func NilRequest(op string) error {
	return &hberr.OpError{Op: op, Err: fmt.Errorf("%w: nil %s", hberr.ErrBadRequest, op)}
}

// OpError says which operation, table and row failed: every call's error is one.
func OpError(call wire.Call, err error) error {
	return &hberr.OpError{Op: call.Op(), Table: call.TableName(), Row: call.Key(), Err: UserError(err)}
}
