package coprocessor

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Result is one region's outcome of CallRegions: the method's response, or the error of the
// call made for that region.
type Result[M proto.Message] struct {
	// Region is the name of the region that answered ("table,start,id.encoded."); for a
	// failure, the region hbase:meta listed for that part of the range (nil for a part a split
	// left, whose region was never reached).
	Region []byte
	// Start and End are the key range of the region that answered (the whole region, which may
	// extend beyond the range asked for); for a failure, the part of the range its call was for.
	// An empty End is the table's end.
	Start, End []byte
	// Response is the method's response, nil when Err is set.
	Response M
	// Err is the region's error: an *hberr.OpError whose Row is Start.
	Err error
}

// CallRegions calls method m with request req on every region of table holding rows of
// [start, stop) (an empty start: from the table's first row; an empty stop: to its end), up
// to WithConcurrency regions at once, and returns one Result per region in key order, each
// response a new message of type M:
//
//	results, err := coprocessor.CallRegions[*examplepb.CountResponse](ctx, client, "t", nil, nil, m, req)
//
// A region that fails does not stop the others: its Result holds its error, the others their
// responses, and the error returned is then an *hberr.RegionsError that unwraps to every
// region's error. Each region's call is retried as a Get is; a region that split before its
// call reached it is answered by its daughters, one Result each, and regions that merged
// answer once. The error is also returned, without results, when the table's regions cannot
// be read from hbase:meta or the arguments are wrong (hberr.ErrBadRequest; start after stop).
// M must be a generated message type (a pointer to a struct of protoc-gen-go).
//
//snippets:text results, err := coprocessor.CallRegions
func CallRegions[M proto.Message](ctx context.Context, c *hbase.Client, table string, start, stop []byte, m Method, req proto.Message, opts ...Option) ([]Result[M], error) {
	o, e, request, err := prepare(c, table, m, req, opts)
	if err == nil && len(stop) > 0 && bytes.Compare(start, stop) > 0 {
		err = fmt.Errorf("coprocessor: %w: start row %q after stop row %q", hberr.ErrBadRequest, start, stop)
	}
	if err == nil {
		_, err = newMessage[M]()
	}
	if err != nil {
		return nil, &hberr.OpError{Op: m.String(), Table: table, Row: start, Err: err}
	}
	if len(stop) > 0 && bytes.Equal(start, stop) {
		return nil, nil // an empty range holds no region's rows
	}
	regions, err := e.MetaRegions(ctx, table)
	if err != nil {
		return nil, &hberr.OpError{Op: m.String(), Table: table, Row: start, Err: fmt.Errorf("reading the regions from hbase:meta: %w", engine.UserError(err))}
	}
	rc := &rangeCall[M]{send: e.SendLocated, table: table, m: m, request: request, o: o, queue: cut(regions, start, stop)}
	rc.run(ctx)
	slices.SortFunc(rc.results, func(a, b Result[M]) int { return bytes.Compare(a.Start, b.Start) })
	var errs []error
	for _, r := range rc.results {
		if r.Err != nil {
			errs = append(errs, r.Err)
		}
	}
	if len(errs) > 0 {
		return rc.results, &hberr.RegionsError{Op: m.String(), Table: table, Regions: len(rc.results), Errs: errs}
	}
	return rc.results, nil
}

// piece is a part of the range that one call covers, at least in part: from start (the key
// the call is routed by) to end (empty: the table's end).
type piece struct {
	region     []byte // the region hbase:meta listed for it; nil for what a split left
	start, end []byte
}

// cut divides [start, stop) at the ends of the regions: contiguous pieces covering the whole
// range, even where hbase:meta shows a hole (a region in transition), whose calls are routed
// to whatever region then holds their start.
func cut(regions []*hrpc.Region, start, stop []byte) []piece {
	var out []piece
	cur := start
	for _, r := range regions {
		if len(r.End) > 0 && bytes.Compare(r.End, cur) <= 0 {
			continue // before the range
		}
		if len(stop) > 0 && bytes.Compare(r.Start, stop) >= 0 {
			break
		}
		end := r.End
		if len(stop) > 0 && (len(end) == 0 || bytes.Compare(end, stop) > 0) {
			end = stop
		}
		p := piece{start: cur, end: end}
		if r.Contains(cur) {
			p.region = r.Name
		}
		out = append(out, p)
		cur = end
		if len(end) == 0 || bytes.Equal(end, stop) {
			return out
		}
	}
	return append(out, piece{start: cur, end: stop}) // after the last region hbase:meta listed
}

// rangeCall is one CallRegions: the pieces left to call and the results so far, under mu.
type rangeCall[M proto.Message] struct {
	send    func(context.Context, wire.Call) (proto.Message, []byte, engine.RegionSpan, error) // the engine's SendLocated
	table   string
	m       Method
	request []byte
	o       options

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []piece
	inflight int
	results  []Result[M]
	answered map[string]bool // the regions whose response is in results
}

// run calls every piece with o.concurrency workers; a call whose region covered less than its
// piece (a split) queues the rest.
func (rc *rangeCall[M]) run(ctx context.Context) {
	rc.cond = sync.NewCond(&rc.mu)
	rc.answered = make(map[string]bool)
	var wg sync.WaitGroup
	for range min(rc.o.concurrency, len(rc.queue)) {
		wg.Go(func() { rc.work(ctx) })
	}
	wg.Wait()
}

func (rc *rangeCall[M]) work(ctx context.Context) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for {
		for len(rc.queue) == 0 && rc.inflight > 0 {
			rc.cond.Wait()
		}
		if len(rc.queue) == 0 {
			return
		}
		p := rc.queue[0]
		rc.queue = rc.queue[1:]
		rc.inflight++
		rc.mu.Unlock()
		res, rest := rc.one(ctx, p)
		rc.mu.Lock()
		rc.inflight--
		if res.Err != nil || !rc.answered[string(res.Region)] {
			rc.results = append(rc.results, res)
			if res.Err == nil {
				rc.answered[string(res.Region)] = true
			}
		}
		if rest != nil {
			rc.queue = append(rc.queue, *rest)
		}
		rc.cond.Broadcast()
	}
}

// one calls piece p and returns its result, and the part of p the region that answered does
// not hold (nil when none).
func (rc *rangeCall[M]) one(ctx context.Context, p piece) (Result[M], *piece) {
	call := wire.NewExecCall(rc.table, p.start, rc.m.Service, rc.m.Name, rc.request, rc.o.idempotent)
	failed := func(err error) (Result[M], *piece) {
		return Result[M]{Region: p.region, Start: p.start, End: p.end, Err: engine.OpError(call, err)}, nil
	}
	msg, _, span, err := rc.send(ctx, call)
	if err != nil {
		return failed(err)
	}
	if len(span.End) > 0 && bytes.Compare(span.End, p.start) <= 0 {
		// Cannot be: the region the call was routed to holds p.start.
		return failed(wire.BadResponse("region %q ends at %q, before the row %q it was called for", span.Name, span.End, p.start))
	}
	resp, err := newMessage[M]()
	if err == nil {
		err = decode(rc.m, msg, resp)
	}
	if err != nil {
		return failed(err)
	}
	res := Result[M]{Region: bytes.Clone(span.Name), Start: bytes.Clone(span.Start), End: bytes.Clone(span.End), Response: resp}
	if len(span.End) > 0 && (len(p.end) == 0 || bytes.Compare(span.End, p.end) < 0) {
		return res, &piece{start: bytes.Clone(span.End), end: p.end}
	}
	return res, nil
}

// newMessage returns a new, empty message of type M, which must be a generated message type.
func newMessage[M proto.Message]() (m M, err error) {
	defer func() {
		if recover() != nil {
			err = fmt.Errorf("coprocessor: %w: response type %T is not a generated message type", hberr.ErrBadRequest, m)
		}
	}()
	var zero M
	t := zero.ProtoReflect().Type()
	if t == nil {
		return m, fmt.Errorf("coprocessor: %w: response type %T has no message type", hberr.ErrBadRequest, zero)
	}
	return t.New().Interface().(M), nil
}
