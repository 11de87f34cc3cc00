package region

import (
	"bufio"
	"encoding/hex"
	"errors"
)

// connectionCallID is the call id of the server's responses that answer no call: -1 on the wire.
const connectionCallID = ^uint32(0)

// readLoop is the connection's only reader: it decodes response frames and completes the
// waiting calls by call id. Responses for unknown ids (calls whose context ended) are dropped.
func (c *Client) readLoop(br *bufio.Reader) {
	defer c.wg.Done()
	fr := frameReader{br: br, maxFrame: c.cfg.MaxFrameSize}
	var claimed *call
	claim := func(id uint32, _ bool) ([]byte, bool) {
		c.mu.Lock()
		cl, ok := c.calls[id]
		if ok {
			delete(c.calls, id)
		}
		c.mu.Unlock()
		if !ok {
			return nil, false
		}
		claimed = cl
		return cl.buf, true
	}
	var resp response
	answered := false // a first frame arrived: a close before it hints at a refused connection
	for {
		claimed = nil
		err := fr.next(claim, &resp)
		if err != nil {
			if errors.Is(err, errFrameStart) && !answered && c.cfg.TLS == nil {
				err = errors.New("server closed the connection before answering anything (does it require TLS? see WithTLS)")
			} else if errors.Is(err, errFrameStart) {
				err = errors.New("server closed the connection")
			} else if errors.Is(err, ErrMalformedFrame) || errors.Is(err, ErrFrameTooLarge) {
				c.log.Error("region: malformed response frame; resetting the connection",
					"call_id", resp.callID, "frame_len", fr.ev.total,
					"header", hex.EncodeToString(fr.ev.hdr[:fr.ev.hdrLen]), "err", err)
			}
			c.fail(c.connFailed(err))
			if claimed != nil {
				claimed.complete(c.Err()) // the first error: Close or the original cause
			}
			return
		}
		// An exception for call id -1 is about the connection itself (the server refusing
		// the connection header, e.g. a proxy user it does not allow), sent before the server
		// closes the connection: fail every call with it rather than with a bare EOF.
		answered = true
		c.stats.bytesRead.Add(uint64(fr.ev.total) + 4)
		if resp.remote != nil && (resp.remote.Fatal() || resp.callID == connectionCallID) {
			c.fail(c.connFailed(resp.remote))
			if claimed != nil {
				claimed.complete(c.Err())
			}
			return
		}
		if claimed == nil {
			c.log.Debug("region: dropped response for unknown call", "call_id", resp.callID)
			continue
		}
		if resp.body != nil {
			claimed.buf = resp.body
		}
		claimed.body, claimed.msg, claimed.cells, claimed.remote = resp.body, resp.msg, resp.cells, resp.remote
		claimed.ev = fr.ev
		claimed.complete(nil)
	}
}
