package engine

import (
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// A call's headers: its priority and request attributes (hrpc.Priority, hrpc.RequestAttribute),
// sent in the RequestHeader of each of its RPCs (region.Extras).

// extrasOf returns the RequestHeader fields a call (or scan) carries of its own: hrpc.Priority
// and hrpc.RequestAttribute.
func extrasOf(call any) region.Extras {
	if h, ok := call.(wire.HeaderFields); ok {
		p, attrs := h.Header()
		return region.Extras{Priority: p, Attributes: attrs}
	}
	return region.Extras{}
}

// batchExtras are the RequestHeader fields of one MultiRequest: the highest priority of its
// calls (as the Java client's batches have) and their request attributes, each name once
// with the first call's value.
func batchExtras(calls []hrpc.Batchable, sent [][]int) region.Extras {
	var x region.Extras
	for _, idx := range sent {
		for _, i := range idx {
			x = addExtras(x, wireOf(calls[i]))
		}
	}
	return x
}

func addExtras(x region.Extras, call wire.Batchable) region.Extras {
	if h, ok := call.(wire.HeaderFields); ok {
		p, attrs := h.Header()
		x.Priority = max(x.Priority, p)
		for _, a := range attrs {
			if !hasAttr(x.Attributes, a.GetName()) {
				x.Attributes = append(x.Attributes, a)
			}
		}
	}
	return x
}

func hasAttr(attrs []*pb.NameBytesPair, name string) bool {
	for _, a := range attrs {
		if a.GetName() == name {
			return true
		}
	}
	return false
}
