package engine

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// TestBatchResponseWithBadIndexes: a MultiResponse whose results do not match the actions
// sent is not taken for the actions' answers, at any size of region action (the matching is
// linear: a flush of a buffered writer sends thousands of actions to one region).
//   - a result twice: that action fails with ErrBadResponse, and so may the others of its
//     region action (whichever were not answered before the duplicate);
//   - a result of an action not sent: the response check refuses the response as corrupt and
//     the Puts are sent again;
//   - a result missing: that action fails with ErrBadResponse, the others succeed.
func TestBatchResponseWithBadIndexes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spoil  func(roes []*pb.ResultOrException) ([]*pb.ResultOrException, int)
		multis int64
	}{
		{"duplicate", func(r []*pb.ResultOrException) ([]*pb.ResultOrException, int) {
			return append(r, r[0]), int(r[0].GetIndex())
		}, 1},
		{"unknown index", func(r []*pb.ResultOrException) ([]*pb.ResultOrException, int) {
			r[len(r)/2] = &pb.ResultOrException{Index: proto.Uint32(1 << 30), Result: r[len(r)/2].Result}
			return r, -2
		}, 2},
		{"missing", func(r []*pb.ResultOrException) ([]*pb.ResultOrException, int) {
			return r[:len(r)-1], int(r[len(r)-1].GetIndex())
		}, 1},
	} {
		for _, n := range []int{3, 5000} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, n), func(t *testing.T) {
				fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
				var spoiled int // the action answered wrongly; -2: none
				fc.onMulti = func(k int64, req *pb.MultiRequest) fakeserver.Response {
					resp := fc.multi(k, req)
					if k == 1 {
						rar := resp.Msg.(*pb.MultiResponse).RegionActionResult[0]
						rar.ResultOrException, spoiled = tc.spoil(rar.ResultOrException)
					}
					return resp
				}
				c := fc.client(t)
				calls := make([]hrpc.Batchable, n)
				for i := range calls {
					p, err := hrpc.NewPut("t", fmt.Appendf(nil, "row%05d", i), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
					if err != nil {
						t.Fatal(err)
					}
					calls[i] = p
				}
				res := c.SendBatch(testContext(t, 10*time.Second), calls)
				failed := 0
				for i, r := range res {
					if tc.name == "duplicate" && errors.Is(r.Err, wire.ErrBadResponse) && errors.Is(r.Err, hberr.ErrCorruptResponse) {
						failed++
						continue
					}
					if i == spoiled {
						if !errors.Is(r.Err, wire.ErrBadResponse) || !errors.Is(r.Err, hberr.ErrCorruptResponse) {
							t.Fatalf("action %d: %v, want ErrBadResponse and hberr.ErrCorruptResponse", i, r.Err)
						}
						failed++
					} else if r.Err != nil {
						t.Fatalf("action %d: %v", i, r.Err)
					}
				}
				if got := fc.multis.Load(); got != tc.multis {
					t.Errorf("%d Multis, want %d", got, tc.multis)
				}
				t.Logf("%d of %d actions failed", failed, n)
			})
		}
	}
}

// A MultiResponse with fewer region results than the request has region actions fails every
// action with an error that matches hberr.ErrCorruptResponse, the public sentinel of every
// integrity failure; a CheckAndMutate among them may have been applied: indeterminate.
func TestBatchRegionCountMismatchIsCorrupt(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "m", id: 1}, fakeRegion{table: "t", start: "m", end: "", id: 2})
	fc.onMulti = func(k int64, req *pb.MultiRequest) fakeserver.Response {
		resp := fc.multi(k, req)
		mr := resp.Msg.(*pb.MultiResponse)
		mr.RegionActionResult = mr.RegionActionResult[:len(mr.RegionActionResult)-1]
		return resp
	}
	c := fc.client(t)
	put := func(row string) *hrpc.Put {
		p, err := hrpc.NewPut("t", []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("f"), []byte("q")), put("b"))
	if err != nil {
		t.Fatal(err)
	}
	res := c.SendBatch(testContext(t, 10*time.Second), []hrpc.Batchable{put("a"), put("z"), cam})
	for i, r := range res {
		if !errors.Is(r.Err, hberr.ErrCorruptResponse) {
			t.Errorf("call %d: %v; want hberr.ErrCorruptResponse", i, r.Err)
		}
	}
	if !errors.Is(res[2].Err, hberr.ErrIndeterminate) {
		t.Errorf("CheckAndMutate: %v; want hberr.ErrIndeterminate: it may have been applied", res[2].Err)
	}
}
