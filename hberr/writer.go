package hberr

import "errors"

// ErrWriterFull: a buffered writer (bufwriter.Writer) in fail-fast mode holds as many
// bytes of mutations as its bound allows (buffered and being sent), so it refused the
// mutation instead of waiting. A blocking writer whose caller's context ended while it waited
// for room returns an error wrapping both ErrWriterFull and the context's error. The mutation
// was not accepted: nothing was sent, and no outcome will be reported for it.
var ErrWriterFull = errors.New("buffered writer full")
