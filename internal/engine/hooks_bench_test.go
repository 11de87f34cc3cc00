package engine

import (
	"context"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// noopHooks sets every hook to a function that does nothing: the cost of the events alone.
func noopHooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		CallStart:   func(ctx context.Context, _ hbasetrace.CallStartInfo) context.Context { return ctx },
		CallDone:    func(context.Context, hbasetrace.CallDoneInfo) {},
		Attempt:     func(context.Context, hbasetrace.AttemptInfo) {},
		Retry:       func(context.Context, hbasetrace.RetryInfo) {},
		Backoff:     func(context.Context, hbasetrace.BackoffInfo) {},
		RegionCache: func(context.Context, hbasetrace.RegionCacheInfo) {},
		Lookup:      func(hbasetrace.LookupInfo) {},
		Dial:        func(hbasetrace.DialInfo) {},
		Connect:     func(hbasetrace.ConnectInfo) {},
		ConnClosed:  func(hbasetrace.ConnClosedInfo) {},
		ScanMetrics: func(context.Context, hbasetrace.ScanMetricsInfo) {},
	}
}

// BenchmarkGetObserved: one Get at a time against the fake server, the same process and
// server for every variant: "bare" has neither hooks nor latency histograms, "latency" the
// default histograms, "hooks" no-op hooks on every event as well. Differences between the
// variants are the client's (the fake server's allocations are in every figure).
func BenchmarkGetObserved(b *testing.B) { benchGetObserved(b, false) }

// BenchmarkGetObservedParallel is BenchmarkGetObserved with GOMAXPROCS callers at once, who
// share the latency histogram of the one server.
func BenchmarkGetObservedParallel(b *testing.B) { benchGetObserved(b, true) }

func benchGetObserved(b *testing.B, parallel bool) {
	fc := &fakeCluster{regions: []fakeRegion{{table: "t", start: "", end: "", id: 1}}}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: fc.handle})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	fc.srv = srv
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	meta := withMetaLocator(func(context.Context) (string, error) { return srv.Addr(), nil })
	variants := []struct {
		name string
		opts []Option
	}{
		{"bare", []Option{meta, WithServerLatency(false)}},
		{"latency", []Option{meta}},
		{"hooks", []Option{meta, WithHooks(noopHooks())}},
	}
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx := context.Background()
	for _, v := range variants {
		c, err := NewClient("", v.opts...)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Get(ctx, get); err != nil {
			b.Fatal(err)
		}
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			if parallel {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, err := c.Get(ctx, get); err != nil {
							b.Error(err)
							return
						}
					}
				})
				return
			}
			for b.Loop() {
				if _, err := c.Get(ctx, get); err != nil {
					b.Fatal(err)
				}
			}
		})
		c.Close()
	}
}

// BenchmarkLatencyRecord: recording one RPC in the histogram of its server and kind, by
// GOMAXPROCS callers at once on the same histogram (the worst case).
func BenchmarkLatencyRecord(b *testing.B) {
	l := newLatencies()
	l.record("rs1:16020", kindGet, time.Millisecond)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		d := 250 * time.Microsecond
		for pb.Next() {
			l.record("rs1:16020", kindGet, d)
		}
	})
}
