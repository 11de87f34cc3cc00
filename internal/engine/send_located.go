package engine

import (
	"context"

	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// RegionSpan is the region that answered a call: its name and key range (start inclusive, end
// exclusive; empty end: the table's last region). The slices are the region cache's: read
// only.
type RegionSpan struct {
	Name, Start, End []byte
}

// SendLocated is Send that also returns the region whose answer it returns. A call made for
// one region of a range (a coprocessor endpoint's, package coprocessor) learns from it whether
// that region split or merged before the call reached it: retried like any call, it went to
// the region now holding its key, which may cover less or more of the range than the region
// it was meant for.
func (c *Client) SendLocated(ctx context.Context, call wire.Call) (proto.Message, []byte, RegionSpan, error) {
	run := &callRun{call: call}
	var resp proto.Message
	var cells []byte
	var err error
	if c.observing() {
		o := NewCallObs(c, call.Op(), call.TableName(), call.Key())
		ctx = o.Begin(ctx)
		resp, cells, err = c.run(ctx, run, &o)
		o.End(ctx, err)
	} else {
		resp, cells, err = c.run(ctx, run, nil)
	}
	if err != nil || run.prev == nil {
		return resp, cells, RegionSpan{}, err
	}
	return resp, cells, RegionSpan{Name: run.prev.name, Start: run.prev.start, End: run.prev.end}, nil
}
