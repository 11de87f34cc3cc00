package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
)

// The buffered writer's benchmarks, on the engine's fake servers (export_test.go): package
// bufwriter's tests cannot reach them, and these benchmarks stay those of the writer's
// history (docs/benchmarks.md).

// writerEntrySize is package bufwriter's bytes per buffered mutation beside its HeapSize
// (writerEntrySize there): the lean benchmark sizes its flushes with it.
const writerEntrySize = 96

// client is a client of the fake cluster whose hbase:meta is at metaAddr, closed when the
// benchmark ends; lean: with the latency histograms off and the region cached, as the lean
// benchmarks' clients are (startLeanMultiServer).
func client(tb testing.TB, metaAddr string, lean bool) *hbase.Client {
	tb.Helper()
	locate := func(o *engine.Config) error {
		o.LocateMeta = func(context.Context) (string, error) { return metaAddr, nil }
		o.ServerLatency = !lean
		return nil
	}
	c, err := hbase.NewClient("", locate)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	if !lean {
		return c
	}
	// Parallel lookups of a cold cache may each file the region anew, and a batch then has
	// one region action per copy.
	if err := engine.Of(c).Warm(tb.Context(), "t"); err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkBufferedWriterPut: one Write of a Put through a BufferedWriter (flushes of 100
// Puts sent to the in-process fake server), per op; the last flush is in the time.
func BenchmarkBufferedWriterPut(b *testing.B) {
	c := client(b, engine.FakeTable(b), false)
	puts := make([]*hrpc.Put, 1000)
	for i := range puts {
		p, err := hrpc.NewPut("t", fmt.Appendf(nil, "row%03d", i), hrpc.Value([]byte("f"), []byte("q"), make([]byte, 100)))
		if err != nil {
			b.Fatal(err)
		}
		puts[i] = p
	}
	ctx := context.Background()
	w, err := bufwriter.New(c, "t", bufwriter.WithFlushCount(100), bufwriter.WithOnOutcome(func(o bufwriter.Outcome) {
		if o.Err != nil {
			b.Error(o.Err)
		}
	}))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := w.Write(ctx, puts[i%len(puts)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if err := w.Close(ctx); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBufferedWriterPutLean: one Write of a Put through a BufferedWriter whose flushes of
// leanBatchRows Puts go to a server that allocates nothing, per op, with room for 4 flushes;
// cpu-ns/row is the process's CPU time per row (the flushes' goroutines included).
func BenchmarkBufferedWriterPutLean(b *testing.B) {
	c := client(b, engine.LeanMultiTable(b, engine.LeanBatchRows), true)
	puts := engine.LeanPuts(b, engine.LeanBatchRows)
	var batch int64
	for _, p := range puts {
		batch += int64(hrpcwire.Batchable(p).(interface{ HeapSize() int }).HeapSize()) + writerEntrySize
	}
	ctx := b.Context()
	w, err := bufwriter.New(c, "t", bufwriter.WithFlushCount(engine.LeanBatchRows), bufwriter.WithFlushBytes(2*batch),
		bufwriter.WithWriteBuffer(4*batch), bufwriter.WithOnOutcome(func(o bufwriter.Outcome) {
			if o.Err != nil {
				b.Error(o.Err)
			}
		}))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0, _ := cputime.Self()
	i := 0
	for b.Loop() {
		if err := w.Write(ctx, puts[i%len(puts)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	// The server answers whole flushes only.
	for ; i%len(puts) != 0; i++ {
		if err := w.Write(ctx, puts[i%len(puts)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		b.Fatal(err)
	}
	cpu1, _ := cputime.Self()
	b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(i), "cpu-ns/row")
}
