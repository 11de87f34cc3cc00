package wire

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// Multi builds the MultiRequest of a batch to one server, encoded: region actions, each with the
// actions of the calls for that region, and one cellblock for all of them. The client groups the
// calls and reads the response; the message is built here.
//
// A mutation (an ActionAppender) appends its action straight to the message's bytes: building
// and marshalling a MutationProto and an Action per row through protobuf's reflection was about
// 15% of a buffered writer's CPU. Other calls build their pb.Action, marshalled in place. The
// bytes decode to the message the calls' pb.Actions and pb.RegionActions would make
// (FuzzEncodeMultiRequest).
type Multi struct {
	msg       []byte // the MultiRequest so far
	cellblock []byte
	region    []byte // the current region action's region name
	inRegion  bool   // Region was called
	// open tells that the current region action has actions: it begins at msg[start], with a
	// gap of gap bytes for its tag, length and region specifier. It is left out until its
	// first action.
	open       bool
	start, gap int
	// after holds the atomic region actions added while the current one had actions: they
	// follow it in the request.
	after   []byte
	msgHint int // bytes of message still expected (Grow)
}

// ActionAppender is a Batchable (a Put, Delete, Append or Increment) that appends its action to
// a MultiRequest's bytes itself.
type ActionAppender interface {
	Batchable
	// AppendAction appends the encoded Action index, as the action field of a RegionAction
	// (tag and length included), to dst, and its cells to cellblock.
	AppendAction(dst []byte, index uint32, cellblock []byte) ([]byte, []byte, error)
}

// MutationSlot is a MutationProto with room for the optional fields it points to, so that
// building a mutation's message takes one allocation instead of one per field.
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

// Field numbers of Client.proto's MultiRequest, RegionAction and Action, and HBase.proto's
// RegionSpecifier.
const (
	multiRegionAction  = 1
	raRegion           = 1
	raAction           = 3
	actionIndex        = 1
	actionMutation     = 2
	specType           = 1
	specValue          = 2
	maxLengthVarintLen = 5 // a length below 2^35: the frame limit keeps messages far below
)

// Region starts the region action of regionName (n, the number of actions expected, is no
// longer needed: Grow sizes the message); the next Adds go into it. A region action that gets no action is left out of the request.
func (m *Multi) Region(regionName []byte, n int) {
	m.endRegion()
	m.region, m.inRegion = regionName, true
}

// specSize is the size of the RegionSpecifier of m's current region.
func (m *Multi) specSize() int {
	n := protowire.SizeTag(specType) + protowire.SizeVarint(uint64(pb.RegionSpecifier_REGION_NAME))
	if m.region != nil {
		n += protowire.SizeTag(specValue) + protowire.SizeBytes(len(m.region))
	}
	return n
}

// openRegion reserves the gap of the current region action's header at the end of msg.
func (m *Multi) openRegion() {
	spec := m.specSize()
	m.open, m.start = true, len(m.msg)
	m.gap = protowire.SizeTag(multiRegionAction) + maxLengthVarintLen +
		protowire.SizeTag(raRegion) + protowire.SizeBytes(spec)
	m.msg = slices.Grow(m.msg, m.gap+max(m.msgHint, 64))
	m.msg = m.msg[:len(m.msg)+m.gap]
}

// endRegion writes the header of the current region action into its gap, closes the gap, and
// appends the atomic region actions that follow it.
func (m *Multi) endRegion() {
	if m.open {
		spec := m.specSize()
		specField := protowire.SizeTag(raRegion) + protowire.SizeBytes(spec)
		body := specField + len(m.msg) - m.start - m.gap
		hdr := protowire.SizeTag(multiRegionAction) + protowire.SizeVarint(uint64(body)) + specField
		shift := m.gap - hdr
		b := m.msg[:m.start+shift]
		b = protowire.AppendTag(b, multiRegionAction, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(body))
		b = protowire.AppendTag(b, raRegion, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(spec))
		b = protowire.AppendTag(b, specType, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(pb.RegionSpecifier_REGION_NAME))
		if m.region != nil {
			b = protowire.AppendTag(b, specValue, protowire.BytesType)
			b = protowire.AppendBytes(b, m.region)
		}
		_ = b // written in place, into the gap
		if shift > 0 {
			m.msg = m.msg[:m.start+copy(m.msg[m.start:], m.msg[m.start+shift:])]
		}
	}
	m.open = false
	m.msg = append(m.msg, m.after...)
	m.after = m.after[:0]
}

// Add adds call as action index of the current region action. An error leaves the request as
// it was: that call is not sent.
func (m *Multi) Add(call Batchable, index uint32) error {
	if !m.inRegion {
		return BadRequest("Multi.Add before Multi.Region")
	}
	opened := !m.open
	if opened {
		m.openRegion()
	}
	msgLen := len(m.msg)
	var err error
	if a, ok := call.(ActionAppender); ok {
		var msg, cells []byte
		msg, cells, err = a.AppendAction(m.msg, index, m.cellblock)
		if err == nil {
			m.msg, m.cellblock = msg, cells
			m.msgHint -= len(m.msg) - msgLen
		}
	} else {
		var action *pb.Action
		var cells []byte
		action, cells, err = call.Action(index, m.cellblock)
		if err == nil {
			var msg []byte
			if msg, err = appendMessage(m.msg, raAction, action); err == nil {
				m.msg, m.cellblock = msg, cells
			}
		}
	}
	if err != nil {
		m.msg = m.msg[:msgLen]
		if opened {
			m.msg, m.open = m.msg[:m.start], false
		}
		return err
	}
	return nil
}

// AddAtomic adds call as a region action of its own for regionName. It comes in the request
// after the region actions that have actions already: Adds of the current region made after
// it go into a region action before it only if that one had actions before.
func (m *Multi) AddAtomic(call AtomicBatchable, regionName []byte) error {
	ra, cells, err := call.RegionAction(regionName, m.cellblock)
	if err != nil {
		return err
	}
	if m.open {
		m.after, err = appendMessage(m.after, multiRegionAction, ra)
	} else {
		m.msg, err = appendMessage(m.msg, multiRegionAction, ra)
	}
	if err != nil {
		return err
	}
	m.cellblock = cells
	return nil
}

// appendMessage appends msg as field num of a message to b; on error b is returned as it was.
func appendMessage(b []byte, num protowire.Number, msg proto.Message) ([]byte, error) {
	n := len(b)
	size := proto.Size(msg)
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	b, err := proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(b, msg)
	if err != nil {
		return b[:n], BadRequest("%T: %v", msg, err)
	}
	if len(b)-n != protowire.SizeTag(num)+protowire.SizeBytes(size) {
		// The message changed between Size and MarshalAppend (a data race in the caller).
		return b[:n], BadRequest("%T changed while being marshalled", msg)
	}
	return b, nil
}

// Reuse makes m, before its first call, build its request in the buffers of an earlier one,
// whose bytes nothing refers to any more.
func (m *Multi) Reuse(msg, cellblock []byte) {
	m.msg, m.cellblock = msg[:0], cellblock[:0]
}

// Grow makes room for n more bytes of cellblock and about msg more bytes of message, so that a
// batch whose size is known (a buffered writer's flush: megabytes) fills one buffer of each
// instead of append's doublings.
func (m *Multi) Grow(n, msg int) {
	if n > 0 {
		m.cellblock = slices.Grow(m.cellblock, n)
	}
	m.msgHint += max(msg, 0)
}

// Request ends the request and returns its MultiRequest, encoded, and its cellblock. Adds
// after it go into a new request.
func (m *Multi) Request() (msg, cellblock []byte) {
	m.endRegion()
	msg, cellblock = m.msg, m.cellblock
	*m = Multi{}
	return msg, cellblock
}
