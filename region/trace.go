package region

import (
	"context"
	"errors"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// traceInfoKey is the context key of a call's encoded RPCTInfo.
type traceInfoKey struct{}

// ContextWithTraceInfo returns a context whose calls carry headers (W3C trace context:
// "traceparent", "tracestate") in their RequestHeader's trace_info (RPCTInfo.headers), so that
// an HBase 2.5+ server's spans join the caller's trace. Only connections dialled with
// WithTraceContext read it. The headers are encoded once, here, not on every call.
func ContextWithTraceInfo(ctx context.Context, headers map[string]string) (context.Context, error) {
	if len(headers) == 0 {
		return ctx, nil
	}
	b, err := proto.Marshal(&pb.RPCTInfo{Headers: headers})
	if err != nil {
		return ctx, err
	}
	if len(b) == 0 {
		return ctx, errors.New("region: empty trace info")
	}
	return context.WithValue(ctx, traceInfoKey{}, b), nil
}

func traceInfoFrom(ctx context.Context) []byte {
	b, _ := ctx.Value(traceInfoKey{}).([]byte)
	return b
}

// WithTraceContext makes the connection send the trace context of each call's context
// (ContextWithTraceInfo) in its RequestHeader. Without it the context is not looked at, so
// calls pay nothing for tracing they do not use.
func WithTraceContext() Option {
	return func(c *config) error {
		c.TraceContext = true
		return nil
	}
}
