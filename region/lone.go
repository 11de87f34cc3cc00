package region

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"google.golang.org/protobuf/proto"
)

// Lone reading. At most one goroutine reads a connection at a time: whoever holds the read
// role (c.reading). On a connection with lone reading (plain TCP on rawConn: no TLS, no SASL
// security layer, not a race-detector build), a caller whose call is the only one in flight
// when nobody holds the role takes it, writes its request and reads the frames itself until
// its own response is in (completing the calls of any callers that joined meanwhile, exactly
// as the reader goroutine would). Then, if calls are still in flight, it hands the role to
// the reader goroutine (the only wake-up of another goroutine, paid under concurrency only);
// otherwise nobody reads until the next call. A response handed over by a reader goroutine
// woke two threads per call (the netpoller's for the reader, the reader's channel send for
// the caller): 22-27 µs of client CPU per Get at one caller (docs/benchmarks.md,
// TestOneCallerFloor).
//
// What nobody reading costs, and how it is made up for:
//   - A connection idle for idleWatchDelay is watched again by the reader goroutine (a timer
//     re-armed whenever the role is given back with no call in flight), so a server that
//     closes it or dies is noticed then, as before, and its regions relocated at once; the
//     next call on a watched connection is answered through the reader goroutine, and the
//     ones after it are lone again.
//   - Within that delay, a server closing the connection is noticed by the next call, before
//     its request is written: pollIdle peeks at the socket without waiting; an end or a reset
//     fails the connection and the call gets an error wrapping ErrNotSent (so any call may be
//     sent again on a new connection). Bytes waiting there (a late response to a call whose
//     context ended, a connection-level exception) are read as frames first.
//   - A lone caller's context ends its wait through the read deadline. The first deadline is
//     the context's own, or loneWaitSlice from now if earlier; when the slice passes with
//     the context still live, the read goes on (loneSource, even in the middle of a frame)
//     with the context's deadline, and context.AfterFunc (with a function bound once per
//     connection) sets a past deadline when the context ends. So a call answered within the
//     slice allocates nothing for its context, and a cancellation is seen within the slice
//     at worst. Interrupted while waiting for a frame to start, the stream is intact: the
//     call is abandoned as any other whose context ended. Interrupted in the middle of a
//     frame, the caller reads the frame's rest (for midFrameGrace at most) and stops after
//     it; should the rest not come, the frame's position is lost: the connection fails, and
//     with it the calls of any callers that joined.

// ErrNotSent is wrapped (beside hberr.ErrConnection and the cause) by the error of a call
// whose connection was found dead before its request was written: the server never saw it.
var ErrNotSent = errors.New("region: request not sent")

const (
	// loneWaitSlice bounds the first read deadline of a lone caller with a context that can
	// end: past it, context.AfterFunc watches the context.
	loneWaitSlice = 2 * time.Millisecond
	// idleWatchDelay is how long a connection with lone reading stays without a reader
	// before the reader goroutine watches it again.
	idleWatchDelay = 50 * time.Millisecond
	// midFrameGrace is how long a lone caller whose context ended in the middle of a frame
	// still waits for the frame's rest (which normally follows at once) before the frame,
	// and so the connection, is given up.
	midFrameGrace = 100 * time.Millisecond
)

func (c *Client) idleDelay() time.Duration {
	if c.cfg.idleWatch > 0 {
		return c.cfg.idleWatch
	}
	return idleWatchDelay
}

// idlePoller is a connection that can tell, without waiting, whether it has bytes to read or
// has ended (rawConn).
type idlePoller interface {
	pollIdle() (bool, error)
}

// loneSource is the buffered reader's source on a connection with lone reading: a read whose
// deadline passed goes on when waitGoesOn says so.
type loneSource struct{ c *Client }

func (s loneSource) Read(p []byte) (int, error) {
	for {
		n, err := s.c.conn.Read(p)
		if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) || !s.c.waitGoesOn() {
			return n, err
		}
	}
}

// The phases of a lone caller's wait (loneWait.phase).
const (
	waitSlice   = iota // the first deadline: the context's, or loneWaitSlice if earlier
	waitWatched        // the slice passed: context.AfterFunc interrupts the read
	waitGrace          // the context ended in the middle of a frame: its rest is read
)

// loneWait is the lone caller's context (and Extras.Abort) while it holds the read role.
type loneWait struct {
	ctx       context.Context
	abort     <-chan struct{}
	stop      func() bool // context.AfterFunc's, in waitWatched
	stopAbort func() bool // the same for abort
	phase     uint8
}

// abortContext is an Extras.Abort seen as a context, for context.AfterFunc.
type abortContext <-chan struct{}

func (abortContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (a abortContext) Done() <-chan struct{}     { return a }
func (abortContext) Value(any) any               { return nil }
func (a abortContext) Err() error {
	if closed(a) {
		return errAborted
	}
	return nil
}

// waitGoesOn is called by the read role's holder when its read deadline passed. It tells
// whether to read on: the lone caller's first slice passed and its context is live (then its
// context's end interrupts the read from now on), or its context ended in the middle of a
// frame (then the rest of the frame gets midFrameGrace; the frame is lost if it does not come).
func (c *Client) waitGoesOn() bool {
	w := &c.wait
	if w.ctx == nil {
		return false
	}
	switch w.phase {
	case waitSlice:
		if endedErr(w.ctx, w.abort) == nil {
			w.stop = context.AfterFunc(w.ctx, c.interruptFn)
			if w.abort != nil {
				// Past the slice only: a read answered within it pays nothing for its abort.
				w.stopAbort = context.AfterFunc(abortContext(w.abort), c.interruptFn)
			}
			w.phase = waitWatched
			dl, _ := w.ctx.Deadline()
			c.conn.SetReadDeadline(dl) //nolint:errcheck // a closed connection ends the read anyway
			return true
		}
	case waitWatched:
		select { // the interruption, or the context's deadline a moment before its timer
		case <-w.ctx.Done():
		case <-w.abort:
		}
	case waitGrace:
		return false
	}
	if !c.rd.fr.mid {
		return false
	}
	c.quiesceWait()
	w.phase = waitGrace
	c.conn.SetReadDeadline(time.Now().Add(midFrameGrace)) //nolint:errcheck // as above
	return true
}

// quiesceWait makes sure no interruption of the read is under way or to come. Each
// interruption that ran (or runs) sends once on c.interrupted.
func (c *Client) quiesceWait() {
	w := &c.wait
	for _, stop := range [...]*func() bool{&w.stop, &w.stopAbort} {
		if *stop != nil {
			if !(*stop)() {
				<-c.interrupted
			}
			*stop = nil
		}
	}
}

// interruptRead ends a lone caller's wait for frames (its context ended). It runs in
// context.AfterFunc's goroutine; c.interrupted tells the caller it is over.
func (c *Client) interruptRead() {
	c.conn.SetReadDeadline(time.Unix(1, 0)) //nolint:errcheck // as above
	c.interrupted <- struct{}{}
}

// callLone runs cl as a lone caller: cl is registered and the caller holds the read role.
// abort is the call's Extras.Abort.
func (c *Client) callLone(ctx context.Context, abort <-chan struct{}, cl *call, method string, req, resp proto.Message, check Checker) ([]byte, error) {
	if ctx.Done() != nil || abort != nil {
		c.wait.ctx, c.wait.abort = ctx, abort
		dl := time.Now().Add(loneWaitSlice)
		if d, ok := ctx.Deadline(); ok && d.Before(dl) {
			dl = d
		}
		c.conn.SetReadDeadline(dl) //nolint:errcheck // as above
	}
	sent := false
	err := c.readPending()
	if err == nil {
		sent = true
		c.stats.calls.Add(1)
		c.stats.loneCalls.Add(1)
		c.w.enqueue(c, cl, false)
		err = c.readUntil(cl)
	}
	if c.wait.ctx != nil {
		c.quiesceWait()
		c.conn.SetReadDeadline(time.Time{}) //nolint:errcheck // as above
		c.wait = loneWait{}
	}

	// Give the role back: to the reader goroutine when calls are in flight.
	c.mu.Lock()
	mine := false
	if errors.Is(err, errReadInterrupted) {
		if mine = c.calls[cl.id] == cl; mine {
			delete(c.calls, cl.id)
		}
	}
	handOff := len(c.calls) > 0
	if !handOff {
		c.reading = false
		if c.calls != nil {
			c.idleWatch.Reset(c.idleDelay())
		}
	}
	c.mu.Unlock()
	if handOff {
		c.stats.handOffs.Add(1)
		c.wake <- struct{}{}
	}

	if mine {
		// The context (or the abort) ended while the caller waited for a frame.
		c.release(cl)
		return nil, fmt.Errorf("region: %s %s: %w", c.addr, method, endedErr(ctx, abort))
	}
	<-cl.done // completed by the caller's own reading, or failed with the connection
	if !sent && cl.err != nil {
		err := fmt.Errorf("%w: %w", ErrNotSent, cl.err)
		c.release(cl)
		return nil, err
	}
	return c.finish(cl, method, req, resp, check)
}

// readPending makes sure the connection nobody was reading is still usable before a lone
// caller writes on it: it reads whatever the server sent meanwhile (late responses are
// dropped; a connection-level exception, an end or a reset fails the connection).
func (c *Client) readPending() error {
	for {
		if c.wait.phase == waitGrace {
			return errReadInterrupted // the context ended; a frame's rest was read
		}
		if c.rd.fr.br.Buffered() == 0 {
			avail, err := c.poller.pollIdle()
			switch {
			case err == nil && !avail:
				return nil
			case errors.Is(err, os.ErrDeadlineExceeded) && c.waitGoesOn():
				continue
			case errors.Is(err, os.ErrDeadlineExceeded):
				return errReadInterrupted
			}
			// Bytes, an end or a reset: reading them tells which, as the reader would.
		}
		if _, err := c.readOne(); err != nil {
			return err
		}
		if c.dead.Load() {
			return c.Err()
		}
	}
}

// readUntil reads frames until cl is answered, or the connection fails, or the read is
// interrupted between frames (errReadInterrupted).
func (c *Client) readUntil(cl *call) error {
	for {
		if c.wait.phase == waitGrace {
			return errReadInterrupted // the context ended; a frame's rest was read
		}
		got, err := c.readOne()
		if err != nil {
			return err
		}
		if got == cl {
			return nil
		}
	}
}

// watchIdle runs when the connection has had no reader for idleWatchDelay: the reader
// goroutine takes the role to notice at once a server closing the connection.
func (c *Client) watchIdle() {
	c.mu.Lock()
	watch := c.calls != nil && len(c.calls) == 0 && !c.reading
	if watch {
		c.reading, c.watching = true, true
	}
	c.mu.Unlock()
	if watch {
		c.wake <- struct{}{}
	}
}

// readTurns is the reader goroutine of a connection with lone reading: it reads while it holds
// the read role (handed over by a lone caller, or taken by watchIdle) and calls are in flight
// (or, watching, until a frame or the connection's end arrives), and waits otherwise.
func (c *Client) readTurns() {
	defer c.wg.Done()
	for {
		select {
		case <-c.wake:
		case <-c.done:
			return
		}
		for {
			c.mu.Lock()
			idle := len(c.calls) == 0 && !c.watching
			c.watching = false
			if idle {
				c.reading = false
				if c.calls != nil {
					c.idleWatch.Reset(c.idleDelay())
				}
			}
			c.mu.Unlock()
			if idle {
				break
			}
			if _, err := c.readOne(); err != nil {
				if errors.Is(err, errReadInterrupted) {
					c.fail(c.connFailed(err)) // the reader never sets a deadline
				}
				return
			}
		}
	}
}
