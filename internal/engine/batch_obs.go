package engine

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// batchOp names a SendBatch in every event and series: its call, each of its MultiRequests
// (Attempt, ServerLatency), its retries. An operation is named as the caller knows it, never
// by its wire method: a Put is sent as "Mutate" and a MutateRow as "Multi" too, so "Multi"
// would not say which call the RPCs belong to.
const batchOp = "Batch"

// batchObs follows one SendBatch for the hooks. Its MultiRequests run in parallel, one per
// server, so its counts are atomic.
type batchObs struct {
	attempts          atomic.Int64
	retries           atomic.Int64
	reqBytes, rspByte atomic.Int64
}

type batchObsKey struct{}

// observeBatch runs the CallStart hooks of a batch and returns its context and the function
// that runs CallDone once its results are final. A batch's error, for the hooks, is the first
// failed action's error; Class is "ok" only when every action succeeded.
func (c *Client) observeBatch(ctx context.Context, results []hrpc.BatchResult) (context.Context, func()) {
	bo := &batchObs{}
	o := NewCallObs(c, batchOp, "", nil)
	ctx = o.Begin(ctx)
	ctx = context.WithValue(ctx, batchObsKey{}, bo)
	return ctx, func() {
		var err error
		for _, r := range results {
			if r.Err != nil {
				err = r.Err
				break
			}
		}
		o.attempts, o.retries = int(bo.attempts.Load()), int(bo.retries.Load())
		o.reqTotal, o.respTotal = int(bo.reqBytes.Load()), int(bo.rspByte.Load())
		o.End(ctx, err)
	}
}

// batchRetried reports the actions of a batch that will be tried again (again indexes calls),
// one Retry event each, as Stats counts them. Attempt is the action's count of failed tries.
func (c *Client) batchRetried(ctx context.Context, calls []hrpc.Batchable, again, tries []int, last []error) {
	if c.Hooks == nil || len(again) == 0 {
		return
	}
	if bo, ok := ctx.Value(batchObsKey{}).(*batchObs); ok {
		bo.retries.Add(int64(len(again)))
	}
	if c.Hooks.Retry == nil {
		return
	}
	for _, i := range again {
		w := wireOf(calls[i])
		act := Classify(last[i])
		c.Hooks.Retry(ctx, hbasetrace.RetryInfo{Op: batchOp, Table: w.TableName(), Row: w.Key(),
			Attempt: tries[i], Err: last[i], Class: hberr.Class(last[i]),
			Relocate: act == Relocate || act == PauseAndRelocate})
	}
}

// callMulti sends one MultiRequest, timing it for the latency histograms and the hooks.
func (c *Client) callMulti(ctx context.Context, conn *region.Client, x region.Extras, req, cellblock []byte,
	resp *pb.MultiResponse, check region.Checker) ([]byte, error) {
	if !c.observing() {
		return conn.CallEncoded(ctx, x, "Multi", req, cellblock, resp, check)
	}
	// Sized before the call: used after it, the request would stay reachable during the wait,
	// with the megabytes of a buffered writer's flush (region drops it once encoded).
	reqBytes := 0
	if c.Hooks != nil {
		reqBytes = len(req) + len(cellblock)
	}
	start := time.Now()
	cells, err := conn.CallEncoded(ctx, x, "Multi", req, cellblock, resp, check)
	d := time.Since(start)
	if c.lat != nil {
		c.lat.record(conn.Addr(), kindBatch, d)
	}
	if c.Hooks == nil {
		return cells, err
	}
	respBytes := 0
	if err == nil {
		respBytes = proto.Size(resp) + len(cells)
	}
	n := int64(1)
	if bo, ok := ctx.Value(batchObsKey{}).(*batchObs); ok {
		n = bo.attempts.Add(1)
		bo.reqBytes.Add(int64(reqBytes))
		bo.rspByte.Add(int64(respBytes))
	}
	if c.Hooks.Attempt != nil {
		c.Hooks.Attempt(ctx, hbasetrace.AttemptInfo{Op: batchOp, Server: conn.Addr(), Attempt: int(n),
			Duration: d, RequestBytes: reqBytes, ResponseBytes: respBytes, Err: err, Class: hberr.Class(err)})
	}
	return cells, err
}
