package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// maxParallelLookups bounds the region lookups one batch runs at once on a cold cache.
const maxParallelLookups = 16

// SendBatch sends calls (Gets and mutations, on any tables) and returns one result per call,
// in the same order. Calls are grouped by region and then by region server: each server gets
// one MultiRequest, and the servers are called in parallel. Actions that fail with a
// retryable error are retried on their own, after a re-lookup of their region or a backoff,
// until ctx ends or their maximum number of attempts is reached (WithMaxAttempts,
// hrpc.MaxAttempts: each failed try of an action counts); actions that fail for good get
// their own error. A CheckAndMutate or RowMutations is an atomic region action of its own in
// its server's MultiRequest (HBase 2.4 or later); as in a single call, it is not sent again
// once its connection broke after it was sent: its error then wraps hberr.ErrIndeterminate.
// Gets of consistency hrpc.Timeline are sent one by one as hedged Gets.
func (c *Client) SendBatch(ctx context.Context, calls []hrpc.Batchable) []hrpc.BatchResult {
	return c.SendBatchSent(ctx, calls, nil)
}

// SendBatchSent is SendBatch. With sent (one flag per call) it also says which calls may have
// been applied although they failed: a try reached the server and got no definite answer (the
// connection broke or the context ended after the request was written, the response was bad),
// and their errors then wrap hberr.ErrIndeterminate (the buffered writer's outcomes).
func (c *Client) SendBatchSent(ctx context.Context, calls []hrpc.Batchable, sent []bool) []hrpc.BatchResult {
	results := make([]hrpc.BatchResult, len(calls))
	pending := make([]int, 0, len(calls))
	for i, call := range calls {
		if call == nil {
			results[i].Err = fmt.Errorf("%w: nil call at index %d", hberr.ErrBadRequest, i)
			continue
		}
		pending = append(pending, i)
	}
	if c.IsClosed() {
		for _, i := range pending {
			results[i].Err = OpError(wireOf(calls[i]), hberr.ErrClosed)
		}
		return results
	}
	if c.Hooks != nil {
		var done func()
		ctx, done = c.observeBatch(ctx, results)
		defer done()
	}
	pending, waitTimeline := c.timelineBatch(ctx, calls, pending, results)
	b := c.NewBackoff()
	last := make([]error, len(calls))
	tries := make([]int, len(calls))
	rounds := 0
	for len(pending) > 0 {
		if ctx.Err() != nil || c.IsClosed() {
			break
		}
		servers, again, needPause := c.groupBatch(ctx, calls, pending, results, last)
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, sb := range servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				retry, p := c.sendMulti(ctx, sb, calls, results, last, sent)
				mu.Lock()
				again = append(again, retry...)
				needPause = needPause || p
				mu.Unlock()
			}()
		}
		wg.Wait()
		pending = c.countAttempts(calls, again, tries, last, results)
		c.stats.retries.Add(uint64(len(pending)))
		c.batchRetried(ctx, calls, pending, tries, last)
		rounds++
		// The first retry of moved regions is immediate; later rounds are paced, and last
		// at least as long as a throttled action's server asked. An action asked to wait
		// past the batch's deadline fails now, as a single call does.
		var wait time.Duration
		overloaded := false
		kept := pending[:0]
		for _, i := range pending {
			w := serverWait(last[i])
			if early := waitPastDeadline(ctx, w, last[i]); early != nil {
				a := attempts{n: tries[i]}
				results[i].Err = a.withCount(early)
				continue
			}
			wait = max(wait, w)
			overloaded = overloaded || hberr.IsOverloaded(last[i])
			kept = append(kept, i)
		}
		pending = kept
		if len(pending) > 0 && (needPause || rounds > 1) && b.sleepFor(ctx, wait, overloaded) != nil {
			break
		}
	}
	for _, i := range pending {
		switch {
		case c.IsClosed():
			results[i].Err = hberr.ErrClosed
		default:
			a := attempts{n: tries[i]}
			results[i].Err = a.withCount(CtxErr(ctx, last[i]))
		}
	}
	waitTimeline()
	for i := range results {
		if err := results[i].Err; err != nil && calls[i] != nil {
			if sent != nil && sent[i] && !errors.Is(err, hberr.ErrIndeterminate) {
				err = indeterminate(err)
			}
			results[i].Err = OpError(wireOf(calls[i]), err)
		}
	}
	return results
}

// countAttempts counts one more failed attempt for each call of again (the calls to retry)
// and returns those whose maximum number of attempts is not reached yet; the others get an
// *hberr.AttemptsError.
func (c *Client) countAttempts(calls []hrpc.Batchable, again, tries []int, last []error, results []hrpc.BatchResult) []int {
	keep := again[:0]
	for _, i := range again {
		tries[i]++
		if max := c.attemptCap(wireOf(calls[i])); max > 0 && tries[i] >= max {
			results[i].Err = &hberr.AttemptsError{Attempts: tries[i], Last: last[i]}
			continue
		}
		keep = append(keep, i)
	}
	return keep
}

// serverBatch is what one MultiRequest to one server carries: calls grouped by region.
type serverBatch struct {
	conn    *region.Client
	regions []*regionInfo
	actions map[*regionInfo][]int
}

// groupBatch finds the region of every pending call (cache first, then parallel lookups) and
// groups the calls by server. Calls whose region lookup failed for good get their error;
// those that failed transiently are returned to retry, with pause set if a backoff is due.
func (c *Client) groupBatch(ctx context.Context, calls []hrpc.Batchable, pending []int,
	results []hrpc.BatchResult, last []error) (servers map[*region.Client]*serverBatch, again []int, needPause bool) {
	servers = make(map[*region.Client]*serverBatch)
	add := func(i int, r *regionInfo, conn *region.Client) {
		sb := servers[conn]
		if sb == nil {
			sb = &serverBatch{conn: conn, actions: make(map[*regionInfo][]int)}
			servers[conn] = sb
		}
		if _, ok := sb.actions[r]; !ok {
			sb.regions = append(sb.regions, r)
		}
		sb.actions[r] = append(sb.actions[r], i)
	}
	var slow []int
	// Consecutive rows of a batch often fall in one region (a flush of sorted or few-region
	// writes): the last region found is tried before the cache's tree and its lock.
	var lastR *regionInfo
	var lastConn *region.Client
	for _, i := range pending {
		table, key := wireOf(calls[i]).Table(), wireOf(calls[i]).Key()
		if lastR != nil && lastR.contains(key) && bytes.Equal(lastR.table, table) {
			add(i, lastR, lastConn)
			continue
		}
		if r := c.cache.get(table, key); r != nil {
			if conn, _, _ := r.state(); conn != nil {
				add(i, r, conn)
				lastR, lastConn = r, conn
				continue
			}
		}
		slow = append(slow, i)
	}
	if len(slow) == 0 {
		return servers, nil, false
	}
	type found struct {
		r    *regionInfo
		conn *region.Client
		err  error
	}
	out := make([]found, len(slow))
	sem := make(chan struct{}, maxParallelLookups)
	var wg sync.WaitGroup
	for j, i := range slow {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r, conn, err := c.findRegion(ctx, wireOf(calls[i]).Table(), wireOf(calls[i]).Key(), false)
			out[j] = found{r, conn, err}
		}()
	}
	wg.Wait()
	for j, i := range slow {
		f := out[j]
		if f.err == nil {
			add(i, f.r, f.conn)
			continue
		}
		last[i] = f.err
		switch Classify(f.err) {
		case GiveUp:
			if ctx.Err() != nil {
				again = append(again, i) // reported as the context's error
			} else {
				results[i].Err = f.err
			}
		default:
			again, needPause = append(again, i), true
		}
	}
	return servers, again, needPause
}

// sendMulti sends one MultiRequest to one server and files each action's result or error. It
// returns the calls to retry and whether a backoff is due before retrying them. maybe, when
// not nil, gets the calls that may have been applied without a definite answer (sendBatch).
func (c *Client) sendMulti(ctx context.Context, sb *serverBatch, calls []hrpc.Batchable,
	results []hrpc.BatchResult, last []error, maybe []bool) (retry []int, needPause bool) {
	mark := func(i int) {
		if maybe != nil {
			maybe[i] = true
		}
	}
	var multi wire.Multi
	bufs, _ := c.multiBufs.Get().(*multiBuffers)
	if bufs != nil {
		multi.Reuse(bufs.msg, bufs.cellblock)
	}
	multi.Grow(multiSize(sb, calls))
	sent := make([][]int, 0, len(sb.regions))
	for _, r := range sb.regions {
		multi.Region(r.name, len(sb.actions[r]))
		idx := make([]int, 0, len(sb.actions[r]))
		var atomic []int
		for _, i := range sb.actions[r] {
			if isAtomic(calls[i]) {
				atomic = append(atomic, i)
				continue
			}
			if err := multi.Add(wireOf(calls[i]), uint32(i)); err != nil {
				results[i].Err = err
				continue
			}
			idx = append(idx, i)
		}
		if len(idx) > 0 {
			sent = append(sent, idx)
		}
		// After the region's other actions, in the order of the request (wire.Multi.AddAtomic).
		sent = addAtomic(&multi, r.name, atomic, calls, results, sent)
	}
	req, cellblock := multi.Request()
	if len(sent) == 0 {
		return nil, false
	}
	if err := c.paceBatch(ctx, sb, calls); err != nil {
		// The context ended while the writes waited for their server's load: none was sent.
		for _, idx := range sent {
			for _, i := range idx {
				last[i] = err
				retry = append(retry, i)
			}
		}
		return retry, false
	}
	resp := &pb.MultiResponse{}
	// The response's results are decoded in blocks kept for the next batches: nothing of resp
	// is kept once this function returns (the results are copied into hrpc.Results). The
	// decoder is taken when the answer is in (multiCheck.Decode), not for the wait: with a
	// decoder held by every flush in flight, their blocks were a third of a buffered
	// writer's live heap.
	dec := new(*wire.MultiDecoder)
	defer func() {
		if d := *dec; d != nil {
			d.Release()
			c.multiDecoders.Put(d)
		}
	}()
	x := batchExtras(calls, sent)
	// The request's buffers go back to the pool as soon as region has copied them into the
	// frame: held until the answer, each flush in flight was twice in memory.
	x.Encoded = func() { c.keepMultiBuffers(bufs, req, cellblock) }
	cells, err := c.callMulti(ctx, sb.conn, x, req, cellblock, resp, multiCheck{calls, sent, c, dec})
	c.noteRPC(err)
	// failAll files err for every call of region k (all regions when k < 0).
	fail := func(k int, err error) {
		regions := sent
		if k >= 0 {
			regions = sent[k : k+1]
		}
		act := Classify(err)
		corrupt := errors.Is(err, hberr.ErrCorruptResponse)
		lost := k < 0 && errors.Is(err, hberr.ErrConnection) && !errors.Is(err, region.ErrNotSent)
		for _, idx := range regions {
			for _, i := range idx {
				last[i] = err
				if (corrupt && !safeToResend(wireOf(calls[i]))) || (lost && !resendableAfterLoss(wireOf(calls[i]))) {
					results[i].Err = indeterminate(err)
				} else if act == GiveUp && ctx.Err() == nil && !c.IsClosed() {
					results[i].Err = err
				} else {
					retry = append(retry, i)
				}
			}
		}
		switch act {
		case Relocate, PauseAndRelocate:
			for j := range sent {
				if k < 0 || j == k {
					c.regionFailed(sb.regionOf(sent[j][0], calls), sb.conn, err)
				}
			}
			needPause = needPause || act == PauseAndRelocate
		case Pause:
			needPause = true
		}
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			// The batch got no answer in its time: check that the server still answers,
			// as after a single call (suspect).
			c.suspect(sb.regions[0], sb.conn)
		}
		// A request never written, or refused whole by the server (an exception in the
		// response header: queue full, server stopping...), was not applied.
		if _, refused := errors.AsType[*hberr.RemoteError](err); !refused && !errors.Is(err, region.ErrNotSent) {
			for _, idx := range sent {
				for _, i := range idx {
					mark(i)
				}
			}
		}
		fail(-1, err)
		return retry, needPause
	}
	if len(resp.GetRegionActionResult()) != len(sent) {
		for _, idx := range sent {
			for _, i := range idx {
				mark(i)
			}
		}
		fail(-1, fmt.Errorf("%w: MultiResponse has %d region results for %d region actions",
			wire.ErrBadResponse, len(resp.GetRegionActionResult()), len(sent)))
		return retry, needPause
	}
	c.noteLoad(sb.conn, resp)
	rd := wire.NewCellReader(cells)
	// answer[i] says where action i stands in this response: sent in the region action being
	// read, then answered. One slice for the response, not a set per region action: a flush of
	// a buffered writer puts thousands of actions in one region action, and a search of them
	// per result was quadratic.
	answer := make([]uint8, len(calls))
	for k, rar := range resp.GetRegionActionResult() {
		if ex := rar.GetException(); ex != nil {
			fail(k, wire.ActionException(ex))
			continue
		}
		if i := sent[k][0]; isAtomic(calls[i]) {
			res, applied, ex, err := atomicResult(rar, rd)
			switch {
			case ex != nil:
				fail(k, ex) // the region action failed whole: nothing of it was applied
			case err != nil:
				mark(i)
				results[i].Err = indeterminate(err)
			default:
				results[i].Result, results[i].Applied = res, applied && isCheckAndMutate(calls[i])
			}
			continue
		}
		for _, i := range sent[k] {
			answer[i] = actionSent
		}
		relocated, failed := false, false
		var block []hrpc.Result
		for j, roe := range rar.GetResultOrException() {
			i := int(roe.GetIndex())
			if roe.Index == nil || i >= len(calls) || answer[i] != actionSent {
				// The server answered: each action of the region may have been applied.
				// Every one of them is now retried or failed.
				for _, j := range sent[k] {
					mark(j)
				}
				fail(k, fmt.Errorf("%w: MultiResponse has a result for unknown action %d",
					wire.ErrBadResponse, roe.GetIndex()))
				failed = true
				break
			}
			answer[i] = actionAnswered
			if ex := roe.GetException(); ex != nil {
				err := wire.ActionException(ex)
				last[i] = err
				switch Classify(err) {
				case GiveUp:
					results[i].Err = err
				case Relocate, PauseAndRelocate:
					if !relocated {
						c.regionFailed(sb.regionOf(i, calls), sb.conn, err)
						relocated = true
					}
					retry = append(retry, i)
				default:
					retry, needPause = append(retry, i), true
				}
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
				mark(i) // applied, its result unreadable
				results[i].Err = err
				continue
			}
			results[i].Result = res
		}
		for _, i := range sent[k] {
			if !failed && answer[i] != actionAnswered && results[i].Err == nil && results[i].Result == nil {
				mark(i)
				results[i].Err = fmt.Errorf("%w: MultiResponse has no result for action %d",
					wire.ErrBadResponse, i)
			}
		}
	}
	return retry, needPause
}

// wireOf is the wire side of a call of a batch (hrpc keeps it out of its API). Taken at each
// use rather than once for the batch: a slice of them would be one more allocation per batch.
func wireOf(call hrpc.Batchable) wire.Batchable { return hrpcwire.Batchable(call) }

func (sb *serverBatch) regionOf(i int, calls []hrpc.Batchable) *regionInfo {
	for _, r := range sb.regions {
		if contains(sb.actions[r], i) {
			return r
		}
	}
	return nil
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
