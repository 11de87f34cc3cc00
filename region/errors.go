package region

import (
	"errors"
	"fmt"
)

// Errors of the connection layer. The server's exceptions are *hberr.RemoteError values; a
// broken connection gives a *ConnError wrapping hberr.ErrConnection (or ErrClosed).
var (
	// ErrClosed: the connection was closed by us (Close); outstanding and later calls get it.
	ErrClosed = errors.New("region: connection closed")
	// ErrFrameTooLarge: the server announced a frame larger than WithMaxFrameSize allows.
	ErrFrameTooLarge = errors.New("region: frame too large")
	// ErrMalformedFrame: a response frame did not parse.
	ErrMalformedFrame = errors.New("region: malformed frame")
)

// ConnError is the error of every call on a connection that broke. It wraps hberr.ErrConnection
// (or ErrClosed when we closed it) and the cause.
type ConnError struct {
	Addr     string
	Cause    error
	sentinel error
}

func newConnError(addr string, sentinel, cause error) *ConnError {
	return &ConnError{Addr: addr, Cause: cause, sentinel: sentinel}
}

// Error implements error.
func (e *ConnError) Error() string {
	if e.Cause == nil {
		return fmt.Sprintf("%v (%s)", e.sentinel, e.Addr)
	}
	return fmt.Sprintf("%v (%s): %v", e.sentinel, e.Addr, e.Cause)
}

// Unwrap returns the sentinel and the cause.
func (e *ConnError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.sentinel}
	}
	return []error{e.sentinel, e.Cause}
}
