package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// Send sends call to the region holding its key and returns the response, retrying as the
// error calls for until ctx ends or the call's attempts are used up.
func (c *Client) Send(ctx context.Context, call wire.Call) (proto.Message, []byte, error) {
	if c.observing() {
		return c.sendObserved(ctx, call)
	}
	return c.run(ctx, &callRun{call: call}, nil)
}

// callRun is one call through its attempts: what the send loop keeps from one attempt to the
// next. The features' own state stays with them: a call only says where its first attempt
// goes and what may stop it.
type callRun struct {
	call wire.Call
	// first and firstConn, when both set, are where the first attempt goes: the caller found
	// the region in the cache already (a Timeline read's primary, hedge.go).
	first     *regionInfo
	firstConn *region.Client
	// stop, when not nil, ends the call as ctx's end would (a Timeline read's primary once a
	// secondary answered). The first attempt listens for it itself; from a retry or a lookup
	// on, whose waits take contexts only, a context made then carries it (withStop): a call
	// answered at once makes none.
	stop     <-chan struct{}
	stopDone context.CancelFunc // ends the context withStop made

	b           Backoff
	tries       attempts
	last        error       // the latest failure, for the error of a call whose context ends
	prev        *regionInfo // the region of the previous attempt
	relocations int
}

// run is the send loop: find the region, make an attempt, decide what its failure calls for,
// pause, again. o, when not nil, follows the call for the hooks (observe.go); it is not in
// run, whose errors escape, so that it stays on its caller's stack.
func (c *Client) run(ctx context.Context, run *callRun, o *CallObs) (proto.Message, []byte, error) {
	if c.IsClosed() {
		return nil, nil, hberr.ErrClosed
	}
	if run.stop != nil {
		defer run.endStop()
		if run.first == nil || run.firstConn == nil {
			// No first attempt to listen for stop itself: a context carries it from the start.
			ctx = run.withStop(ctx)
		}
	}
	run.b = c.NewBackoff()
	run.tries = attempts{max: c.attemptCap(run.call)}
	for {
		if ctx.Err() != nil {
			return nil, nil, run.tries.withCount(CtxErr(ctx, run.last))
		}
		r, conn, err := c.target(ctx, run)
		if err == nil {
			var resp proto.Message
			var cells []byte
			deadBefore := IsDead(conn)
			if resp, cells, err = c.attempt(ctx, run, o, r, conn); err == nil {
				return resp, cells, nil
			}
			if run.stop != nil {
				ctx = run.withStop(ctx) // lookups and pauses take contexts only
			}
			var end bool
			if end, err = c.afterAttempt(ctx, run, r, conn, deadBefore, err); end {
				return nil, nil, err
			}
		}
		if err = c.retryOrEnd(ctx, run, o, r, conn, err); err != nil {
			return nil, nil, err
		}
	}
}

// target returns where the next attempt goes: the caller's first region, or the region
// holding the call's key (from the cache, waiting while it is relocated). A write to a loaded
// server waits first (WithBackpressure, loadstats.go).
func (c *Client) target(ctx context.Context, run *callRun) (*regionInfo, *region.Client, error) {
	r, conn := run.first, run.firstConn
	run.first = nil
	var err error
	if r == nil || conn == nil {
		if r, conn, err = c.findRegion(ctx, run.call.TableName(), run.call.Key(), false); err != nil {
			return r, conn, err
		}
	}
	if err = c.paceWrite(ctx, r, conn, run.call); err != nil {
		return r, conn, err
	}
	if run.prev != nil && r != run.prev {
		// The region is back (moved, reopened, relocated): a failure there is a new story,
		// whose pauses start small again instead of where the old ones grew to.
		run.b = c.NewBackoff()
	}
	run.prev = r
	return r, conn, nil
}

// afterAttempt handles what a failed attempt says about the server before the failure is
// classified: a write whose connection broke after it was sent is indeterminate (end: the
// call ends with it), and a call that got no answer in its time makes its server suspect; a
// write not safe to send twice ends then, indeterminate too.
// deadBefore: the connection was known dead before the attempt.
func (c *Client) afterAttempt(ctx context.Context, run *callRun, r *regionInfo, conn *region.Client, deadBefore bool, err error) (end bool, _ error) {
	// region.ErrNotSent: the connection was found dead before the request was written.
	if errors.Is(err, hberr.ErrConnection) && !deadBefore && !errors.Is(err, region.ErrNotSent) &&
		!resendableAfterLoss(run.call) && !c.IsClosed() {
		c.regionFailed(r, conn, err)
		return true, indeterminate(err)
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// The call got no answer in its time: check that the server still answers.
		c.suspect(r, conn)
		if run.last == nil {
			run.last = fmt.Errorf("no answer from %s", conn.Addr()) // what the deadline ended
		}
		if !safeToResend(run.call) {
			// A write the server may have applied (its request may be on the wire or done):
			// not a plain deadline error, which reads as "not applied".
			return true, indeterminate(run.tries.withCount(CtxErr(ctx, run.last)))
		}
	}
	return false, err
}

// retryOrEnd decides what err, the failure of a lookup or an attempt (of region r on conn, nil
// when the region was not found), calls for: the error the call ends with (nil: try again, after the
// pause it called for). The region is taken out of service even when this was the last
// attempt: the next call should not go to the same place.
func (c *Client) retryOrEnd(ctx context.Context, run *callRun, o *CallObs, r *regionInfo, conn *region.Client, err error) error {
	if c.IsClosed() {
		return hberr.ErrClosed
	}
	if ctx.Err() != nil {
		if _, ok := errors.AsType[*hberr.RetryError](err); ok {
			return run.tries.withCount(err) // it already says what the wait for the region was about
		}
		return run.tries.withCount(CtxErr(ctx, run.last))
	}
	run.last = err
	if errors.Is(err, hberr.ErrCorruptResponse) && !safeToResend(run.call) {
		return indeterminate(err)
	}
	act := Classify(err)
	if act == GiveUp {
		return err
	}
	if conn != nil && (act == Relocate || act == PauseAndRelocate) {
		c.regionFailed(r, conn, err)
	}
	if end := run.tries.failed(err); end != nil {
		return end
	}
	if act == Pause || act == PauseAndRelocate {
		if early := waitPastDeadline(ctx, serverWait(err), err); early != nil {
			return run.tries.withCount(early)
		}
	}
	c.retrying(ctx, o, conn, err, act)
	return c.pauseBeforeRetry(ctx, run, conn, act, err)
}

// pauseBeforeRetry waits as act asks: the first re-lookup of a moved region is immediate; a
// region that keeps moving (or a lookup that keeps failing) is paced by the backoff.
func (c *Client) pauseBeforeRetry(ctx context.Context, run *callRun, conn *region.Client, act RetryAction, err error) error {
	switch act {
	case Relocate:
		run.relocations++
		if conn == nil || run.relocations > 1 {
			if run.b.Sleep(ctx) != nil {
				return run.tries.withCount(CtxErr(ctx, run.last))
			}
		}
	case Pause, PauseAndRelocate:
		if run.b.sleepRetry(ctx, err) != nil {
			return run.tries.withCount(CtxErr(ctx, run.last))
		}
	}
	return nil
}

// withStop returns ctx ended also by run.stop's closing, once: later calls return ctx.
func (run *callRun) withStop(ctx context.Context) context.Context {
	if run.stopDone != nil {
		return ctx
	}
	sctx, cancel := context.WithCancel(ctx)
	run.stopDone = cancel
	select {
	case <-run.stop:
		cancel()
		return sctx
	default:
	}
	stop := run.stop
	go func() {
		select {
		case <-stop:
			cancel()
		case <-sctx.Done():
		}
	}()
	return sctx
}

// endStop ends the context withStop made, if it made one.
func (run *callRun) endStop() {
	if run.stopDone != nil {
		run.stopDone()
	}
}
