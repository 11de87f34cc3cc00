package hrpc

import "github.com/go-hbase/hbase/internal/pb"

func compareFilter(op CompareOp, c Comparator) (*pb.CompareFilter, error) {
	pop, err := op.proto()
	if err != nil {
		return nil, err
	}
	cf := &pb.CompareFilter{CompareOp: pop}
	if c != nil {
		if cf.Comparator, err = c.toProto(); err != nil {
			return nil, err
		}
	}
	return cf, nil
}

// RowFilter keeps the rows whose key k satisfies `k Op operand`, the operand being the
// comparator's (Greater keeps rows after it). Note that CheckAndMutate conditions put the
// operands the other way round.
type RowFilter struct {
	Op         CompareOp
	Comparator Comparator
}

// toProto implements Filter.
func (f RowFilter) toProto() (*pb.Filter, error) {
	cf, err := compareFilter(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshalFilter("RowFilter", &pb.RowFilter{CompareFilter: cf})
}

// FamilyFilter keeps the cells whose family f satisfies `f Op operand`.
type FamilyFilter struct {
	Op         CompareOp
	Comparator Comparator
}

// toProto implements Filter.
func (f FamilyFilter) toProto() (*pb.Filter, error) {
	cf, err := compareFilter(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshalFilter("FamilyFilter", &pb.FamilyFilter{CompareFilter: cf})
}

// QualifierFilter keeps the cells whose qualifier q satisfies `q Op operand`.
type QualifierFilter struct {
	Op         CompareOp
	Comparator Comparator
}

// toProto implements Filter.
func (f QualifierFilter) toProto() (*pb.Filter, error) {
	cf, err := compareFilter(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshalFilter("QualifierFilter", &pb.QualifierFilter{CompareFilter: cf})
}

// ValueFilter keeps the cells whose value v satisfies `v Op operand`.
type ValueFilter struct {
	Op         CompareOp
	Comparator Comparator
}

// toProto implements Filter.
func (f ValueFilter) toProto() (*pb.Filter, error) {
	cf, err := compareFilter(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshalFilter("ValueFilter", &pb.ValueFilter{CompareFilter: cf})
}

// SingleColumnValueFilter keeps the whole rows whose column Family:Qualifier has a value v
// with `v Op operand`. Rows without the column are kept unless FilterIfMissing; only the newest
// version is tested unless AllVersions.
type SingleColumnValueFilter struct {
	Family, Qualifier []byte
	Op                CompareOp
	Comparator        Comparator
	FilterIfMissing   bool
	AllVersions       bool
}

func (f *SingleColumnValueFilter) proto() (*pb.SingleColumnValueFilter, error) {
	pop, err := f.Op.proto()
	if err != nil {
		return nil, err
	}
	if f.Comparator == nil {
		return nil, invalid("SingleColumnValueFilter without a comparator")
	}
	cmp, err := f.Comparator.toProto()
	if err != nil {
		return nil, err
	}
	latestOnly := !f.AllVersions
	return &pb.SingleColumnValueFilter{
		ColumnFamily: f.Family, ColumnQualifier: f.Qualifier,
		CompareOp: pop, Comparator: cmp,
		FilterIfMissing: &f.FilterIfMissing, LatestVersionOnly: &latestOnly,
	}, nil
}

// toProto implements Filter.
func (f SingleColumnValueFilter) toProto() (*pb.Filter, error) {
	p, err := f.proto()
	if err != nil {
		return nil, err
	}
	return marshalFilter("SingleColumnValueFilter", p)
}

// SingleColumnValueExcludeFilter is a SingleColumnValueFilter that leaves the tested column out
// of the rows it returns.
type SingleColumnValueExcludeFilter SingleColumnValueFilter

// toProto implements Filter.
func (f SingleColumnValueExcludeFilter) toProto() (*pb.Filter, error) {
	p, err := (*SingleColumnValueFilter)(&f).proto()
	if err != nil {
		return nil, err
	}
	return marshalFilter("SingleColumnValueExcludeFilter",
		&pb.SingleColumnValueExcludeFilter{SingleColumnValueFilter: p})
}

// ColumnValueFilter returns only the cells of column Family:Qualifier whose value compares
// with Comparator by Op (unlike SingleColumnValueFilter, not the rest of the row).
type ColumnValueFilter struct {
	Family, Qualifier []byte
	Op                CompareOp
	Comparator        Comparator
}

// toProto implements Filter.
func (f ColumnValueFilter) toProto() (*pb.Filter, error) {
	if err := checkFamily(f.Family); err != nil {
		return nil, err
	}
	pop, err := f.Op.proto()
	if err != nil {
		return nil, err
	}
	if f.Comparator == nil {
		return nil, invalid("ColumnValueFilter without a comparator")
	}
	cmp, err := f.Comparator.toProto()
	if err != nil {
		return nil, err
	}
	q := f.Qualifier
	if q == nil {
		q = []byte{}
	}
	return marshalFilter("ColumnValueFilter", &pb.ColumnValueFilter{
		Family: f.Family, Qualifier: q, CompareOp: pop, Comparator: cmp,
	})
}

// DependentColumnFilter keeps the cells whose timestamp matches a reference column
// Family:Qualifier (whose value, when Comparator is set, compares by Op). DropDependentColumn
// leaves the reference column out.
type DependentColumnFilter struct {
	Family, Qualifier   []byte
	DropDependentColumn bool
	Op                  CompareOp
	Comparator          Comparator
}

// toProto implements Filter.
func (f DependentColumnFilter) toProto() (*pb.Filter, error) {
	op := f.Op
	if f.Comparator == nil {
		op = NoOp
	}
	cf, err := compareFilter(op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshalFilter("DependentColumnFilter", &pb.DependentColumnFilter{
		CompareFilter: cf, ColumnFamily: f.Family, ColumnQualifier: f.Qualifier,
		DropDependentColumn: &f.DropDependentColumn,
	})
}
