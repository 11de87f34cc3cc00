package hrpc

import (
	"sync"

	"github.com/go-hbase/hbase/internal/pb"
)

// getResponse is a GetResponse that is recycled: region merges a response into the message it
// is given (proto.UnmarshalOptions.Merge), and a merge fills set fields in place, so a recycled
// response whose Result and scalar fields are already set decodes without allocating. The
// embedded message is what protobuf sees (ProtoReflect is promoted from it).
//
// Only what cannot tell "absent" from "zero" is preset: associated_cell_count, stale and
// partial mean the same absent or zero, and an absent Result means an empty one, except for
// exists-only Gets, which get a fresh message (their Result's presence is the answer).
// Nothing decoded aliases the message: cells alias the cellblock, and cells carried in the
// message are fresh copies that are dropped, not reused, when the message is recycled.
type getResponse struct {
	pb.GetResponse
	result         pb.Result
	count          int32
	stale, partial bool
}

// getResponses is a free list, not state: nothing observable depends on what it holds.
var getResponses = sync.Pool{New: func() any { return new(getResponse) }}

func newGetResponse() *getResponse {
	r := getResponses.Get().(*getResponse)
	r.count, r.stale, r.partial = 0, false, false
	r.result.AssociatedCellCount, r.result.Stale, r.result.Partial = &r.count, &r.stale, &r.partial
	r.GetResponse.Result = &r.result
	return r
}

// recycle returns r to the free list once everything decoded from it has been copied out.
func (r *getResponse) recycle() {
	r.GetResponse.Reset()
	r.result.Reset() // drops cells carried in the message and unknown fields
	getResponses.Put(r)
}
