package fakehbase

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// decodeFilter builds the filter a request carries. A filter the fake does not know is
// refused by name.
func decodeFilter(p *pb.Filter, ec *evalCtx) (filter, error) {
	name := strings.TrimPrefix(p.GetName(), "org.apache.hadoop.hbase.filter.")
	b := p.GetSerializedFilter()
	read := func(m proto.Message) error { return unmarshal(b, m, name) }
	switch name {
	case "PrefixFilter":
		var m pb.PrefixFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &prefixFilter{ec: ec, prefix: m.GetPrefix(), filtered: true}, nil
	case "PageFilter":
		var m pb.PageFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &pageFilter{size: m.GetPageSize()}, nil
	case "InclusiveStopFilter":
		var m pb.InclusiveStopFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &inclusiveStopFilter{ec: ec, stop: m.GetStopRowKey()}, nil
	case "RandomRowFilter":
		var m pb.RandomRowFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &randomRowFilter{chance: m.GetChance()}, nil
	case "FuzzyRowFilter":
		var m pb.FuzzyRowFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return newFuzzyRowFilter(&m)
	case "MultiRowRangeFilter":
		var m pb.MultiRowRangeFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return newMultiRowRangeFilter(&m, ec), nil
	case "KeyOnlyFilter":
		var m pb.KeyOnlyFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &keyOnlyFilter{lenAsVal: m.GetLenAsVal()}, nil
	case "FirstKeyOnlyFilter":
		return &firstKeyOnlyFilter{}, nil
	case "FilterAllFilter":
		return filterAllFilter{}, nil
	case "TimestampsFilter":
		var m pb.TimestampsFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		ts := slices.Sorted(slices.Values(m.GetTimestamps()))
		return &timestampsFilter{ts: slices.Compact(ts), canHint: m.GetCanHint()}, nil
	case "ColumnPrefixFilter":
		var m pb.ColumnPrefixFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &columnPrefixFilter{prefix: m.GetPrefix()}, nil
	case "MultipleColumnPrefixFilter":
		var m pb.MultipleColumnPrefixFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return newMultipleColumnPrefixFilter(&m), nil
	case "ColumnRangeFilter":
		var m pb.ColumnRangeFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &columnRangeFilter{min: m.MinColumn, max: m.MaxColumn,
			minIncl: m.GetMinColumnInclusive(), maxIncl: m.GetMaxColumnInclusive()}, nil
	case "ColumnPaginationFilter":
		var m pb.ColumnPaginationFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &columnPaginationFilter{limit: m.GetLimit(), offset: m.GetOffset(), columnOffset: m.ColumnOffset}, nil
	case "ColumnCountGetFilter":
		var m pb.ColumnCountGetFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return &columnCountGetFilter{limit: m.GetLimit()}, nil
	case "RowFilter", "FamilyFilter", "QualifierFilter", "ValueFilter":
		return decodeCompareFilter(name, b, ec)
	case "SingleColumnValueFilter":
		var m pb.SingleColumnValueFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return newSingleColumnValueFilter(&m, false, ec)
	case "SingleColumnValueExcludeFilter":
		var m pb.SingleColumnValueExcludeFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		return newSingleColumnValueFilter(m.GetSingleColumnValueFilter(), true, ec)
	case "ColumnValueFilter":
		var m pb.ColumnValueFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		cmp, err := decodeComparator(m.GetComparator(), ec)
		if err != nil {
			return nil, err
		}
		return &columnValueFilter{family: m.GetFamily(), qualifier: m.GetQualifier(), op: m.GetCompareOp(), cmp: cmp}, nil
	case "DependentColumnFilter":
		var m pb.DependentColumnFilter
		if err := read(&m); err != nil {
			return nil, err
		}
		f := &dependentColumnFilter{family: m.GetColumnFamily(), qualifier: m.GetColumnQualifier(),
			op: m.GetCompareFilter().GetCompareOp(), drop: m.GetDropDependentColumn(), stamps: map[int64]bool{}}
		if c := m.GetCompareFilter().GetComparator(); c != nil {
			cmp, err := decodeComparator(c, ec)
			if err != nil {
				return nil, err
			}
			f.cmp = cmp
		}
		return f, nil
	case "FilterList":
		var m pb.FilterList
		if err := read(&m); err != nil {
			return nil, err
		}
		subs := make([]filter, 0, len(m.GetFilters()))
		for _, sp := range m.GetFilters() {
			s, err := decodeFilter(sp, ec)
			if err != nil {
				return nil, err
			}
			subs = append(subs, s)
		}
		return newFilterList(m.GetOperator() == pb.FilterList_MUST_PASS_ONE, subs, ec), nil
	case "SkipFilter", "WhileMatchFilter":
		var m pb.SkipFilter // both hold one filter in field 1
		if err := read(&m); err != nil {
			return nil, err
		}
		sub, err := decodeFilter(m.GetFilter(), ec)
		if err != nil {
			return nil, err
		}
		if name == "SkipFilter" {
			return &skipFilter{sub: sub}, nil
		}
		return &whileMatchFilter{sub: sub}, nil
	}
	return nil, unsupported("filter %s", p.GetName())
}

func decodeCompareFilter(name string, b []byte, ec *evalCtx) (filter, error) {
	// The four share one shape: a CompareFilter in field 1.
	var m pb.RowFilter
	if err := unmarshal(b, &m, name); err != nil {
		return nil, err
	}
	cf := m.GetCompareFilter()
	f := &compareFilter{op: cf.GetCompareOp()}
	switch name {
	case "RowFilter":
		f.part = partRow
	case "FamilyFilter":
		f.part = partFamily
	case "QualifierFilter":
		f.part = partQualifier
	default:
		f.part = partValue
	}
	if f.op != opNoOp || cf.GetComparator() != nil {
		cmp, err := decodeComparator(cf.GetComparator(), ec)
		if err != nil {
			return nil, err
		}
		f.cmp = cmp
	}
	return f, nil
}
