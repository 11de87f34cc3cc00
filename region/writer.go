package region

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"time"
)

// writer coalesces concurrent requests without a timer (flat combining): a caller appends its
// frame to the pending buffer; if nobody is writing it becomes the writer and writes whatever
// is pending, again and again, until nothing is left. So a lone call is written at once by its
// own goroutine, and calls that arrive while a write is in progress go out together in the
// next write.
//
// A caller never stays the writer for long: after maxWriterRounds writes, or when one write
// does not complete within callerWriteBudget (the server is not reading and the socket buffer
// is full), the rest of the work is handed to a goroutine and the caller goes back to waiting
// for its own response, so its context can still end the call at once.
type writer struct {
	conn         net.Conn
	layer        Layer
	split        SplitLayer // layer, when callers can seal their own tokens (writer_split.go)
	maxWrap      int
	writeTimeout time.Duration

	mu      sync.Mutex
	pending []byte // frames waiting for the next write
	spare   []byte // the buffer of the previous write, reused for pending
	writing bool   // a goroutine is draining pending
	// With a SplitLayer (writer_split.go) pending is one buffer: pending[:off] is written or
	// being written, base is the stream offset of pending[0], and seals has one record per
	// caller whose tokens are in pending[off:], in stream order, telling whether the caller
	// has sealed them yet. Only the sealed front is written.
	off   int
	base  int64
	seals []sealRecord
	taken int64 // records dropped from the front of seals so far (a caller's id - taken is its index)
	// gen changes whenever pending is discarded, so that a late caller does not seal into it.
	gen uint64

	// Only touched by the current writer.
	wrapped []byte // layered output: be32 len | token, ... (reused)
}

const (
	maxWriterRounds   = 16
	callerWriteBudget = 2 * time.Millisecond
)

func (w *writer) init(conn net.Conn, layer Layer, cfg config) {
	w.conn, w.layer, w.maxWrap, w.writeTimeout = conn, layer, cfg.MaxWrapSize, cfg.WriteTimeout
	w.split, _ = layer.(SplitLayer)
}

// enqueue queues cl's request frame (copied) and writes it unless another goroutine is writing.
// Write errors kill the connection; the calls learn about it from fail. others tells that
// other calls were in flight on the connection when cl was registered.
func (w *writer) enqueue(c *Client, cl *call, others bool) {
	if w.split != nil {
		w.enqueueSplit(c, cl)
		return
	}
	frame := cl.enc
	w.mu.Lock()
	if c.dead.Load() {
		w.mu.Unlock()
		return
	}
	if len(w.pending) == 0 && cap(frame) > maxPooledBuffer {
		// A large frame (a batch of megabytes) becomes the pending buffer instead of being
		// copied into it: the call gives it up (release would drop it anyway), the writer
		// drops it once written (recycle), and the empty pending buffer is kept as spare.
		if w.spare == nil && cap(w.pending) <= maxPooledBuffer {
			w.spare = w.pending[:0]
		}
		w.pending, cl.enc = frame, nil
	} else {
		w.pending = append(w.pending, frame...)
	}
	if w.writing {
		w.mu.Unlock()
		return
	}
	w.writing = true
	w.mu.Unlock()
	if others {
		// With other calls in flight, responses come in bursts: the reader has likely just
		// made several callers runnable, each about to send its next request. Letting them
		// run first puts their frames into this write instead of a system call each, the
		// largest part of a busy client's CPU. A lone caller writes at once.
		runtime.Gosched()
	}
	w.drain(c, true, nil)
}

// drain writes pending frames until there are none. The goroutine calling it must have set
// w.writing. rest, if not empty, is the unwritten tail of a write handed over by a caller
// (out is that write's buffer, to recycle).
func (w *writer) drain(c *Client, caller bool, rest []byte) {
	for round := 0; ; round++ {
		if rest != nil {
			// Finish the write a caller handed over.
			err := w.writeAll(rest, w.writeTimeout)
			if err == nil {
				c.stats.bytesWritten.Add(uint64(len(rest)))
			}
			rest = nil
			if err != nil {
				w.stop(c, err)
				return
			}
		}
		w.mu.Lock()
		if c.dead.Load() {
			w.discardPending()
			w.mu.Unlock()
			return
		}
		if caller && round == maxWriterRounds && len(w.pending) > w.off {
			w.mu.Unlock()
			w.handOff(c, nil)
			return
		}
		var out []byte
		if w.split != nil {
			out = w.takeSealed()
		} else if len(w.pending) > 0 {
			out = w.pending
			w.pending = w.spare[:0]
		}
		if len(out) == 0 {
			// Nothing pending, or only tokens still being sealed: whoever seals the first of
			// them writes.
			w.writing = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()

		buf, err := w.frame(out)
		if err == nil {
			budget := w.writeTimeout
			if caller {
				budget = callerWriteBudget
			}
			var n int
			n, err = w.writeSome(buf, budget)
			c.stats.writes.Add(1)
			c.stats.bytesWritten.Add(uint64(n))
			if err != nil && caller && errors.Is(err, os.ErrDeadlineExceeded) {
				w.recycle(out)
				w.handOff(c, buf[n:])
				return
			}
		}
		w.recycle(out)
		if err != nil {
			w.stop(c, err)
			return
		}
	}
}

// handOff continues drain in a new goroutine (tracked by c.wg), starting with the unwritten
// tail rest of the current write.
func (w *writer) handOff(c *Client, rest []byte) {
	c.mu.Lock()
	alive := c.calls != nil
	if alive {
		c.wg.Add(1) // never after Close started waiting: it marks the client dead first
	}
	c.mu.Unlock()
	if !alive {
		w.mu.Lock()
		w.discardPending()
		w.mu.Unlock()
		return
	}
	if rest == nil {
		rest = []byte{} // nothing left of the current write
	}
	go func() {
		defer c.wg.Done()
		w.drain(c, false, rest)
	}()
}

// recycle keeps a written pending buffer for reuse (with a SplitLayer, takeSealed reuses
// pending itself).
func (w *writer) recycle(out []byte) {
	if w.split != nil {
		return
	}
	w.mu.Lock()
	if cap(out) <= maxPooledBuffer {
		w.spare = out[:0]
	} else {
		w.spare = nil
	}
	w.mu.Unlock()
}

// stop ends the writer after a failed write and kills the connection.
func (w *writer) stop(c *Client, err error) {
	w.mu.Lock()
	w.discardPending()
	w.mu.Unlock()
	if c.stats.bytesRead.Load() == 0 && closedEarly(err) {
		// Closed before any answer was read: the server may have said something first (an
		// HTTP server's "HTTP/1.1 400"), or nothing (a TLS-only server), which only the bytes
		// still to read tell. The connection's reader (the reader goroutine, or the lone caller
		// that reads next) meets the end after them and fails the connection with the reason
		// (firstanswer.go); the writer only stops.
		return
	}
	c.fail(c.connFailed(fmt.Errorf("write: %w", err)))
}

// discardPending drops what was not written and ends the writer's turn. w.mu must be held.
func (w *writer) discardPending() {
	w.pending = w.pending[:0]
	w.writing = false
	w.off, w.base, w.seals = 0, 0, w.seals[:0]
	w.gen++
}

// frame returns the bytes to write for p: p itself (plaintext, or split tokens already sealed
// by their callers), or the layer's tokens, each be32 length | Wrap(chunk) (in w.wrapped,
// reused).
func (w *writer) frame(p []byte) ([]byte, error) {
	if w.layer == nil || w.split != nil {
		return p, nil
	}
	out := w.wrapped[:0]
	for len(p) > 0 {
		chunk := p
		if len(chunk) > w.maxWrap {
			chunk = chunk[:w.maxWrap]
		}
		p = p[len(chunk):]
		start := len(out)
		out = append(out, 0, 0, 0, 0)
		var err error
		out, err = w.layer.Wrap(out, chunk)
		if err != nil {
			return nil, fmt.Errorf("security layer wrap: %w", err)
		}
		binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-4))
	}
	if cap(out) <= maxPooledBuffer {
		w.wrapped = out
	} else {
		w.wrapped = nil
	}
	return out, nil
}

// writeSome writes p with a deadline budget from now (none if budget <= 0) and returns how
// much was written. On a deadline the stream stays consistent: the rest can still be written.
func (w *writer) writeSome(p []byte, budget time.Duration) (int, error) {
	var dl time.Time
	if budget > 0 {
		dl = time.Now().Add(budget)
	}
	if err := w.conn.SetWriteDeadline(dl); err != nil {
		return 0, err
	}
	return w.conn.Write(p)
}

func (w *writer) writeAll(p []byte, budget time.Duration) error {
	if len(p) == 0 {
		return nil
	}
	_, err := w.writeSome(p, budget)
	return err
}
