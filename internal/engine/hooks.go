package engine

import (
	"context"

	"github.com/go-hbase/hbase/hbasetrace"
)

// combineHooks returns one hbasetrace.Hooks that calls every hook of hs; nil for none.
func combineHooks(hs []*hbasetrace.Hooks) *hbasetrace.Hooks {
	switch len(hs) {
	case 0:
		return nil
	case 1:
		h := *hs[0]
		return &h
	}
	var out hbasetrace.Hooks
	for _, h := range hs {
		out.CallStart = chainStart(out.CallStart, h.CallStart)
		out.CallDone = chainCtx(out.CallDone, h.CallDone)
		out.Attempt = chainCtx(out.Attempt, h.Attempt)
		out.Retry = chainCtx(out.Retry, h.Retry)
		out.Backoff = chainCtx(out.Backoff, h.Backoff)
		out.RegionCache = chainCtx(out.RegionCache, h.RegionCache)
		out.ScanMetrics = chainCtx(out.ScanMetrics, h.ScanMetrics)
		out.WriterFlush = chainCtx(out.WriterFlush, h.WriterFlush)
		out.Hedge = chainCtx(out.Hedge, h.Hedge)
		out.Lookup = chain(out.Lookup, h.Lookup)
		out.Dial = chain(out.Dial, h.Dial)
		out.Connect = chain(out.Connect, h.Connect)
		out.ConnClosed = chain(out.ConnClosed, h.ConnClosed)
	}
	return &out
}

func chainStart(a, b func(context.Context, hbasetrace.CallStartInfo) context.Context) func(context.Context, hbasetrace.CallStartInfo) context.Context {
	if a == nil || b == nil {
		if a == nil {
			return b
		}
		return a
	}
	return func(ctx context.Context, ev hbasetrace.CallStartInfo) context.Context { return b(a(ctx, ev), ev) }
}

func chainCtx[E any](a, b func(context.Context, E)) func(context.Context, E) {
	if a == nil || b == nil {
		if a == nil {
			return b
		}
		return a
	}
	return func(ctx context.Context, ev E) { a(ctx, ev); b(ctx, ev) }
}

func chain[E any](a, b func(E)) func(E) {
	if a == nil || b == nil {
		if a == nil {
			return b
		}
		return a
	}
	return func(ev E) { a(ev); b(ev) }
}
