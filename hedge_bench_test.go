package hbase

import (
	"context"
	"testing"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
)

// BenchmarkGetTimelinePrompt and BenchmarkGetStrongPrompt: Gets from 8 goroutines against a
// server that answers at once with a prepared response, a region with one secondary replica
// (rarely asked: the primary answers within the delay). cpu-ns/op is the process's CPU per
// Get, the server's share included, so the difference between the two is what a Timeline
// Get costs the client more than a Strong one.
func BenchmarkGetTimelinePrompt(b *testing.B) { benchGetPrompt(b, hrpc.Timeline) }
func BenchmarkGetStrongPrompt(b *testing.B)   { benchGetPrompt(b, hrpc.Strong) }

func benchGetPrompt(b *testing.B, cons hrpc.ConsistencyLevel) {
	row := []byte("row")
	c := startLeanGetServer(b, row)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	strong, _ := hrpc.NewGet([]byte("t"), row)
	if _, err := c.Get(ctx, strong); err != nil {
		b.Fatal(err)
	}
	r := c.cache.get([]byte("t"), row)
	r.setReplicas([]*regionInfo{{table: r.table, start: r.start, end: r.end, name: []byte("t,,10001_0001"), id: r.id,
		replicaID: 1, addr: r.location()}})
	b.SetParallelism(4) // 8 goroutines on 2 cores
	b.ReportAllocs()
	cpu0, _ := cputime.Self()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		g, _ := hrpc.NewGet([]byte("t"), row, hrpc.Consistency(cons))
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
	// A goroutine of the 8 may wait past the delay for a core now and then.
	b.ReportMetric(float64(c.Stats().HedgesSent)/float64(b.N), "hedges/op")
}
