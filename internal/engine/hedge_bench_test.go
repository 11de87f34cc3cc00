package engine

import (
	"context"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// BenchmarkGetTimelinePrompt and BenchmarkGetStrongPrompt: Gets from 8 goroutines against a
// server that answers at once with a prepared response, a region with one secondary replica
// (rarely asked: the primary answers within the delay). cpu-ns/op is the process's CPU per
// Get, the server's share included, so the difference between the two is what a Timeline
// Get costs the client more than a Strong one.
func BenchmarkGetTimelinePrompt(b *testing.B) { benchGetPrompt(b, hrpc.Timeline) }
func BenchmarkGetStrongPrompt(b *testing.B)   { benchGetPrompt(b, hrpc.Strong) }

func benchGetPrompt(b *testing.B, cons hrpc.ConsistencyLevel) {
	b.Run("plain", func(b *testing.B) { benchGetPromptWith(b, cons) })
	// As TestJavaTimelineTargets' clients: a Hedge hook, so every call is observed.
	b.Run("hooks", func(b *testing.B) {
		benchGetPromptWith(b, cons, WithHooks(&hbasetrace.Hooks{Hedge: func(context.Context, hbasetrace.HedgeInfo) {}}))
	})
}

func benchGetPromptWith(b *testing.B, cons hrpc.ConsistencyLevel, opts ...Option) {
	row := []byte("row")
	c := startLeanGetServer(b, row, opts...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	strong, _ := hrpc.NewGet("t", row)
	if _, err := c.Get(ctx, strong); err != nil {
		b.Fatal(err)
	}
	r := c.cache.get([]byte("t"), row)
	r.setReplicas([]*regionInfo{{table: r.table, start: r.start, end: r.end, name: []byte("t,,10001_0001"), id: r.id,
		replicaID: 1, addr: r.location()}})
	runParallelGets(b, c, ctx, func() *hrpc.Get {
		g, _ := hrpc.NewGet("t", row, hrpc.Consistency(cons))
		return g
	})
	// A goroutine of the 8 may wait past the delay for a core now and then.
	b.ReportMetric(float64(c.Stats().HedgesSent)/float64(b.N), "hedges/op")
}

// BenchmarkGetTimelineHedged: Gets from 8 goroutines whose primary answers every tenth one
// after 3 ms (slow=0: at once, the baseline), the secondary at once; the hedge delay is 1 ms and the budget unlimited, so
// about a tenth of the reads are hedged and won by the secondary. the difference of cpu-ns/op
// between the two is what hedges cost the client.
func BenchmarkGetTimelineHedged(b *testing.B) {
	b.Run("slow=0", func(b *testing.B) { benchGetHedged(b, 0) })
	b.Run("slow=3ms", func(b *testing.B) { benchGetHedged(b, 3*time.Millisecond) })
}

func benchGetHedged(b *testing.B, slow time.Duration) {
	sec := startReplicaServer(b, "sec1", 0, "")
	fc := newFakeCluster(b, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n%10 == 0 {
			return primaryAnswer(req, slow)
		}
		return primaryAnswer(req, 0)
	}
	c := fc.client(b, WithHedgeDelay(time.Millisecond), WithHedgeBudget(1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := c.Get(ctx, timelineGet(b, "r", hrpc.Timeline)); err != nil {
		b.Fatal(err)
	}
	runParallelGets(b, c, ctx, func() *hrpc.Get { return timelineGet(b, "r", hrpc.Timeline) })
	s := c.Stats()
	b.ReportMetric(float64(s.HedgesSent)/float64(b.N), "hedges/op")
	b.ReportMetric(float64(s.HedgesWon)/float64(b.N), "won/op")
	b.ReportMetric(float64(s.Dials), "dials")
}

// runParallelGets times c's Gets from 8 goroutines on 2 cores, each sending its own Get made
// by newGet over and over, and reports the process's CPU per Get (cpu-ns/op).
func runParallelGets(b *testing.B, c *Client, ctx context.Context, newGet func() *hrpc.Get) {
	b.SetParallelism(4)
	b.ReportAllocs()
	cpu0, _ := cputime.Self()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		g := newGet()
		for pb.Next() {
			if _, err := c.Get(ctx, g); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	cpu1, _ := cputime.Self()
	b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
