package engine

import (
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// A server that closed a connection nobody was reading (region's lone reading: the next call
// finds it dead before writing, region.ErrNotSent) does not make a CheckAndMutate
// indeterminate: it was never sent, so it is sent on a new connection.
func TestCheckAndMutateAfterIdleConnectionClosedIsSent(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMutate = func(int64, *pb.MutateRequest) fakeserver.Response {
		return fakeserver.Response{Msg: &pb.MutateResponse{Processed: proto.Bool(true)}}
	}
	c := fc.client(t)
	put, _ := hrpc.NewPut("t", []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("x")))
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("f"), []byte("q")), put)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 10*time.Second)
	for i := range 3 {
		if ok, err := c.CheckAndMutate(ctx, cam); err != nil || !ok {
			t.Fatalf("CheckAndMutate %d = %v, %v", i, ok, err)
		}
		fc.srv.DropConnections()
		time.Sleep(5 * time.Millisecond) // the end reaches the client; region's idle watch is 50 ms
	}
	if n := fc.mutates.Load(); n != 3 {
		t.Errorf("%d Mutates reached the server, want 3", n)
	}
}
