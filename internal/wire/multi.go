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
	slots     []ActionSlot // free slots of the last block (SlotBatchable)
	slotHint  int          // actions still expected (Grow)
}

// MutationSlot is a MutationProto with room for the optional fields it points to, so that
// encoding a mutation takes one allocation (or a place in a block) instead of one per field.
type MutationSlot struct {
	Mutation   pb.MutationProto
	Type       pb.MutationProto_MutationType
	Durability pb.MutationProto_Durability
	Timestamp  uint64
	Count      int32
	Nonce      uint64
}

// ActionSlot is an Action of a MultiRequest with room for its index and its mutation.
type ActionSlot struct {
	Action   pb.Action
	Index    uint32
	Mutation MutationSlot
}

// SlotBatchable is a Batchable (a Put, Delete, Append or Increment) that builds its action in
// a slot its caller gives: Multi allocates the slots of a batch's actions in blocks.
type SlotBatchable interface {
	Batchable
	// ActionInto is Action into slot, a zero ActionSlot.
	ActionInto(slot *ActionSlot, index uint32, cellblock []byte) ([]byte, error)
}

// maxSlotBlock bounds the slots Multi allocates at once.
const maxSlotBlock = 4096

// Region starts the region action of regionName, with room for about n actions; the next Adds
// go into it. A region action that gets no action is left out of the request.
func (m *Multi) Region(regionName []byte, n int) {
	m.cur = &pb.RegionAction{Region: RegionSpecifier(regionName)}
	if n > 1 {
		m.cur.Action = make([]*pb.Action, 0, n)
	}
}

// Add adds call as action index of the current region action. An error leaves the request as
// it was: that call is not sent.
func (m *Multi) Add(call Batchable, index uint32) error {
	if m.cur == nil {
		return BadRequest("Multi.Add before Multi.Region")
	}
	var a *pb.Action
	if sc, ok := call.(SlotBatchable); ok {
		if len(m.slots) == 0 {
			m.slots = make([]ActionSlot, min(max(m.slotHint, 1), maxSlotBlock))
		}
		slot := &m.slots[0]
		grown, err := sc.ActionInto(slot, index, m.cellblock)
		if err != nil {
			*slot = ActionSlot{}
			return err
		}
		m.slots = m.slots[1:]
		m.slotHint--
		m.cellblock, a = grown, &slot.Action
	} else {
		action, grown, err := call.Action(index, m.cellblock)
		if err != nil {
			return err
		}
		m.cellblock, a = grown, action
	}
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

// Grow makes room for n more bytes of cellblock and about actions more actions, so that a
// batch whose size is known (a buffered writer's flush: megabytes) fills one buffer instead of
// append's doublings, and its mutations' actions take one block.
func (m *Multi) Grow(n, actions int) {
	if n > 0 {
		m.cellblock = slices.Grow(m.cellblock, n)
	}
	m.slotHint += max(actions, 0)
}

// Request returns the MultiRequest and its cellblock.
func (m *Multi) Request() (*pb.MultiRequest, []byte) { return &m.req, m.cellblock }
