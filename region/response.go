package region

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// ResponseHeader field numbers (RPC.proto).
const (
	respHdrCallID        = 1
	respHdrException     = 2
	respHdrCellBlockMeta = 3
)

// responseHeader is a ResponseHeader decoded by hand (no allocation): it is on every response.
type responseHeader struct {
	callID    uint32
	exception []byte // the raw ExceptionResponse; aliases the buffer the header was parsed from
	hasExc    bool
	hasCells  bool
	cellsLen  uint64
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformedFrame}, args...)...)
}

// parseResponseHeader decodes b into h, skipping unknown fields.
func parseResponseHeader(b []byte, h *responseHeader) error {
	*h = responseHeader{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return malformed("response header: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case num == respHdrCallID && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return malformed("response header call_id: %v", protowire.ParseError(n))
			}
			h.callID = uint32(v)
			b = b[n:]
		case num == respHdrException && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return malformed("response header exception: %v", protowire.ParseError(n))
			}
			h.exception, h.hasExc = v, true
			b = b[n:]
		case num == respHdrCellBlockMeta && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return malformed("response header cell_block_meta: %v", protowire.ParseError(n))
			}
			h.hasCells = true
			if err := parseCellBlockMeta(v, &h.cellsLen); err != nil {
				return err
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return malformed("response header field %d: %v", num, protowire.ParseError(n))
			}
			b = b[n:]
		}
	}
	return nil
}

func parseCellBlockMeta(b []byte, length *uint64) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return malformed("cell_block_meta: %v", protowire.ParseError(n))
		}
		b = b[n:]
		if num == cellBlockMetaLength && typ == protowire.VarintType {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return malformed("cell_block_meta length: %v", protowire.ParseError(n))
			}
			*length = v
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return malformed("cell_block_meta field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
	}
	return nil
}

// remoteErrorFrom decodes an ExceptionResponse.
func remoteErrorFrom(b []byte) (*hberr.RemoteError, error) {
	var er pb.ExceptionResponse
	if err := proto.Unmarshal(b, &er); err != nil {
		return nil, malformed("exception response: %v", err)
	}
	return hberr.NewExceptionResponse(er.GetExceptionClassName(), er.GetStackTrace(), er.GetDoNotRetry(),
		er.GetHostname(), int(er.GetPort()), er.GetServerOverloaded()), nil
}

// response is one decoded response frame.
type response struct {
	callID uint32
	known  bool   // claim accepted the call id; body was read into its buffer
	body   []byte // the frame after the header: varint len | message | cellblock
	msg    []byte // the response message (aliases body)
	cells  []byte // the cellblock (aliases body), nil if none
	remote *hberr.RemoteError
}

// frameReader reads response frames from a buffered stream.
type frameReader struct {
	br       *bufio.Reader
	maxFrame int
	scratch  []byte        // for response headers larger than br's buffer (long stack traces)
	ev       frameEvidence // of the frame read last
	// mid is set once next consumed a byte of the frame: an error before that (while it
	// waits for the length prefix) leaves the stream intact.
	mid bool
}

// errFrameStart is returned (wrapped) when the stream ended cleanly between two frames.
var errFrameStart = io.EOF

// next reads one frame into resp. Once the call id is known, claim(id) returns the buffer to
// read the body into (reusing its capacity) and whether anyone waits for it; the body of an
// unclaimed call is discarded. Exceptions are decoded without claiming a buffer (claim is still
// called so that the waiting call is found). Any error means the stream is unusable; if
// resp.known is set, the claimed call must be failed by the caller.
//
// The lengths and the body are read here, not in functions of their own: on the path of every
// response, those calls cost 5-7% more CPU per frame (BenchmarkDecodeResponse).
func (r *frameReader) next(claim func(id uint32, remote bool) ([]byte, bool), resp *response) error {
	*resp = response{}
	r.mid = false
	lenBytes, err := r.br.Peek(4)
	if err != nil {
		if err == io.EOF && len(lenBytes) == 0 {
			return errFrameStart
		}
		return unexpected(err)
	}
	total := int64(binary.BigEndian.Uint32(lenBytes))
	r.ev.total, r.ev.hdrLen = uint32(total), 0
	r.br.Discard(4) //nolint:errcheck // Peek guaranteed the bytes
	r.mid = true
	if total > int64(r.maxFrame) {
		return fmt.Errorf("%w: server announced a %d byte response (limit %d)", ErrFrameTooLarge, total, r.maxFrame)
	}
	if total == 0 {
		return malformed("empty response frame")
	}
	// Header length varint: at most 5 bytes for a 32 bit value, but never past the frame.
	peek := int64(binary.MaxVarintLen32)
	if total < peek {
		peek = total
	}
	vb, err := r.br.Peek(int(peek))
	if err != nil {
		return unexpected(err)
	}
	hdrLen, n := protowire.ConsumeVarint(vb)
	if n < 0 {
		return malformed("response header length: %v", protowire.ParseError(n))
	}
	if hdrLen > uint64(total)-uint64(n) {
		return malformed("response header length %d exceeds frame length %d", hdrLen, total)
	}
	r.br.Discard(n) //nolint:errcheck
	remaining := int(total) - n - int(hdrLen)

	var h responseHeader
	if err := r.readHeader(int(hdrLen), &h, resp); err != nil {
		return err
	}
	resp.callID = h.callID

	if resp.remote != nil {
		// No response message follows an exception; skip whatever the server put there.
		_, resp.known = claim(h.callID, true)
		return discard(r.br, remaining)
	}
	buf, ok := claim(h.callID, false)
	if !ok {
		return discard(r.br, remaining)
	}
	resp.known = true
	buf, err = readGrowing(r.br, buf, remaining)
	resp.body = buf
	if err != nil {
		return unexpected(err)
	}
	return splitBody(buf, &h, resp)
}

// readHeader reads and decodes the response header of hdrLen bytes into h, and its
// exception, if any, into resp.remote; it keeps the header's first bytes as evidence.
func (r *frameReader) readHeader(hdrLen int, h *responseHeader, resp *response) error {
	var hdrBytes []byte
	var err error
	if hdrLen <= r.br.Size() {
		if hdrBytes, err = r.br.Peek(hdrLen); err != nil {
			return unexpected(err)
		}
	} else {
		r.scratch, err = readGrowing(r.br, r.scratch, hdrLen)
		if err != nil {
			return unexpected(err)
		}
		hdrBytes = r.scratch
	}
	r.ev.hdrLen = uint8(copy(r.ev.hdr[:], hdrBytes))
	err = parseResponseHeader(hdrBytes, h)
	if err == nil && h.hasExc {
		resp.remote, err = remoteErrorFrom(h.exception)
	}
	if hdrLen <= r.br.Size() {
		r.br.Discard(hdrLen) //nolint:errcheck
	}
	return err
}

// splitBody checks body = varint len | message | cellblock against the header.
func splitBody(body []byte, h *responseHeader, resp *response) error {
	if len(body) == 0 {
		if h.hasCells && h.cellsLen > 0 {
			return malformed("cellblock of %d bytes announced but frame is empty", h.cellsLen)
		}
		return nil
	}
	msgLen, n := protowire.ConsumeVarint(body)
	if n < 0 {
		return malformed("response message length: %v", protowire.ParseError(n))
	}
	rest := uint64(len(body) - n)
	if msgLen > rest {
		return malformed("response message length %d exceeds the %d bytes left in the frame", msgLen, rest)
	}
	resp.msg = body[n : n+int(msgLen)]
	tail := body[n+int(msgLen):]
	switch {
	case h.hasCells && h.cellsLen != uint64(len(tail)):
		return malformed("cellblock length %d, but %d bytes left in the frame", h.cellsLen, len(tail))
	case !h.hasCells && len(tail) > 0:
		return malformed("%d trailing bytes after the response message", len(tail))
	}
	if len(tail) > 0 {
		resp.cells = tail
	}
	return nil
}

func discard(br *bufio.Reader, n int) error {
	if _, err := br.Discard(n); err != nil {
		return unexpected(err)
	}
	return nil
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// growStep is how much readGrowing allocates ahead of the bytes that have arrived.
const growStep = 1 << 20

// readGrowing reads exactly n bytes into buf's storage (reused when large enough). Beyond
// growStep the buffer grows as the bytes arrive, so a length prefix that lies (up to the frame
// limit) costs memory only for what the peer really sends.
func readGrowing(r io.Reader, buf []byte, n int) ([]byte, error) {
	if cap(buf) >= n || n <= growStep {
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		_, err := io.ReadFull(r, buf)
		return buf, err
	}
	buf = buf[:0]
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(n-len(buf), max(cap(buf), growStep)))
		}
		m, err := io.ReadFull(r, buf[len(buf):min(n, cap(buf))])
		buf = buf[:len(buf)+m]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
