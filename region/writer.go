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
	// queued are large frames waiting for the next write without having been copied into
	// pending, each after pending[:at] (plaintext connections: with a layer, the writer wraps
	// what it writes anyway). spareQueued is the previous write's slice, reused.
	queued, spareQueued []queuedFrame
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
	wrapped []byte      // layered output: be32 len | token, ... (reused)
	iov     net.Buffers // the buffers of the current write (reused)
	left    net.Buffers // what is left of them to write (a field: a local would escape)
	lent    [][]byte    // the queued frames of the current write, to give back once written
}

// largeFrame is the size from which a request frame is queued as it is rather than copied
// into the pending buffer.
const largeFrame = 64 << 10

// queuedFrame is a large frame queued for the write as it is: it goes after pending[:at].
type queuedFrame struct {
	at    int
	frame []byte
}

const (
	maxWriterRounds   = 16
	callerWriteBudget = 2 * time.Millisecond
)

func (w *writer) init(conn net.Conn, layer Layer, cfg config) {
	w.conn, w.layer, w.maxWrap, w.writeTimeout = conn, layer, cfg.MaxWrapSize, cfg.WriteTimeout
	w.split, _ = layer.(SplitLayer)
}

// enqueue queues cl's request frame and writes it unless another goroutine is writing. A small
// frame is copied into the pending buffer, where it joins the other callers' frames in one
// write; a large one (a batch of megabytes) is queued as it is: the call gives it up (release
// would drop it anyway) and the writer writes it between the pending bytes around it (writev),
// then gives its buffer to the connection's next large request (Client.frames).
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
	switch {
	case len(frame) >= largeFrame && w.layer == nil:
		// Copying it behind another pending frame was about 10% of a buffered writer's CPU
		// with several flushes in flight.
		w.queued = append(w.queued, queuedFrame{at: len(w.pending), frame: frame})
		cl.enc = nil
	case len(w.pending) == 0 && cap(frame) > maxPooledBuffer:
		// With a layer, a large frame that finds nothing pending becomes the pending buffer
		// instead of being copied into it; the writer drops it once written (recycle), and the
		// empty pending buffer is kept as spare.
		if w.spare == nil && cap(w.pending) <= maxPooledBuffer {
			w.spare = w.pending[:0]
		}
		w.pending, cl.enc = frame, nil
	default:
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
	w.drain(c, true, false)
}

// drain writes pending frames until there are none. The goroutine calling it must have set
// w.writing. resume tells it to finish first the write a caller handed over (w.left).
func (w *writer) drain(c *Client, caller, resume bool) {
	for round := 0; ; round++ {
		if resume {
			resume = false
			n, err := w.writeSome(w.writeTimeout)
			c.stats.bytesWritten.Add(uint64(n))
			w.written(c)
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
			w.handOff(c, false)
			return
		}
		var out []byte
		var queued []queuedFrame
		if w.split != nil {
			out = w.takeSealed()
		} else if len(w.pending) > 0 || len(w.queued) > 0 {
			out, queued = w.pending, w.queued
			w.pending, w.queued, w.spareQueued = w.spare[:0], w.spareQueued[:0], nil
		}
		if len(out) == 0 && len(queued) == 0 {
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
			w.iov = gather(w.iov[:0], buf, queued)
			for _, q := range queued {
				w.lent = append(w.lent, q.frame)
			}
			w.left = w.iov
			var n int64
			n, err = w.writeSome(budget)
			c.stats.writes.Add(1)
			c.stats.bytesWritten.Add(uint64(n))
			if err != nil && caller && errors.Is(err, os.ErrDeadlineExceeded) {
				w.recycle(out, queued)
				w.handOff(c, true)
				return
			}
			w.written(c)
		}
		w.recycle(out, queued)
		if err != nil {
			w.stop(c, err)
			return
		}
	}
}

// written ends a write: its large frames go back to c for its next large requests, and the
// writer keeps no reference to them.
func (w *writer) written(c *Client) {
	for _, f := range w.lent {
		if cap(f) <= maxKeptFrame {
			f = f[:0]
			c.frames.Put(&f)
		}
	}
	clear(w.lent)
	w.lent = w.lent[:0]
	clear(w.iov[:cap(w.iov)])
	w.left = nil
}

// maxKeptFrame bounds the frames kept for reuse (a buffered writer's flush to one server is
// megabytes: 2 MiB by default).
const maxKeptFrame = 16 << 20

// gather returns iov with the buffers of one write: pending bytes out and, between them, the
// queued large frames.
func gather(iov net.Buffers, out []byte, queued []queuedFrame) net.Buffers {
	prev := 0
	for _, q := range queued {
		if q.at > prev {
			iov = append(iov, out[prev:q.at])
			prev = q.at
		}
		iov = append(iov, q.frame)
	}
	if prev < len(out) {
		iov = append(iov, out[prev:])
	}
	return iov
}

// handOff continues drain in a new goroutine (tracked by c.wg), starting, if resume, with the
// unwritten tail of the current write (w.left).
func (w *writer) handOff(c *Client, resume bool) {
	c.mu.Lock()
	alive := c.calls != nil
	if alive {
		c.wg.Add(1) // never after Close started waiting: it marks the client dead first
	}
	c.mu.Unlock()
	if !alive {
		w.written(c) // the rest of the current write, if any, is dropped
		w.mu.Lock()
		w.discardPending()
		w.mu.Unlock()
		return
	}
	go func() {
		defer c.wg.Done()
		w.drain(c, false, resume)
	}()
}

// recycle keeps a written pending buffer and queue for reuse (with a SplitLayer, takeSealed
// reuses pending itself).
func (w *writer) recycle(out []byte, queued []queuedFrame) {
	if w.split != nil {
		return
	}
	clear(queued)
	w.mu.Lock()
	if cap(out) <= maxPooledBuffer {
		w.spare = out[:0]
	} else {
		w.spare = nil
	}
	w.spareQueued = queued[:0]
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
	clear(w.queued)
	w.queued = w.queued[:0]
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

// writeSome writes w.left with a deadline budget from now (none if budget <= 0), leaves in it
// what is left to write, and returns how much was written. On a deadline the stream stays
// consistent: the rest can still be written.
func (w *writer) writeSome(budget time.Duration) (int64, error) {
	p := &w.left
	var dl time.Time
	if budget > 0 {
		dl = time.Now().Add(budget)
	}
	if err := w.conn.SetWriteDeadline(dl); err != nil {
		return 0, err
	}
	if len(*p) == 1 {
		// One buffer, most writes: a plain Write (net.Buffers would use writev on a
		// *net.TCPConn, and nothing more on the raw connection).
		n, err := w.conn.Write((*p)[0])
		if (*p)[0] = (*p)[0][n:]; len((*p)[0]) == 0 {
			*p = (*p)[1:]
		}
		return int64(n), err
	}
	return p.WriteTo(w.conn)
}
