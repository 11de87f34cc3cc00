package hberr

import "errors"

// Errors of reaching a cluster rather than of one request. They live here with the rest of
// the taxonomy so that users test them without importing the connection layer.
var (
	// ErrTLS is wrapped by the error of a dial whose TLS handshake failed: a server without
	// TLS, a certificate the client does not trust (or that has expired), or a server that
	// refused the client's certificate (hbase.WithTLS). It is a configuration error: calls fail
	// at once.
	ErrTLS = errors.New("TLS handshake failed")
	// ErrBootstrapUnreachable is wrapped by the error of a meta lookup that no bootstrap
	// server answered (hbase.WithBootstrapServers); the error also wraps each server's error.
	ErrBootstrapUnreachable = errors.New("no bootstrap server answered")
	// ErrBadRequest is wrapped by the error of bad input, refused before anything is sent:
	// building a request (package hrpc: an empty table or row, a row over 32767 bytes, an
	// option with a bad argument, a bad table, family or namespace name) or a call given a
	// nil request.
	ErrBadRequest = errors.New("bad request")
)
