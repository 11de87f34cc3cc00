package engine

import (
	"context"
	"testing"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The fake servers of this package's tests, for its external tests (package engine_test:
// the buffered writer's benchmarks, which import package bufwriter).

// FakeTable starts a fake cluster that serves table "t" in one region and returns the address
// of its hbase:meta.
func FakeTable(tb testing.TB) string {
	return newFakeCluster(tb, fakeRegion{table: "t", id: 1}).srv.Addr()
}

// LeanMultiTable is startLeanMultiServer's servers: it returns the address of their hbase:meta.
func LeanMultiTable(tb testing.TB, n int) string {
	rar := &pb.RegionActionResult{}
	for i := range n {
		rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(uint32(i)), Result: &pb.Result{}})
	}
	return startLeanServer(tb, &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar}}, nil)
}

// LeanBatchRows is leanBatchRows.
const LeanBatchRows = leanBatchRows

// LeanPuts is leanPuts.
func LeanPuts(tb testing.TB, n int) []*hrpc.Put { return leanPuts(tb, n) }

// Warm caches the region of table holding the empty row.
func (c *Client) Warm(ctx context.Context, table string) error {
	_, _, err := c.findRegion(ctx, table, nil, false)
	return err
}
