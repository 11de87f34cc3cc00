package hrpc

import (
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Condition is what a CheckAndMutate checks, atomically, before it applies its mutation. Build
// it with IfValue, IfNotExists or IfFilter.
type Condition struct {
	family, qualifier []byte
	op                CompareOp
	value             []byte
	filter            Filter
	timeRange         *pb.TimeRange
	err               error
}

// IfValue holds when `value op current` is true, with current the newest value of
// family:qualifier (operands in the order of the Java client: Less means value < current).
// An empty value with Equal matches a missing or empty column.
func IfValue(family, qualifier []byte, op CompareOp, value []byte) Condition {
	c := Condition{family: family, qualifier: qualifier, op: op, value: value}
	if err := checkFamily(family); err != nil {
		c.err = err
	} else if op < Less || op > Greater {
		c.err = invalid("condition compare op %d", op)
	}
	return c
}

// IfNotExists holds when family:qualifier has no value (or an empty one).
func IfNotExists(family, qualifier []byte) Condition {
	return IfValue(family, qualifier, Equal, nil)
}

// IfFilter holds when the filter, applied to the row, lets at least one cell through.
func IfFilter(f Filter) Condition {
	c := Condition{filter: f}
	if f == nil {
		c.err = invalid("condition with a nil filter")
	}
	return c
}

// InTimeRange restricts the cells the condition looks at to from <= timestamp < to.
func (c Condition) InTimeRange(from, to uint64) Condition {
	if from > to || to > LatestTimestamp {
		c.err = invalid("condition time range [%d, %d)", from, to)
		return c
	}
	c.timeRange = &pb.TimeRange{From: &from, To: &to}
	return c
}

func (c *Condition) proto(row []byte) (*pb.Condition, error) {
	if c.err != nil {
		return nil, c.err
	}
	p := &pb.Condition{Row: row, TimeRange: c.timeRange}
	if c.filter != nil {
		f, err := c.filter.toProto()
		if err != nil {
			return nil, err
		}
		p.Filter = f
		return p, nil
	}
	if c.family == nil {
		return nil, invalid("empty condition: use IfValue, IfNotExists or IfFilter")
	}
	cmp, err := BinaryComparator{Value: c.value}.toProto()
	if err != nil {
		return nil, err
	}
	q := c.qualifier
	if q == nil {
		q = []byte{}
	}
	p.Family, p.Qualifier, p.CompareType, p.Comparator = c.family, q, pb.CompareType(c.op).Enum(), cmp
	return p, nil
}

// CheckAndMutate applies a mutation, or several mutations of one row, only if a condition on
// that row holds; check and mutation are atomic.
type CheckAndMutate struct {
	table       string
	row         []byte
	condition   *pb.Condition
	mutation    Mutation
	rows        *RowMutations
	maxAttempts int
	hdr         *callHeader // its own header options joined with its mutations'; nil: none
}

// NewCheckAndMutate applies m if cond holds on m's row. Its options are the RequestOptions
// (MaxAttempts, Priority, RequestAttribute); the priority and request attributes of m count
// too (see Priority and RequestAttribute), its MaxAttempts does not.
func NewCheckAndMutate(cond Condition, m Mutation, opts ...CheckAndMutateOption) (*CheckAndMutate, error) {
	if isNil(m) {
		return nil, invalid("CheckAndMutate without a mutation")
	}
	b := m.base()
	cm, err := newCheckAndMutate(cond, b.table, b.row, b.hdr, opts)
	if err != nil {
		return nil, err
	}
	cm.mutation = m
	return cm, nil
}

// NewCheckAndMutateRow applies all of rm atomically if cond holds on rm's row. Its options
// are NewCheckAndMutate's; the priority and request attributes of rm (its own and its
// mutations') count too, its MaxAttempts does not.
func NewCheckAndMutateRow(cond Condition, rm *RowMutations, opts ...CheckAndMutateOption) (*CheckAndMutate, error) {
	if rm == nil {
		return nil, invalid("CheckAndMutate without mutations")
	}
	cm, err := newCheckAndMutate(cond, rm.table, rm.row, rm.hdr, opts)
	if err != nil {
		return nil, err
	}
	cm.rows = rm
	return cm, nil
}

// newCheckAndMutate is the CheckAndMutate of cond on row of table, without its mutations:
// its header is opts' priority and attributes joined with hdr, its mutations'.
func newCheckAndMutate(cond Condition, table string, row []byte, hdr *callHeader, opts []CheckAndMutateOption) (*CheckAndMutate, error) {
	pc, err := cond.proto(row)
	if err != nil {
		return nil, err
	}
	maxAttempts, own, err := requestOptions(opts)
	if err != nil {
		return nil, err
	}
	j := headerJoin{h: own, owned: own != nil}
	j.add(hdr)
	return &CheckAndMutate{table: table, row: row, condition: pc, maxAttempts: maxAttempts, hdr: j.h}, nil
}

// checkAndMutateCall is a CheckAndMutate's wire side (wire.Call, wire.AtomicBatchable), on a
// type of its own so that its methods are not part of CheckAndMutate's API.
type checkAndMutateCall CheckAndMutate

func (c *CheckAndMutate) batchable() wire.Batchable { return (*checkAndMutateCall)(c) }

// Action fails: a CheckAndMutate goes into a batch as a region action (RegionAction).
func (c *checkAndMutateCall) Action(uint32, []byte) (*pb.Action, []byte, error) {
	return nil, nil, invalid("CheckAndMutate is a region action of its own in a batch, not an action")
}

// RegionAction builds the CheckAndMutate's atomic region action with its condition: its one
// mutation, or the mutations of its RowMutations, indexed from 0.
func (c *checkAndMutateCall) RegionAction(regionName, cellblock []byte) (*pb.RegionAction, []byte, error) {
	var ra *pb.RegionAction
	if c.rows != nil {
		ra, cellblock = c.rows.regionAction(regionName, cellblock)
	} else {
		atomic := true
		a, grown, err := (*mutationCall)(c.mutation.base()).Action(0, cellblock)
		if err != nil {
			return nil, cellblock, err
		}
		cellblock = grown
		ra = &pb.RegionAction{Region: wire.RegionSpecifier(regionName), Atomic: &atomic, Action: []*pb.Action{a}}
	}
	ra.Condition = c.condition
	return ra, cellblock, nil
}

// TableName is the table of the row.
func (c *checkAndMutateCall) TableName() string { return c.table }

// Table is the table's bytes, a read-only view (wire.TableBytes).
func (c *checkAndMutateCall) Table() []byte { return wire.TableBytes(c.table) }

// Key is the row checked and mutated.
func (c *checkAndMutateCall) Key() []byte { return c.row }

// Method is "Mutate" for one mutation and "Multi" for RowMutations.
func (c *checkAndMutateCall) Method() string {
	if c.rows != nil {
		return "Multi"
	}
	return "Mutate"
}

// Op is "CheckAndMutate".
func (c *checkAndMutateCall) Op() string { return "CheckAndMutate" }

// MaxAttempts is the CheckAndMutate's MaxAttempts option, 0 without one (the client's setting
// applies): that of its mutation does not apply to it.
func (c *checkAndMutateCall) MaxAttempts() int { return c.maxAttempts }

// Header is the priority and request attributes of the CheckAndMutate and its mutations
// (wire.HeaderFields).
func (c *checkAndMutateCall) Header() (uint32, []*pb.NameBytesPair) { return c.hdr.fields() }

// Marshal builds a MutateRequest with a condition, or for RowMutations a MultiRequest with one
// atomic conditional RegionAction, and appends the cells to cellblock.
func (c *checkAndMutateCall) Marshal(regionName, cellblock []byte) (proto.Message, []byte, error) {
	if c.rows != nil {
		ra, cellblock := c.rows.regionAction(regionName, cellblock)
		ra.Condition = c.condition
		return &pb.MultiRequest{RegionAction: []*pb.RegionAction{ra}}, cellblock, nil
	}
	req, cellblock, err := (*mutationCall)(c.mutation.base()).Marshal(regionName, cellblock)
	if err != nil {
		return nil, cellblock, err
	}
	req.(*pb.MutateRequest).Condition = c.condition
	return req, cellblock, nil
}

// NewResponse returns an empty MutateResponse or MultiResponse, as Marshal's request needs.
func (c *checkAndMutateCall) NewResponse() proto.Message {
	if c.rows != nil {
		return new(pb.MultiResponse)
	}
	return new(pb.MutateResponse)
}

// decode reports whether the condition held and the mutation was applied, and returns the
// result of an Append or Increment (an empty Result for other mutations).
func (c *CheckAndMutate) decode(resp proto.Message, cellblock []byte) (bool, *Result, error) {
	var pr *pb.Result
	var processed bool
	if c.rows != nil {
		rar, p, err := regionActionResult(resp, len(c.rows.mutations))
		if err != nil {
			return false, nil, err
		}
		processed = p
		for _, roe := range rar.ResultOrException {
			if roe.Result != nil {
				pr = roe.Result
				break
			}
		}
	} else {
		r, ok := resp.(*pb.MutateResponse)
		if !ok {
			return false, nil, badResponse("%T for a conditional Mutate", resp)
		}
		processed, pr = r.GetProcessed(), r.Result
	}
	if pr == nil {
		return processed, &Result{}, nil
	}
	var rd wire.CellReader
	rd.Reset(cellblock)
	res, err := parseResult(pr, &rd)
	return processed, res, err
}
