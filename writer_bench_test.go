package hbase

import (
	"context"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/hrpc"
)

// BenchmarkSendBatchPuts: one SendBatch of 100 Puts to the in-process fake server, per op.
func BenchmarkSendBatchPuts(b *testing.B) {
	fc := newFakeCluster(b, fakeRegion{table: "t", id: 1})
	c := fc.client(b)
	calls := make([]hrpc.Batchable, 100)
	for i := range calls {
		p, err := hrpc.NewPut([]byte("t"), fmt.Appendf(nil, "row%03d", i), hrpc.Value([]byte("f"), []byte("q"), make([]byte, 100)))
		if err != nil {
			b.Fatal(err)
		}
		calls[i] = p
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range c.SendBatch(ctx, calls) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
}

// BenchmarkBufferedWriterPut: one Write of a Put through a BufferedWriter (flushes of 100
// Puts sent to the in-process fake server), per op; the last flush is in the time.
func BenchmarkBufferedWriterPut(b *testing.B) {
	fc := newFakeCluster(b, fakeRegion{table: "t", id: 1})
	c := fc.client(b)
	puts := make([]*hrpc.Put, 1000)
	for i := range puts {
		p, err := hrpc.NewPut([]byte("t"), fmt.Appendf(nil, "row%03d", i), hrpc.Value([]byte("f"), []byte("q"), make([]byte, 100)))
		if err != nil {
			b.Fatal(err)
		}
		puts[i] = p
	}
	ctx := context.Background()
	w, err := c.NewBufferedWriter("t", WithFlushCount(100), OnOutcome(func(o Outcome) {
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
