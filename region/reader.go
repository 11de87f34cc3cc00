package region

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
)

// connectionCallID is the call id of the server's responses that answer no call: -1 on the wire.
const connectionCallID = ^uint32(0)

// readSide is the connection's read state. Only the holder of the read role touches it: the
// reader goroutine, or a lone caller reading its own response (lone.go).
type readSide struct {
	fr       frameReader
	claim    func(id uint32, remote bool) ([]byte, bool) // bound once in Dial
	claimed  *call
	resp     response
	answered bool // a first frame arrived: a close before it hints at a refused connection
}

func (c *Client) initReadSide(br *bufio.Reader) {
	r := &c.rd
	r.fr = frameReader{br: br, maxFrame: c.cfg.MaxFrameSize}
	r.claim = func(id uint32, _ bool) ([]byte, bool) {
		c.mu.Lock()
		cl, ok := c.calls[id]
		if ok {
			delete(c.calls, id)
		}
		c.mu.Unlock()
		if !ok {
			return nil, false
		}
		r.claimed = cl
		return cl.buf, true
	}
}

// errReadInterrupted is returned by readOne when the read deadline (a lone caller's context,
// lone.go) interrupted the wait for a frame before any byte of it was consumed: the stream is
// intact and the connection alive.
var errReadInterrupted = errors.New("region: read interrupted between frames")

// readOne reads one response frame and completes the call it answers; it returns that call
// (nil when the response was for an unknown call, e.g. one whose context ended: it is
// dropped). Any other error than errReadInterrupted means the connection failed: every call
// was completed with the error (c.Err()).
func (c *Client) readOne() (*call, error) {
	r := &c.rd
	r.claimed = nil
	err := r.fr.next(r.claim, &r.resp)
	if err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded) && !r.fr.mid:
			return nil, errReadInterrupted
		case errors.Is(err, os.ErrDeadlineExceeded):
			// The frame's position in the stream is lost with the bytes already consumed.
			err = fmt.Errorf("read interrupted in the middle of a response frame (a call's context ended): %w", err)
		case !r.answered && !r.fr.mid && closedEarly(err):
			// Nothing came back on a new connection: a server of another kind (firstanswer.go),
			// asked within the lone caller's context when a caller reads (the reader goroutine
			// holds nobody up).
			probeCtx := c.wait.ctx
			if probeCtx == nil {
				probeCtx = context.Background()
			}
			err = c.unanswered(probeCtx, err)
		case errors.Is(err, errFrameStart):
			err = errors.New("server closed the connection")
		case !r.answered && errors.Is(err, ErrFrameTooLarge):
			// A first "length" over the limit is rather the text or TLS record of another
			// kind of server than a response.
			err = explainForeign(&c.cfg, r.fr.ev.total, err)
		case errors.Is(err, ErrMalformedFrame) || errors.Is(err, ErrFrameTooLarge):
			c.log.Error("region: malformed response frame; resetting the connection",
				"call_id", r.resp.callID, "frame_len", r.fr.ev.total,
				"header", hex.EncodeToString(r.fr.ev.hdr[:r.fr.ev.hdrLen]), "err", err)
		}
		c.fail(c.connFailed(err))
		if r.claimed != nil {
			r.claimed.complete(c.Err()) // the first error: Close or the original cause
		}
		return nil, err
	}
	// An exception for call id -1 is about the connection itself (the server refusing
	// the connection header, e.g. a proxy user it does not allow), sent before the server
	// closes the connection: fail every call with it rather than with a bare EOF.
	r.answered = true
	c.stats.bytesRead.Add(uint64(r.fr.ev.total) + 4)
	claimed := r.claimed
	resp := &r.resp
	if resp.remote != nil && (resp.remote.Fatal() || resp.callID == connectionCallID) {
		c.fail(c.connFailed(resp.remote))
		if claimed != nil {
			claimed.complete(c.Err())
		}
		return nil, resp.remote
	}
	if claimed == nil {
		c.log.Debug("region: dropped response for unknown call", "call_id", resp.callID)
		return nil, nil
	}
	if resp.body != nil {
		claimed.buf = resp.body
	}
	claimed.body, claimed.msg, claimed.cells, claimed.remote = resp.body, resp.msg, resp.cells, resp.remote
	claimed.ev = r.fr.ev
	claimed.complete(nil)
	return claimed, nil
}

// readLoop is the reader goroutine of a connection without lone reading (lone.go): it holds
// the read role for the connection's whole life, decoding response frames and completing the
// waiting calls by call id.
func (c *Client) readLoop() {
	defer c.wg.Done()
	for {
		if _, err := c.readOne(); err != nil {
			if errors.Is(err, errReadInterrupted) {
				// Nobody sets a read deadline on such a connection.
				c.fail(c.connFailed(err))
			}
			return
		}
	}
}
