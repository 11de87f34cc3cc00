package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// TestBatchConnectionLostAfterSend: a connection that breaks once a batch's MultiRequest is
// sent makes its CheckAndMutate indeterminate (sent again, its condition could be judged on
// its own effect), while its Put and Increment (nonce) are sent again and applied.
func TestBatchConnectionLostAfterSend(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var conditional []bool // per Multi: did it carry a conditional region action
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		cond := false
		for _, ra := range req.GetRegionAction() {
			cond = cond || ra.GetCondition() != nil
		}
		fc.mu.Lock()
		conditional = append(conditional, cond)
		fc.mu.Unlock()
		if n == 1 {
			return fakeserver.Response{CloseConn: true}
		}
		resp := fc.multi(n, req)
		for _, rar := range resp.Msg.(*pb.MultiResponse).RegionActionResult {
			rar.Processed = proto.Bool(true)
		}
		return resp
	}
	c := fc.client(t)
	ctx := testContext(t, 10*time.Second)
	put, _ := hrpc.NewPut("t", []byte("a"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	cam, _ := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("f"), []byte("q")), put)
	inc, _ := hrpc.NewIncrement("t", []byte("b"), hrpc.Amount([]byte("f"), []byte("n"), 1))
	res := c.SendBatch(ctx, []hrpc.Batchable{put, cam, inc})
	if res[0].Err != nil || res[2].Err != nil {
		t.Errorf("Put: %v, Increment: %v; want both applied on the second try", res[0].Err, res[2].Err)
	}
	if !errors.Is(res[1].Err, hberr.ErrIndeterminate) || res[1].Applied {
		t.Errorf("CheckAndMutate across the lost connection: %v, applied %v; want hberr.ErrIndeterminate", res[1].Err, res[1].Applied)
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if len(conditional) != 2 || !conditional[0] || conditional[1] {
		t.Errorf("Multis (conditional region action in each): %v; want [true false]", conditional)
	}
}
