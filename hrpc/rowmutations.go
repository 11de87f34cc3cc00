package hrpc

import (
	"bytes"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// RowMutations applies several mutations to one row atomically (the client's MutateRow): the
// server applies all of them or none. They are applied in the order given.
type RowMutations struct {
	table       string
	row         []byte
	mutations   []Mutation
	maxAttempts int
	hdr         *callHeader // its own header options joined with its mutations'; nil: none
}

// NewRowMutations groups mutations of the same table and row. Puts, Deletes, Appends and
// Increments may be mixed. Its options are the RequestOptions (MaxAttempts, Priority,
// RequestAttribute); the priorities and request attributes of the mutations count too (see
// Priority and RequestAttribute), their MaxAttempts do not.
func NewRowMutations(mutations []Mutation, opts ...RowMutationsOption) (*RowMutations, error) {
	if len(mutations) == 0 {
		return nil, errNoCells
	}
	for i, m := range mutations {
		if isNil(m) {
			return nil, invalid("RowMutations: nil mutation at %d", i)
		}
	}
	first := mutations[0].base()
	for i, m := range mutations[1:] {
		if b := m.base(); b.table != first.table {
			return nil, invalid("RowMutations: mutation %d is for table %q, not %q", i+1, b.table, first.table)
		} else if !bytes.Equal(b.row, first.row) {
			return nil, invalid("RowMutations: mutation %d is for row %q, not %q", i+1, b.row, first.row)
		}
	}
	maxAttempts, own, err := requestOptions(opts)
	if err != nil {
		return nil, err
	}
	j := headerJoin{h: own, owned: own != nil}
	for _, m := range mutations {
		j.add(m.base().hdr)
	}
	return &RowMutations{
		table:       first.table,
		row:         first.row,
		mutations:   append([]Mutation(nil), mutations...),
		maxAttempts: maxAttempts,
		hdr:         j.h,
	}, nil
}

// rowMutationsCall is a RowMutations' wire side (wire.Call, wire.AtomicBatchable), on a type of
// its own so that its methods are not part of RowMutations' API.
type rowMutationsCall RowMutations

func (r *RowMutations) batchable() wire.Batchable { return (*rowMutationsCall)(r) }

// Action fails: RowMutations go into a batch as a region action (RegionAction).
func (r *rowMutationsCall) Action(uint32, []byte) (*pb.Action, []byte, error) {
	return nil, nil, invalid("RowMutations are a region action of their own in a batch, not an action")
}

// RegionAction builds the atomic region action of the mutations, indexed from 0.
func (r *rowMutationsCall) RegionAction(regionName, cellblock []byte) (*pb.RegionAction, []byte, error) {
	ra, cellblock := (*RowMutations)(r).regionAction(regionName, cellblock)
	return ra, cellblock, nil
}

// TableName is the table of the mutations.
func (r *rowMutationsCall) TableName() string { return r.table }

// Table is the table's bytes, a read-only view (wire.TableBytes).
func (r *rowMutationsCall) Table() []byte { return wire.TableBytes(r.table) }

// Key is the row the mutations change.
func (r *rowMutationsCall) Key() []byte { return r.row }

// Method is "Multi".
func (r *rowMutationsCall) Method() string { return "Multi" }

// Op is "MutateRow".
func (r *rowMutationsCall) Op() string { return "MutateRow" }

// MaxAttempts is the RowMutations' MaxAttempts option, 0 without one (the client's setting
// applies): those of its mutations do not apply to it.
func (r *rowMutationsCall) MaxAttempts() int { return r.maxAttempts }

// Header is the priority and request attributes of the RowMutations and its mutations
// (wire.HeaderFields).
func (r *rowMutationsCall) Header() (uint32, []*pb.NameBytesPair) { return r.hdr.fields() }

// regionAction builds the atomic RegionAction of the mutations and appends their cells.
func (r *RowMutations) regionAction(regionName, cellblock []byte) (*pb.RegionAction, []byte) {
	atomic := true
	ra := &pb.RegionAction{
		Region: wire.RegionSpecifier(regionName),
		Atomic: &atomic,
		Action: make([]*pb.Action, len(r.mutations)),
	}
	for i, m := range r.mutations {
		ra.Action[i], cellblock, _ = (*mutationCall)(m.base()).Action(uint32(i), cellblock)
	}
	return ra, cellblock
}

// Marshal builds a MultiRequest with one atomic RegionAction for regionName and appends the
// cells to cellblock.
func (r *rowMutationsCall) Marshal(regionName, cellblock []byte) (proto.Message, []byte, error) {
	ra, cellblock := (*RowMutations)(r).regionAction(regionName, cellblock)
	return &pb.MultiRequest{RegionAction: []*pb.RegionAction{ra}}, cellblock, nil
}

// NewResponse returns an empty MultiResponse.
func (r *rowMutationsCall) NewResponse() proto.Message { return new(pb.MultiResponse) }

// decode checks the MultiResponse of the mutations. A failure of the region action (the whole
// row mutation was not applied) or of one action is returned as an *hberr.RemoteError.
func (r *RowMutations) decode(resp proto.Message, cellblock []byte) error {
	_, _, err := regionActionResult(resp, len(r.mutations))
	return err
}

// regionActionResult returns the single RegionActionResult of resp after checking it for
// exceptions.
func regionActionResult(resp proto.Message, actions int) (*pb.RegionActionResult, bool, error) {
	m, ok := resp.(*pb.MultiResponse)
	if !ok {
		return nil, false, badResponse("%T for a MultiRequest", resp)
	}
	if len(m.RegionActionResult) != 1 {
		return nil, false, badResponse("%d region action results for one region action", len(m.RegionActionResult))
	}
	rar := m.RegionActionResult[0]
	if e := rar.Exception; e != nil {
		return nil, false, wire.ActionException(e)
	}
	for _, roe := range rar.ResultOrException {
		if e := roe.Exception; e != nil {
			return nil, false, wire.ActionException(e)
		}
	}
	if len(rar.ResultOrException) > actions {
		return nil, false, badResponse("%d action results for %d actions", len(rar.ResultOrException), actions)
	}
	return rar, rar.GetProcessed(), nil
}

// isNil reports whether m is nil or a nil *Put, *Delete, *Append or *Increment.
func isNil(m Mutation) bool {
	switch m := m.(type) {
	case nil:
		return true
	case *Put:
		return m == nil
	case *Delete:
		return m == nil
	case *Append:
		return m == nil
	case *Increment:
		return m == nil
	}
	return false
}
