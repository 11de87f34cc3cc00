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
// calls, atomic ones (CheckAndMutate, RowMutations) included, as the Java client's batches
// have, and their request attributes, each name once with the value of the call that comes
// first in the batch (the request puts a region's atomic calls after its others, and groups
// calls by region).
func batchExtras(calls []hrpc.Batchable, sent [][]int) region.Extras {
	var x region.Extras
	var from []int // the call each of x.Attributes comes from
	for _, idx := range sent {
		for _, i := range idx {
			h, ok := wireOf(calls[i]).(wire.HeaderFields)
			if !ok {
				continue
			}
			p, attrs := h.Header()
			x.Priority = max(x.Priority, p)
			for _, a := range attrs {
				switch k := attrIndex(x.Attributes, a.GetName()); {
				case k < 0:
					x.Attributes = append(x.Attributes, a)
					from = append(from, i)
				case i < from[k]:
					x.Attributes[k], from[k] = a, i
				}
			}
		}
	}
	return x
}

// attrIndex is the index of the attribute called name in attrs, -1 if none is.
func attrIndex(attrs []*pb.NameBytesPair, name string) int {
	for k, a := range attrs {
		if a.GetName() == name {
			return k
		}
	}
	return -1
}
