package region

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// RequestHeader field numbers (RPC.proto). The header is encoded by hand: it is on every call
// and building a pb.RequestHeader would cost allocations for nothing.
const (
	reqHdrCallID        = 1
	reqHdrTraceInfo     = 2
	reqHdrMethodName    = 3
	reqHdrRequestParam  = 4
	reqHdrCellBlockMeta = 5
	reqHdrPriority      = 6
	reqHdrTimeout       = 7
	reqHdrAttribute     = 8
	cellBlockMetaLength = 1
	nameBytesName       = 1 // NameBytesPair (HBase.proto)
	nameBytesValue      = 2
)

// requestHeader is what appendRequest puts in the RequestHeader.
type requestHeader struct {
	callID    uint32
	method    string
	cellsLen  int
	priority  uint32 // 0: not sent
	timeoutMs uint32 // 0: not sent
	traceInfo []byte // an encoded RPCTInfo (ContextWithTraceInfo); nil: not sent
	attrs     []*pb.NameBytesPair
}

func (h *requestHeader) size() int {
	n := protowire.SizeTag(reqHdrCallID) + protowire.SizeVarint(uint64(h.callID)) +
		protowire.SizeTag(reqHdrMethodName) + protowire.SizeBytes(len(h.method)) +
		protowire.SizeTag(reqHdrRequestParam) + 1
	if h.cellsLen > 0 {
		n += protowire.SizeTag(reqHdrCellBlockMeta) +
			protowire.SizeBytes(protowire.SizeTag(cellBlockMetaLength)+protowire.SizeVarint(uint64(h.cellsLen)))
	}
	if h.priority > 0 {
		n += protowire.SizeTag(reqHdrPriority) + protowire.SizeVarint(uint64(h.priority))
	}
	if h.timeoutMs > 0 {
		n += protowire.SizeTag(reqHdrTimeout) + protowire.SizeVarint(uint64(h.timeoutMs))
	}
	if h.traceInfo != nil {
		n += protowire.SizeTag(reqHdrTraceInfo) + protowire.SizeBytes(len(h.traceInfo))
	}
	for _, a := range h.attrs {
		n += protowire.SizeTag(reqHdrAttribute) + protowire.SizeBytes(nameBytesSize(a))
	}
	return n
}

// nameBytesSize is the encoded size of a NameBytesPair: the name always (it is required), the
// value when set.
func nameBytesSize(a *pb.NameBytesPair) int {
	n := protowire.SizeTag(nameBytesName) + protowire.SizeBytes(len(a.GetName()))
	if a.Value != nil {
		n += protowire.SizeTag(nameBytesValue) + protowire.SizeBytes(len(a.Value))
	}
	return n
}

func (h *requestHeader) appendTo(b []byte) []byte {
	b = protowire.AppendTag(b, reqHdrCallID, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(h.callID))
	if h.traceInfo != nil {
		b = protowire.AppendTag(b, reqHdrTraceInfo, protowire.BytesType)
		b = protowire.AppendBytes(b, h.traceInfo)
	}
	b = protowire.AppendTag(b, reqHdrMethodName, protowire.BytesType)
	b = protowire.AppendString(b, h.method)
	b = protowire.AppendTag(b, reqHdrRequestParam, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	if h.cellsLen > 0 {
		b = protowire.AppendTag(b, reqHdrCellBlockMeta, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(protowire.SizeTag(cellBlockMetaLength)+protowire.SizeVarint(uint64(h.cellsLen))))
		b = protowire.AppendTag(b, cellBlockMetaLength, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(h.cellsLen))
	}
	if h.priority > 0 {
		b = protowire.AppendTag(b, reqHdrPriority, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(h.priority))
	}
	if h.timeoutMs > 0 {
		b = protowire.AppendTag(b, reqHdrTimeout, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(h.timeoutMs))
	}
	for _, a := range h.attrs {
		b = protowire.AppendTag(b, reqHdrAttribute, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(nameBytesSize(a)))
		b = protowire.AppendTag(b, nameBytesName, protowire.BytesType)
		b = protowire.AppendString(b, a.GetName())
		if a.Value != nil {
			b = protowire.AppendTag(b, nameBytesValue, protowire.BytesType)
			b = protowire.AppendBytes(b, a.Value)
		}
	}
	return b
}

var errNilRequest = fmt.Errorf("%w: region: nil request message", hberr.ErrBadRequest)

// appendRequest appends one request frame to dst:
// be32 total | varint len | RequestHeader | varint len | param | cells.
// param is req marshalled, or, when param is not nil, the bytes given.
// A large frame goes into a buffer of frames (when not nil) if dst is too small.
func appendRequest(dst []byte, h *requestHeader, req proto.Message, param, cells []byte, maxFrame int, frames *sync.Pool) ([]byte, error) {
	h.cellsLen = len(cells)
	hdrLen := h.size()
	paramLen := len(param)
	if param == nil {
		paramLen = proto.MarshalOptions{}.Size(req)
	}
	total := protowire.SizeVarint(uint64(hdrLen)) + hdrLen +
		protowire.SizeVarint(uint64(paramLen)) + paramLen + len(cells)
	if total > maxFrame || total > math.MaxInt32 {
		// The caller's request, not the connection, is at fault: nothing was written.
		return dst, fmt.Errorf("%w: the request is %d bytes, over the frame limit of %d bytes (%w)",
			hberr.ErrBadRequest, total, maxFrame, ErrFrameTooLarge)
	}
	if len(dst) == 0 && cap(dst) < 4+total && 4+total >= largeFrame && frames != nil {
		if b, _ := frames.Get().(*[]byte); b != nil && cap(*b) >= 4+total {
			dst = (*b)[:0]
		}
	}
	start := len(dst)
	// One allocation for a frame larger than the buffer, not append's doublings.
	dst = slices.Grow(dst, 4+total)
	dst = binary.BigEndian.AppendUint32(dst, uint32(total))
	dst = protowire.AppendVarint(dst, uint64(hdrLen))
	dst = h.appendTo(dst)
	dst = protowire.AppendVarint(dst, uint64(paramLen))
	if param == nil {
		var err error
		dst, err = proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(dst, req)
		if err != nil {
			return dst[:start], fmt.Errorf("region: marshal %s request: %w", h.method, err)
		}
	} else {
		dst = append(dst, param...)
	}
	dst = append(dst, cells...)
	if len(dst)-start != 4+total {
		// The message changed between Size and MarshalAppend (a data race in the caller).
		return dst[:start], fmt.Errorf("region: %s request changed while being marshalled", h.method)
	}
	return dst, nil
}
