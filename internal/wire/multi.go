package wire

import (
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
)

// Multi builds the MultiRequest of a batch to one server: region actions, each with the
// actions of the calls for that region, and one cellblock for all of them. The client groups
// the calls and reads the response; the message is built here.
type Multi struct {
	req       pb.MultiRequest
	cur       *pb.RegionAction
	cellblock []byte
}

// Region starts the region action of regionName; the next Adds go into it. A region action
// that gets no action is left out of the request.
func (m *Multi) Region(regionName []byte) {
	m.cur = &pb.RegionAction{Region: RegionSpecifier(regionName)}
}

// Add adds call as action index of the current region action. An error leaves the request as
// it was: that call is not sent.
func (m *Multi) Add(call Batchable, index uint32) error {
	if m.cur == nil {
		return BadRequest("Multi.Add before Multi.Region")
	}
	a, grown, err := call.Action(index, m.cellblock)
	if err != nil {
		return err
	}
	m.cellblock = grown
	if len(m.cur.Action) == 0 {
		m.req.RegionAction = append(m.req.RegionAction, m.cur)
	}
	m.cur.Action = append(m.cur.Action, a)
	return nil
}

// AddAtomic adds call as a region action of its own for regionName. It comes in the request
// after the region actions that have actions already: Adds of the current region made after
// it go into a region action before it only if that one had actions before.
func (m *Multi) AddAtomic(call AtomicBatchable, regionName []byte) error {
	ra, grown, err := call.RegionAction(regionName, m.cellblock)
	if err != nil {
		return err
	}
	m.cellblock = grown
	m.req.RegionAction = append(m.req.RegionAction, ra)
	return nil
}

// Grow makes room for n more bytes of cellblock, so that a batch whose size is known (a
// buffered writer's flush: megabytes) fills one buffer instead of append's doublings.
func (m *Multi) Grow(n int) {
	if n > 0 {
		m.cellblock = slices.Grow(m.cellblock, n)
	}
}

// Request returns the MultiRequest and its cellblock.
func (m *Multi) Request() (*pb.MultiRequest, []byte) { return &m.req, m.cellblock }
