package region

import (
	"encoding/hex"
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// Checker checks a decoded response against the request it answers, before Call returns and
// while the frame's bytes are still at hand. The request types of package hrpc implement it:
// a single-row result must hold cells of the requested row only, and as many as the response
// announces. An error from CheckResponse makes Call reset the connection and return an error
// wrapping hberr.ErrCorruptResponse and the checker's error.
type Checker interface {
	CheckResponse(resp proto.Message, cells []byte) error
}

// A Checker that is also a Decoder decodes the response message itself, instead of
// proto.Unmarshal, before it checks it (a batch's MultiResponse, whose thousands of results it
// decodes into a few slabs). Decode must give what proto.Unmarshal gives into resp, an empty
// message, or fail where it fails; it must not keep msg, whose buffer is reused.
type Decoder interface {
	Decode(msg []byte, resp proto.Message) error
}

// Bounds of the evidence logged for a corrupt response.
const (
	maxEvidenceHeader = 64  // bytes of the response header kept per call
	maxEvidenceBody   = 128 // bytes of the body dumped
)

// frameEvidence is what the reader saw of one response frame, kept for the log line of a
// response that turns out to be corrupt.
type frameEvidence struct {
	total  uint32 // the frame length prefix
	hdr    [maxEvidenceHeader]byte
	hdrLen uint8 // bytes of hdr in use (the header, truncated)
}

// corrupt resets the connection after cl's response failed to decode or to pass its check,
// logs the evidence (once per connection: the reset ends the stream), and returns the error
// the caller gets.
func (c *Client) corrupt(cl *call, method string, req proto.Message, cause error) error {
	err := fmt.Errorf("region: %s %s: %w: %w", c.addr, method, hberr.ErrCorruptResponse, cause)
	if c.loggedCorrupt.CompareAndSwap(false, true) {
		body := cl.body
		c.log.Error("region: corrupt response; resetting the connection",
			"call_id", cl.id, "method", method, "region", regionOf(req),
			"frame_len", cl.ev.total, "header", hex.EncodeToString(cl.ev.hdr[:cl.ev.hdrLen]),
			"body_len", len(body), "body_head", hex.EncodeToString(body[:min(len(body), maxEvidenceBody)]),
			"cellblock_len", len(cl.cells), "err", cause)
	}
	c.fail(c.connFailed(err))
	return err
}

// regionOf returns the region name a request names in its "region" field (Get, Mutate, Scan
// and the like), or "" when it names none or several (Multi).
func regionOf(req proto.Message) string {
	if req == nil {
		return ""
	}
	m := req.ProtoReflect()
	f := m.Descriptor().Fields().ByName("region")
	if f == nil || f.Kind() != protoreflect.MessageKind || !m.Has(f) {
		return ""
	}
	spec, ok := m.Get(f).Message().Interface().(*pb.RegionSpecifier)
	if !ok {
		return ""
	}
	return string(spec.GetValue())
}
