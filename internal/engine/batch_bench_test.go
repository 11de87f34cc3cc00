package engine

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
	"github.com/go-hbase/hbase/internal/pb"
)

// BenchmarkSendBatchPuts: one SendBatch of 100 Puts to the in-process fake server, per op.
func BenchmarkSendBatchPuts(b *testing.B) {
	fc := newFakeCluster(b, fakeRegion{table: "t", id: 1})
	c := fc.client(b)
	calls := make([]hrpc.Batchable, 100)
	for i := range calls {
		p, err := hrpc.NewPut("t", fmt.Appendf(nil, "row%03d", i), hrpc.Value([]byte("f"), []byte("q"), make([]byte, 100)))
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

// leanBatchRows is the batch of the lean benchmarks: about a 2 MiB flush of Puts of PE keys and
// 100-byte values (make bench-java's buffered workloads).
const leanBatchRows = 4096

// startLeanMultiServer serves table "t" from a server that answers every call as a region
// server answers a MultiRequest of n Puts indexed 0 to n-1 in one region action (an empty
// Result each), and allocates nothing per call: B/op and allocs/op are the client's.
func startLeanMultiServer(tb testing.TB, n int) *Client {
	rar := &pb.RegionActionResult{}
	for i := range n {
		rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(uint32(i)), Result: &pb.Result{}})
	}
	c := startLeanRegionServer(tb, &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar}}, nil)
	// The region in the cache first: parallel lookups of a cold cache may each file it anew,
	// and the batch then has one region action per copy.
	if _, _, err := c.findRegion(tb.Context(), "t", nil, false); err != nil {
		tb.Fatal(err)
	}
	return c
}

func leanPuts(tb testing.TB, n int) []*hrpc.Put {
	puts := make([]*hrpc.Put, n)
	value := make([]byte, 100)
	for i := range puts {
		p, err := hrpc.NewPut("t", fmt.Appendf(nil, "%026d", i*7919%n), hrpc.Value([]byte("info"), []byte("data"), value))
		if err != nil {
			tb.Fatal(err)
		}
		puts[i] = p
	}
	return puts
}

// BenchmarkSendBatchPutsLean: one SendBatch of leanBatchRows Puts against a server that
// allocates nothing, per op; ns/row is the client's CPU time per row.
func BenchmarkSendBatchPutsLean(b *testing.B) {
	c := startLeanMultiServer(b, leanBatchRows)
	calls := make([]hrpc.Batchable, leanBatchRows)
	for i, p := range leanPuts(b, leanBatchRows) {
		calls[i] = p
	}
	ctx := b.Context()
	b.ReportAllocs()
	cpu0, _ := cputime.Self()
	for b.Loop() {
		for _, r := range c.SendBatch(ctx, calls) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/leanBatchRows, "ns/row")
	cpu1, _ := cputime.Self()
	b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N)/leanBatchRows, "cpu-ns/row")
}
