package hrpc

import "github.com/go-hbase/hbase/internal/pb"

// ListOperator says how a FilterList combines its filters.
type ListOperator int32

// FilterList operators, with the values of HBase's FilterList.Operator. The zero value means
// MustPassAll.
const (
	MustPassAll ListOperator = 1
	MustPassOne ListOperator = 2
)

// FilterList combines filters: a cell passes when all of them (MustPassAll, the default) or
// any of them (MustPassOne) let it through. Lists nest.
type FilterList struct {
	Operator ListOperator
	Filters  []Filter
}

// NewFilterList returns a FilterList of filters with the operator op.
func NewFilterList(op ListOperator, filters ...Filter) *FilterList {
	return &FilterList{Operator: op, Filters: filters}
}

// toProto implements Filter.
func (f FilterList) toProto() (*pb.Filter, error) {
	op := f.Operator
	if op == 0 {
		op = MustPassAll
	}
	if op != MustPassAll && op != MustPassOne {
		return nil, invalid("FilterList: unknown operator %d", op)
	}
	p := &pb.FilterList{Operator: pb.FilterList_Operator(op).Enum(), Filters: make([]*pb.Filter, len(f.Filters))}
	for i, sub := range f.Filters {
		if sub == nil {
			return nil, invalid("FilterList: nil filter at %d", i)
		}
		var err error
		if p.Filters[i], err = sub.toProto(); err != nil {
			return nil, err
		}
	}
	return marshalFilter("FilterList", p)
}

// SkipFilter drops a whole row when Filter drops any of its cells.
type SkipFilter struct{ Filter Filter }

// toProto implements Filter.
func (f SkipFilter) toProto() (*pb.Filter, error) {
	if f.Filter == nil {
		return nil, invalid("SkipFilter without a filter")
	}
	sub, err := f.Filter.toProto()
	if err != nil {
		return nil, err
	}
	return marshalFilter("SkipFilter", &pb.SkipFilter{Filter: sub})
}

// WhileMatchFilter ends the scan of a region at the first row Filter drops. Like every filter
// it runs in each region on its own: the scan goes on in the next region, where it starts
// afresh (as with the Java client).
type WhileMatchFilter struct{ Filter Filter }

// toProto implements Filter.
func (f WhileMatchFilter) toProto() (*pb.Filter, error) {
	if f.Filter == nil {
		return nil, invalid("WhileMatchFilter without a filter")
	}
	sub, err := f.Filter.toProto()
	if err != nil {
		return nil, err
	}
	return marshalFilter("WhileMatchFilter", &pb.WhileMatchFilter{Filter: sub})
}
