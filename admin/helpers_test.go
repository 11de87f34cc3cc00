package admin

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
)

// Helpers the root package's tests have too (hooks_test.go, ops_integration_test.go,
// meta_order_test.go).

// eventLog is a hbasetrace.Hooks that writes every event down.
type eventLog struct {
	mu     sync.Mutex
	events []string
	done   []hbasetrace.CallDoneInfo
	tries  []hbasetrace.AttemptInfo
	traced []context.Context
}

type ctxMark struct{}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *eventLog) hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		CallStart: func(ctx context.Context, ev hbasetrace.CallStartInfo) context.Context {
			l.add("start %s %s/%s", ev.Op, ev.Table, ev.Row)
			ctx = context.WithValue(ctx, ctxMark{}, ev.Op)
			ctx, err := hbasetrace.ContextWithTraceHeaders(ctx, map[string]string{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
			if err != nil {
				panic(err)
			}
			return ctx
		},
		CallDone: func(ctx context.Context, ev hbasetrace.CallDoneInfo) {
			l.add("done %s %s", ev.Op, ev.Class)
			l.mu.Lock()
			l.done = append(l.done, ev)
			l.traced = append(l.traced, ctx)
			l.mu.Unlock()
		},
		Attempt: func(ctx context.Context, ev hbasetrace.AttemptInfo) {
			l.add("attempt %s %d %s", ev.Op, ev.Attempt, ev.Class)
			l.mu.Lock()
			l.tries = append(l.tries, ev)
			l.mu.Unlock()
		},
		Retry: func(ctx context.Context, ev hbasetrace.RetryInfo) {
			l.add("retry %s %d %s relocate=%v", ev.Op, ev.Attempt, ev.Class, ev.Relocate)
		},
		Backoff: func(ctx context.Context, ev hbasetrace.BackoffInfo) {
			if ctx.Value(ctxMark{}) != nil { // a call's pause, not a background re-lookup's
				l.add("backoff %d", ev.Count)
			}
		},
		RegionCache: func(ctx context.Context, ev hbasetrace.RegionCacheInfo) { l.add("cache %s hit=%v", ev.Row, ev.Hit) },
		Lookup: func(ev hbasetrace.LookupInfo) {
			l.add("lookup %s/%s err=%v", ev.Table, ev.Row, ev.Err != nil)
		},
		Dial:       func(ev hbasetrace.DialInfo) { l.add("dial err=%v", ev.Err != nil) },
		Connect:    func(ev hbasetrace.ConnectInfo) { l.add("connect err=%v", ev.Err != nil) },
		ConnClosed: func(ev hbasetrace.ConnClosedInfo) { l.add("closed err=%v", ev.Err != nil) },
	}
}

func opsScanAll(t *testing.T, c *hbase.Client, ctx context.Context, table string, opts ...hrpc.ScanOption) []*hrpc.Result {
	t.Helper()
	s := must(t)(hrpc.NewScan(table, opts...))
	var out []*hrpc.Result
	for r, err := range c.Scan(ctx, s) {
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		out = append(out, r)
	}
	return out
}

// must returns the value of a constructor, failing the test on its error.
func must(t *testing.T) func(*hrpc.Scan, error) *hrpc.Scan {
	return func(s *hrpc.Scan, err error) *hrpc.Scan {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// hostileSplits are split keys whose region names do not sort in byte order in hbase:meta:
// below ',' (0x2c), ',' itself and around it, and the top byte.
var hostileSplits = []string{"\x00", "\x00\x01\xff", "\x01", "\x10\xff\x00", "+", ",", ",,", "-", "\xff"}
