package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
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
// and their errors then wrap hberr.ErrIndeterminate (the buffered writer's outcomes). Without
// it, only the calls not safe to send twice (CheckAndMutate, RowMutations, Append, Increment)
// that may have been applied are indeterminate, as a single call is.
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
	maybe := sent
	if maybe == nil && anyUnsafe(calls, pending) {
		maybe = make([]bool, len(calls))
	}
	b := c.NewBackoff()
	last := make([]error, len(calls))
	tries := make([]int, len(calls))
	rounds := 0
	for len(pending) > 0 {
		if ctx.Err() != nil || c.IsClosed() {
			break
		}
		again, needPause := c.sendRound(ctx, calls, pending, results, last, maybe)
		pending = c.countAttempts(calls, again, tries, last, results)
		c.stats.retries.Add(uint64(len(pending)))
		c.batchRetried(ctx, calls, pending, tries, last)
		rounds++
		var wait time.Duration
		var overloaded bool
		pending, wait, overloaded = retryWait(ctx, pending, tries, last, results)
		// The first retry of moved regions is immediate; later rounds are paced.
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
	finishBatch(calls, results, maybe, sent != nil)
	return results
}

// sendRound sends one round of a batch: the pending calls grouped by server, one
// MultiRequest per server at once. It returns the calls to try again and whether the next
// round must pause first.
func (c *Client) sendRound(ctx context.Context, calls []hrpc.Batchable, pending []int,
	results []hrpc.BatchResult, last []error, maybe []bool) (again []int, needPause bool) {
	servers, again, needPause := c.groupBatch(ctx, calls, pending, results, last)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, sb := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			retry, p := c.sendMulti(ctx, sb, calls, results, last, maybe)
			mu.Lock()
			again = append(again, retry...)
			needPause = needPause || p
			mu.Unlock()
		}()
	}
	wg.Wait()
	return again, needPause
}

// retryWait returns the calls of pending that will be tried again and how long the next
// round must wait: at least as long as a throttled action's server asked. An action asked to
// wait past the batch's deadline fails now, as a single call does.
func retryWait(ctx context.Context, pending, tries []int, last []error,
	results []hrpc.BatchResult) (kept []int, wait time.Duration, overloaded bool) {
	kept = pending[:0]
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
	return kept, wait, overloaded
}

// finishBatch gives each failed call its final error: a bad answer matches
// hberr.ErrCorruptResponse, a call that may have been applied is indeterminate (every such
// call when the caller tracks what was sent, else those not safe to send twice), and each
// error names its call.
func finishBatch(calls []hrpc.Batchable, results []hrpc.BatchResult, maybe []bool, tracked bool) {
	for i := range results {
		err := results[i].Err
		if err == nil || calls[i] == nil {
			continue
		}
		if errors.Is(err, wire.ErrBadResponse) && !errors.Is(err, hberr.ErrCorruptResponse) {
			// An answer of the wrong shape found after its frame was read (a
			// MultiResponse whose results do not match the actions): the public
			// sentinel of every integrity failure.
			err = fmt.Errorf("%w: %w", hberr.ErrCorruptResponse, err)
		}
		if maybe != nil && maybe[i] && (tracked || !safeToResend(wireOf(calls[i]))) &&
			!errors.Is(err, hberr.ErrIndeterminate) {
			err = indeterminate(err)
		}
		results[i].Err = OpError(wireOf(calls[i]), err)
	}
}

// anyUnsafe reports whether a call of pending is not safe to send twice.
func anyUnsafe(calls []hrpc.Batchable, pending []int) bool {
	for _, i := range pending {
		if !safeToResend(wireOf(calls[i])) {
			return true
		}
	}
	return false
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
			r, conn, err := c.findRegion(ctx, wireOf(calls[i]).TableName(), wireOf(calls[i]).Key(), false)
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
