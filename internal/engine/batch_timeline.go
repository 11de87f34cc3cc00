package engine

import (
	"context"
	"slices"
	"sync"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
)

// maxParallelTimeline bounds the Timeline Gets of one batch in flight at once.
const maxParallelTimeline = 16

// timelineBatch takes the Gets of consistency Timeline out of a batch's pending calls and
// sends each as a hedged Get of its own (hedge.go), in parallel, filing their results; it
// returns the calls left for the MultiRequests and a function that waits for the Gets, to be
// called before the results are read. A
// MultiRequest goes to one server for all its regions, so it cannot be hedged region by
// region.
func (c *Client) timelineBatch(ctx context.Context, calls []hrpc.Batchable, pending []int, results []hrpc.BatchResult) ([]int, func()) {
	if !slices.ContainsFunc(pending, func(i int) bool { return isTimelineGet(calls[i]) }) {
		return pending, func() {}
	}
	var timeline []int
	kept := pending[:0:0]
	for _, i := range pending {
		if isTimelineGet(calls[i]) {
			timeline = append(timeline, i)
			continue
		}
		kept = append(kept, i)
	}
	if len(timeline) == 0 {
		return pending, func() {}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxParallelTimeline)
	for _, i := range timeline {
		g := calls[i].(*hrpc.Get)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			// The error as it came: SendBatch makes every call's error an OpError.
			call := hrpcwire.Get(g)
			resp, cells, ans, err := c.SendTimeline(ctx, call, "Get")
			if err == nil {
				results[i].Result, err = c.timelineResult(g, resp, cells, ans)
			}
			results[i].Err = err
		})
	}
	return kept, wg.Wait
}

func isTimelineGet(call hrpc.Batchable) bool {
	g, ok := call.(*hrpc.Get)
	return ok && g.Consistency() == hrpc.Timeline
}
