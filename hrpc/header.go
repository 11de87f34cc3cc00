package hrpc

import (
	"math"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Priority sets the request's RPC priority (RequestHeader.priority; the Java client's
// OperationWithAttributes.setPriority). HBase serves a call whose priority is above its
// QOS_THRESHOLD (10) from the region server's priority handlers, outside the queue of
// ordinary calls, and names priorities in HConstants: 0 is NORMAL_QOS (the default: nothing
// is sent, and the server picks by method and table), 200 HIGH_QOS. A batch (SendBatch) goes
// out with the highest priority of its calls, as the Java client's batches do; a scan's RPCs
// (open, next, close) all carry its priority. A CheckAndMutate or RowMutations goes out with
// the highest of its own and its mutations' priorities, as the Java client's checkAndMutate
// and mutateRow do. n must be in [0, 2^31-1].
func Priority(n int) RequestOption {
	return RequestOption(func(o *options) error {
		if n < 0 || n > math.MaxInt32 {
			return invalid("Priority(%d) outside [0, %d]", n, math.MaxInt32)
		}
		if n != 0 || o.hdr != nil {
			o.header().priority = uint32(n)
		}
		return nil
	})
}

// RequestAttribute sets a request attribute of HBase 2.6 (RequestHeader.attribute; the Java
// client's TableBuilder.setRequestAttribute): metadata of the RPC that server-side code
// (coprocessors, quotas, audit logs) reads from the call (RpcCall.getRequestAttributes),
// unlike Attribute, which sets an attribute of the operation itself
// (OperationWithAttributes.setAttribute). A later RequestAttribute with the same name
// replaces the earlier value; a nil value is sent as a name without a value. Servers before
// 2.6 ignore them. A CheckAndMutate or RowMutations carries its own request attributes and
// those of its mutations, each name once (its own value, else the first mutation's); a batch
// (SendBatch) carries the request attributes of all its calls to a server, each name once
// (the value of the call that comes first in the batch).
func RequestAttribute(name string, value []byte) RequestOption {
	return RequestOption(func(o *options) error {
		if name == "" {
			return invalid("empty request attribute name")
		}
		h := o.header()
		h.attrs = wire.SetAttribute(h.attrs, name, value)
		return nil
	})
}

// callHeader is what a request adds to the RequestHeader of its RPCs. A request without
// Priority or RequestAttribute has none (nil), so they cost the common call nothing.
type callHeader struct {
	priority uint32
	attrs    []*pb.NameBytesPair
}

// header returns the request's callHeader, allocating it on first use.
func (o *options) header() *callHeader {
	if o.hdr == nil {
		o.hdr = new(callHeader)
	}
	return o.hdr
}

// fields returns the priority and request attributes (zero and nil for a nil header).
func (h *callHeader) fields() (uint32, []*pb.NameBytesPair) {
	if h == nil {
		return 0, nil
	}
	return h.priority, h.attrs
}

// headerJoin builds the header of a request made of others, a CheckAndMutate of its mutation
// or RowMutations of theirs: the highest priority of all and the request attributes of each,
// each name once with the first value. It shares the one header when only one has any, and
// copies before changing a header it does not own.
type headerJoin struct {
	h     *callHeader
	owned bool
}

func (j *headerJoin) add(o *callHeader) {
	switch {
	case o == nil:
	case j.h == nil:
		j.h = o
	default:
		if !j.owned {
			j.h = &callHeader{priority: j.h.priority, attrs: slices.Clone(j.h.attrs)}
			j.owned = true
		}
		j.h.priority = max(j.h.priority, o.priority)
		for _, a := range o.attrs {
			if !slices.ContainsFunc(j.h.attrs, func(b *pb.NameBytesPair) bool { return b.GetName() == a.GetName() }) {
				j.h.attrs = append(j.h.attrs, a)
			}
		}
	}
}
