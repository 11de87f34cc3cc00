package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// multiRPC is one MultiRequest of a batch to one server, and what became of its actions: the
// calls to retry, whether a backoff is due before, and the results and errors filed in the
// batch's slices.
type multiRPC struct {
	c       *Client
	sb      *serverBatch
	calls   []hrpc.Batchable
	results []hrpc.BatchResult
	last    []error
	// maybe, when not nil, gets the calls that may have been applied without a definite
	// answer (sendBatch).
	maybe []bool
	// sent lists the calls of each region action, in the request's order.
	sent      [][]int
	retry     []int
	needPause bool
}

// sendMulti sends one MultiRequest to one server and files each action's result or error. It
// returns the calls to retry and whether a backoff is due before retrying them. maybe, when
// not nil, gets the calls that may have been applied without a definite answer (sendBatch).
func (c *Client) sendMulti(ctx context.Context, sb *serverBatch, calls []hrpc.Batchable,
	results []hrpc.BatchResult, last []error, maybe []bool) (retry []int, needPause bool) {
	m := &multiRPC{c: c, sb: sb, calls: calls, results: results, last: last, maybe: maybe}
	bufs, _ := c.multiBufs.Get().(*multiBuffers)
	req, cellblock := m.encode(bufs)
	if len(m.sent) == 0 {
		return nil, false
	}
	if err := c.paceBatch(ctx, sb, calls); err != nil {
		m.notSent(err) // the context ended while the writes waited for their server's load
		return m.retry, false
	}
	resp := &pb.MultiResponse{}
	// The response's results are decoded in blocks kept for the next batches: nothing of resp
	// is kept once this function returns (the results are copied into hrpc.Results). The
	// decoder is taken when the answer is in (multiCheck.Decode), not for the wait: with a
	// decoder held by every flush in flight, their blocks were a third of a buffered
	// writer's live heap.
	dec := new(*wire.MultiDecoder)
	defer c.releaseMultiDecoder(dec)
	x := batchExtras(calls, m.sent)
	// The request's buffers go back to the pool as soon as region has copied them into the
	// frame: held until the answer, each flush in flight was twice in memory.
	x.Encoded = func() { c.keepMultiBuffers(bufs, req, cellblock) }
	cells, err := c.callMulti(ctx, sb.conn, x, req, cellblock, resp, multiCheck{calls, m.sent, c, dec})
	c.noteRPC(err)
	switch {
	case err != nil:
		m.failedWhole(ctx, err)
	case len(resp.GetRegionActionResult()) != len(m.sent):
		m.markAll()
		m.fail(ctx, -1, fmt.Errorf("%w: MultiResponse has %d region results for %d region actions",
			wire.ErrBadResponse, len(resp.GetRegionActionResult()), len(m.sent)))
	default:
		c.noteLoad(sb.conn, resp)
		m.read(ctx, resp, cells)
	}
	return m.retry, m.needPause
}

// encode builds the MultiRequest of the batch's actions for the server, one region action per
// region (a CheckAndMutate or RowMutations an atomic one of its own), in bufs when not nil.
func (m *multiRPC) encode(bufs *multiBuffers) (req, cellblock []byte) {
	var multi wire.Multi
	if bufs != nil {
		multi.Reuse(bufs.msg, bufs.cellblock)
	}
	multi.Grow(multiSize(m.sb, m.calls))
	m.sent = make([][]int, 0, len(m.sb.regions))
	for _, r := range m.sb.regions {
		multi.Region(r.name, len(m.sb.actions[r]))
		idx := make([]int, 0, len(m.sb.actions[r]))
		var atomic []int
		for _, i := range m.sb.actions[r] {
			if isAtomic(m.calls[i]) {
				atomic = append(atomic, i)
				continue
			}
			if err := multi.Add(wireOf(m.calls[i]), uint32(i)); err != nil {
				m.results[i].Err = err
				continue
			}
			idx = append(idx, i)
		}
		if len(idx) > 0 {
			m.sent = append(m.sent, idx)
		}
		// After the region's other actions, in the order of the request (wire.Multi.AddAtomic).
		m.sent = addAtomic(&multi, r.name, atomic, m.calls, m.results, m.sent)
	}
	return multi.Request()
}

// notSent files err for every action: none was sent, each is retried.
func (m *multiRPC) notSent(err error) {
	for _, idx := range m.sent {
		for _, i := range idx {
			m.last[i] = err
			m.retry = append(m.retry, i)
		}
	}
}

// failedWhole files the error of the RPC for every action. A request never written, or
// refused whole by the server (an exception in the response header: queue full, server
// stopping...), was not applied; otherwise each action may have been.
func (m *multiRPC) failedWhole(ctx context.Context, err error) {
	timedOut := ctx.Err() != nil && errors.Is(err, ctx.Err())
	if timedOut {
		// The batch got no answer in its time: check that the server still answers, as after
		// a single call (suspect).
		m.c.suspect(m.sb.regions[0], m.sb.conn)
	}
	if _, refused := errors.AsType[*hberr.RemoteError](err); !refused && !errors.Is(err, region.ErrNotSent) {
		m.markAll()
	}
	m.fail(ctx, -1, err)
	if timedOut {
		// What the deadline ended, for the actions' errors (as a single call names it).
		noAnswer := fmt.Errorf("no answer from %s", m.sb.conn.Addr())
		for _, idx := range m.sent {
			for _, i := range idx {
				m.last[i] = noAnswer
			}
		}
	}
}

// mark records that action i may have been applied.
func (m *multiRPC) mark(i int) {
	if m.maybe != nil {
		m.maybe[i] = true
	}
}

// markAll marks every action sent.
func (m *multiRPC) markAll() {
	for _, idx := range m.sent {
		for _, i := range idx {
			m.mark(i)
		}
	}
}

// fail files err for every call of region action k (all of them when k < 0): an action not
// safe to send again after a corrupt answer or a lost connection is indeterminate, a final
// error is its result, anything else is retried; the regions are taken out of service when
// err calls for it.
func (m *multiRPC) fail(ctx context.Context, k int, err error) {
	regions := m.sent
	if k >= 0 {
		regions = m.sent[k : k+1]
	}
	act := Classify(err)
	corrupt := errors.Is(err, hberr.ErrCorruptResponse)
	lost := k < 0 && errors.Is(err, hberr.ErrConnection) && !errors.Is(err, region.ErrNotSent)
	for _, idx := range regions {
		for _, i := range idx {
			m.last[i] = err
			w := wireOf(m.calls[i])
			switch {
			case corrupt && !safeToResend(w), lost && !resendableAfterLoss(w):
				m.results[i].Err = indeterminate(err)
			case act == GiveUp && ctx.Err() == nil && !m.c.IsClosed():
				m.results[i].Err = err
			default:
				m.retry = append(m.retry, i)
			}
		}
	}
	switch act {
	case Relocate, PauseAndRelocate:
		for j := range m.sent {
			if k < 0 || j == k {
				m.c.regionFailed(m.sb.regionOf(m.sent[j][0], m.calls), m.sb.conn, err)
			}
		}
		m.needPause = m.needPause || act == PauseAndRelocate
	case Pause:
		m.needPause = true
	}
}

// read files the results of a MultiResponse the server answered.
func (m *multiRPC) read(ctx context.Context, resp *pb.MultiResponse, cells []byte) {
	rd := wire.NewCellReader(cells)
	// answer[i] says where action i stands in this response: sent in the region action being
	// read, then answered. One slice for the response, not a set per region action: a flush of
	// a buffered writer puts thousands of actions in one region action, and a search of them
	// per result was quadratic.
	answer := make([]uint8, len(m.calls))
	for k, rar := range resp.GetRegionActionResult() {
		switch {
		case rar.GetException() != nil:
			m.fail(ctx, k, wire.ActionException(rar.GetException()))
		case isAtomic(m.calls[m.sent[k][0]]):
			m.readAtomic(ctx, k, rar, rd)
		default:
			m.readRegion(ctx, k, rar, rd, answer)
		}
	}
}

// readAtomic files the result of the atomic region action k (a CheckAndMutate or RowMutations).
func (m *multiRPC) readAtomic(ctx context.Context, k int, rar *pb.RegionActionResult, rd *wire.CellReader) {
	i := m.sent[k][0]
	res, applied, ex, err := atomicResult(rar, rd)
	switch {
	case ex != nil:
		m.fail(ctx, k, ex) // the region action failed whole: nothing of it was applied
	case err != nil:
		m.mark(i)
		m.results[i].Err = indeterminate(err)
	default:
		m.results[i].Result, m.results[i].Applied = res, applied && isCheckAndMutate(m.calls[i])
	}
}

// readRegion files the results of region action k: each action's result or exception; an
// action the server did not answer is a corrupt response.
func (m *multiRPC) readRegion(ctx context.Context, k int, rar *pb.RegionActionResult, rd *wire.CellReader, answer []uint8) {
	for _, i := range m.sent[k] {
		answer[i] = actionSent
	}
	relocated := false
	var block []hrpc.Result
	for j, roe := range rar.GetResultOrException() {
		i := int(roe.GetIndex())
		if roe.Index == nil || i >= len(m.calls) || answer[i] != actionSent {
			// The server answered: each action of the region may have been applied. Every
			// one of them is now retried or failed.
			for _, j := range m.sent[k] {
				m.mark(j)
			}
			m.fail(ctx, k, fmt.Errorf("%w: MultiResponse has a result for unknown action %d",
				wire.ErrBadResponse, roe.GetIndex()))
			return
		}
		answer[i] = actionAnswered
		if ex := roe.GetException(); ex != nil {
			relocated = m.actionFailed(i, wire.ActionException(ex), relocated)
			continue
		}
		// The Results of a region action come in one block: a flush of Puts gets thousands
		// of empty ones. A Result kept by the caller keeps its block.
		if len(block) == 0 {
			block = make([]hrpc.Result, len(rar.GetResultOrException())-j)
		}
		res := &block[0]
		block = block[1:]
		if err := hrpcwire.ParseResultInto(res, roe.GetResult(), rd); err != nil {
			m.mark(i) // applied, its result unreadable
			m.results[i].Err = err
			continue
		}
		m.results[i].Result = res
	}
	for _, i := range m.sent[k] {
		if answer[i] != actionAnswered && m.results[i].Err == nil && m.results[i].Result == nil {
			m.mark(i)
			m.results[i].Err = fmt.Errorf("%w: MultiResponse has no result for action %d", wire.ErrBadResponse, i)
		}
	}
}

// actionFailed files the exception of action i: a final one is its result; one that calls
// for a relocation takes its region out of service (once per region action: relocated says
// whether it was) and retries it; anything else is retried after a pause.
func (m *multiRPC) actionFailed(i int, err error, relocated bool) bool {
	m.last[i] = err
	switch Classify(err) {
	case GiveUp:
		m.results[i].Err = err
	case Relocate, PauseAndRelocate:
		if !relocated {
			m.c.regionFailed(m.sb.regionOf(i, m.calls), m.sb.conn, err)
			relocated = true
		}
		m.retry = append(m.retry, i)
	default:
		m.retry, m.needPause = append(m.retry, i), true
	}
	return relocated
}

// releaseMultiDecoder gives the decoder multiCheck.Decode took, if it took one, back to the
// client's pool.
func (c *Client) releaseMultiDecoder(dec **wire.MultiDecoder) {
	if d := *dec; d != nil {
		d.Release()
		c.multiDecoders.Put(d)
	}
}

// multiBuffers are the buffers of a sent MultiRequest, for the next one.
type multiBuffers struct{ msg, cellblock []byte }

// maxKeptMultiBuffer bounds the buffers kept (a buffered writer's flush to one server is
// megabytes: 2 MiB by default).
const maxKeptMultiBuffer = 16 << 20

// keepMultiBuffers keeps the buffers of a MultiRequest for the next batches, once region
// copied them into the request's frame (region.Extras.Encoded): nothing refers to them any
// more. bufs, when not nil, is the holder to reuse.
func (c *Client) keepMultiBuffers(bufs *multiBuffers, msg, cellblock []byte) {
	if cap(msg) > maxKeptMultiBuffer || cap(cellblock) > maxKeptMultiBuffer {
		return
	}
	if bufs == nil {
		bufs = new(multiBuffers)
	}
	bufs.msg, bufs.cellblock = msg[:0], cellblock[:0]
	c.multiBufs.Put(bufs)
}

// multiSize is about the cellblock and the message of sb's mutations in a MultiRequest: the
// cellblock from their EncodedSize (which counts their row and message too), the message from
// their rows and mutationMessageSize each.
func multiSize(sb *serverBatch, calls []hrpc.Batchable) (cellblock, msg int) {
	for _, r := range sb.regions {
		for _, i := range sb.actions[r] {
			w := wireOf(calls[i])
			if s, ok := w.(interface{ EncodedSize() int }); ok {
				cellblock += s.EncodedSize()
				msg += len(w.Key()) + mutationMessageSize
			}
		}
	}
	return cellblock, msg
}

// mutationMessageSize is about what an action of a Put of one cell weighs in a MultiRequest
// besides its row: index, type, timestamp, cell count and lengths.
const mutationMessageSize = 32

// Where an action stands in a MultiResponse being read (sendMulti).
const (
	actionSent     = 1
	actionAnswered = 2
)

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// multiCheck checks a MultiResponse against the actions of its request before it is decoded
// (region.Checker): each action's result holds cells of that action's row only, as many as
// announced, and the cellblock holds nothing else. sent lists the calls of each region action,
// in the request's order; the results of an atomic region action (indexed from 0) are its one
// call's.
type multiCheck struct {
	calls []hrpc.Batchable
	sent  [][]int
	c     *Client
	// dec gets the decoder Decode takes from c.multiDecoders, for the caller to give back
	// (nil: none was taken).
	dec **wire.MultiDecoder
}

// Decode decodes a MultiResponse without an allocation per result (region.Decoder), in the
// blocks of a decoder kept from the batches before.
func (m multiCheck) Decode(msg []byte, resp proto.Message) error {
	if mr, ok := resp.(*pb.MultiResponse); ok {
		d, _ := m.c.multiDecoders.Get().(*wire.MultiDecoder)
		if d == nil {
			d = new(wire.MultiDecoder)
		}
		*m.dec = d
		return d.Decode(msg, mr)
	}
	return proto.Unmarshal(msg, resp)
}

func (m multiCheck) CheckResponse(resp proto.Message, cells []byte) error {
	calls := m.calls
	mr, ok := resp.(*pb.MultiResponse)
	if !ok {
		return fmt.Errorf("%w: %T for a MultiRequest", wire.ErrBadResponse, resp)
	}
	var rd wire.CellReader
	rd.Reset(cells)
	for k, rar := range mr.GetRegionActionResult() {
		atomicCall := -1
		if k < len(m.sent) && isAtomic(calls[m.sent[k][0]]) {
			atomicCall = m.sent[k][0]
		}
		for _, roe := range rar.GetResultOrException() {
			if roe.Result == nil {
				continue
			}
			i := int(roe.GetIndex())
			if atomicCall >= 0 {
				i = atomicCall
			} else if roe.Index == nil || i >= len(calls) {
				return fmt.Errorf("%w: result for unknown action %d", wire.ErrBadResponse, roe.GetIndex())
			}
			if err := wire.CheckResult(roe.Result, &rd, wireOf(calls[i]).Key()); err != nil {
				return fmt.Errorf("action %d: %w", i, err)
			}
		}
	}
	if n := rd.Remaining(); n > 0 {
		return fmt.Errorf("%w: %d cellblock bytes after the cells the results announce", wire.ErrBadResponse, n)
	}
	return nil
}
