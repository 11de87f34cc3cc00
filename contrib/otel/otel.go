// Package hbaseotel traces go-hbase calls with OpenTelemetry (go.opentelemetry.io/otel). It is a
// module of its own, so that the client does not depend on OpenTelemetry:
//
//	hooks, err := hbaseotel.NewHooks() // the global TracerProvider and propagator by default
//	if err != nil {
//		return err
//	}
//	client, err := hbase.NewClient(quorum, hbase.WithHooks(hooks))
//	if err != nil {
//		return err
//	}
//	defer client.Close()
//
// Each call (Get, Put, Scan, Batch for a SendBatch, and every admin.Admin method:
// CreateTable, ListTables...) is one client span named "<op> <table>" ("<op>" when it is about
// no one table), with the standard database attributes (db.system.name and db.system
// "hbase", db.operation.name, db.collection.name, db.namespace), the server of its last
// attempt (a region server, or the master for most Admin calls) as server.address and
// server.port (network.peer.* too), the region, the attempt count, and error.type (the
// hberr.Class) on failure. The hbase:meta reads of an Admin call (Regions, finding a region)
// are spans of their own under its span. Each retry is a span event "retry" (the failed attempt's
// server and error class) and each pause an event "backoff". The span's trace context goes to
// the servers in every RPC's RequestHeader (RPCTInfo.headers, W3C traceparent), so that the
// spans of an HBase 2.5+ server with tracing enabled join the caller's trace.
package hbaseotel

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/hbasetrace"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the spans.
const ScopeName = "github.com/go-hbase/hbase/contrib/otel"

// Option configures NewHooks.
type Option func(*options) error

type options struct {
	provider   trace.TracerProvider
	propagator propagation.TextMapPropagator
}

// WithTracerProvider sets the provider of the tracer (default: otel.GetTracerProvider()).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *options) error {
		if tp == nil {
			return errors.New("hbaseotel: nil TracerProvider")
		}
		o.provider = tp
		return nil
	}
}

// WithPropagator sets how the trace context is written into the RPCs' headers (default:
// otel.GetTextMapPropagator(), or W3C trace context if that propagates nothing).
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(o *options) error {
		if p == nil {
			return errors.New("hbaseotel: nil propagator")
		}
		o.propagator = p
		return nil
	}
}

// NewHooks returns the hooks that trace a client's calls; give them to hbase.NewClient with
// hbase.WithHooks. It fails only on a bad option.
func NewHooks(opts ...Option) (*hbasetrace.Hooks, error) {
	var o options
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("hbaseotel: nil Option")
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	if o.provider == nil {
		o.provider = otel.GetTracerProvider()
	}
	if o.propagator == nil {
		o.propagator = otel.GetTextMapPropagator()
		if len(o.propagator.Fields()) == 0 {
			o.propagator = propagation.TraceContext{}
		}
	}
	t := &tracer{tr: o.provider.Tracer(ScopeName), prop: o.propagator}
	return &hbasetrace.Hooks{
		CallStart: t.start,
		CallDone:  t.done,
		Retry:     t.retry,
		Backoff:   t.backoff,
	}, nil
}

type tracer struct {
	tr   trace.Tracer
	prop propagation.TextMapPropagator
}

var (
	systemName = semconv.DBSystemNameHBase
	systemOld  = attribute.String("db.system", "hbase") // semantic conventions before 1.30
)

func (t *tracer) start(ctx context.Context, ev hbasetrace.CallStartInfo) context.Context {
	name := ev.Op
	attrs := []attribute.KeyValue{systemName, systemOld, semconv.DBOperationName(ev.Op)}
	if ev.Table != "" {
		name += " " + ev.Table
		ns, _, found := strings.Cut(ev.Table, ":")
		if !found {
			ns = "default"
		}
		attrs = append(attrs, semconv.DBCollectionName(ev.Table), semconv.DBNamespace(ns))
	}
	ctx, _ = t.tr.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	carrier := propagation.MapCarrier{}
	t.prop.Inject(ctx, carrier)
	if traced, err := hbasetrace.ContextWithTraceHeaders(ctx, carrier); err == nil {
		ctx = traced
	}
	return ctx
}

func (t *tracer) done(ctx context.Context, ev hbasetrace.CallDoneInfo) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		span.End()
		return
	}
	attrs := []attribute.KeyValue{attribute.Int("hbase.attempts", ev.Attempts)}
	if ev.Server != "" {
		attrs = append(attrs, serverAttrs(ev.Server)...)
	}
	if ev.Region != nil {
		attrs = append(attrs, attribute.String("hbase.region", string(ev.Region)))
	}
	if ev.Err != nil {
		attrs = append(attrs, semconv.ErrorTypeKey.String(ev.Class))
		span.RecordError(ev.Err)
		span.SetStatus(codes.Error, ev.Err.Error())
	}
	span.SetAttributes(attrs...)
	span.End()
}

// serverAttrs are the server and peer attributes of "host:port".
func serverAttrs(addr string) []attribute.KeyValue {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return []attribute.KeyValue{semconv.ServerAddress(addr)}
	}
	p, _ := strconv.Atoi(port)
	return []attribute.KeyValue{semconv.ServerAddress(host), semconv.ServerPort(p),
		semconv.NetworkPeerAddress(host), semconv.NetworkPeerPort(p)}
}

func (t *tracer) retry(ctx context.Context, ev hbasetrace.RetryInfo) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	attrs := []attribute.KeyValue{attribute.Int("hbase.attempt", ev.Attempt),
		semconv.ErrorTypeKey.String(ev.Class), attribute.Bool("hbase.relocate", ev.Relocate)}
	if ev.Server != "" {
		attrs = append(attrs, attribute.String("server.address", ev.Server))
	}
	if ev.Err != nil {
		attrs = append(attrs, attribute.String("exception.message", ev.Err.Error()))
	}
	span.AddEvent("retry", trace.WithAttributes(attrs...))
}

func (t *tracer) backoff(ctx context.Context, ev hbasetrace.BackoffInfo) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	attrs := []attribute.KeyValue{attribute.Int64("hbase.backoff_ms", ev.Pause.Milliseconds()),
		attribute.Int("hbase.backoff_count", ev.Count)}
	switch {
	case ev.Overloaded:
		attrs = append(attrs, attribute.String("hbase.backoff_reason", "overloaded"))
	case ev.Backpressure:
		attrs = append(attrs, attribute.String("hbase.backoff_reason", "backpressure"),
			attribute.String("server.address", ev.Server))
	}
	span.AddEvent("backoff", trace.WithAttributes(attrs...))
}
