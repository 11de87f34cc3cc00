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
	decode := filterDecoders[name]
	if decode == nil {
		return nil, unsupported("filter %s", p.GetName())
	}
	return decode(p.GetSerializedFilter(), filterInput{name: name, ec: ec, decode: decodeFilter})
}

// filterDecoder builds one kind of filter from its serialized message.
type filterDecoder func(b []byte, in filterInput) (filter, error)

// filterInput is what a filter kind's decoder is given besides the message: the filter's
// short class name, the request's evalCtx, and decodeFilter for the filters a list or a
// wrapper holds (passed in, as the table cannot name the function that reads it).
type filterInput struct {
	name   string
	ec     *evalCtx
	decode func(*pb.Filter, *evalCtx) (filter, error)
}

func (in filterInput) sub(p *pb.Filter) (filter, error) { return in.decode(p, in.ec) }

// decodeAs is the decoder of a filter kind whose message is M: it reads the message, then
// build makes the filter of it.
func decodeAs[M any, P interface {
	*M
	proto.Message
}](build func(m P, in filterInput) (filter, error)) filterDecoder {
	return func(b []byte, in filterInput) (filter, error) {
		m := P(new(M))
		if err := unmarshal(b, m, in.name); err != nil {
			return nil, err
		}
		return build(m, in)
	}
}

// filterDecoders are the filters the fake knows, by short class name.
var filterDecoders = map[string]filterDecoder{
	"PrefixFilter": decodeAs(func(m *pb.PrefixFilter, in filterInput) (filter, error) {
		return &prefixFilter{ec: in.ec, prefix: m.GetPrefix(), filtered: true}, nil
	}),
	"PageFilter": decodeAs(func(m *pb.PageFilter, _ filterInput) (filter, error) {
		return &pageFilter{size: m.GetPageSize()}, nil
	}),
	"InclusiveStopFilter": decodeAs(func(m *pb.InclusiveStopFilter, in filterInput) (filter, error) {
		return &inclusiveStopFilter{ec: in.ec, stop: m.GetStopRowKey()}, nil
	}),
	"RandomRowFilter": decodeAs(func(m *pb.RandomRowFilter, _ filterInput) (filter, error) {
		return &randomRowFilter{chance: m.GetChance()}, nil
	}),
	"FuzzyRowFilter": decodeAs(func(m *pb.FuzzyRowFilter, _ filterInput) (filter, error) {
		return newFuzzyRowFilter(m)
	}),
	"MultiRowRangeFilter": decodeAs(func(m *pb.MultiRowRangeFilter, in filterInput) (filter, error) {
		return newMultiRowRangeFilter(m, in.ec), nil
	}),
	"KeyOnlyFilter": decodeAs(func(m *pb.KeyOnlyFilter, _ filterInput) (filter, error) {
		return &keyOnlyFilter{lenAsVal: m.GetLenAsVal()}, nil
	}),
	// The two that carry nothing: their message is not read.
	"FirstKeyOnlyFilter": func([]byte, filterInput) (filter, error) { return &firstKeyOnlyFilter{}, nil },
	"FilterAllFilter":    func([]byte, filterInput) (filter, error) { return filterAllFilter{}, nil },
	"TimestampsFilter": decodeAs(func(m *pb.TimestampsFilter, _ filterInput) (filter, error) {
		ts := slices.Sorted(slices.Values(m.GetTimestamps()))
		return &timestampsFilter{ts: slices.Compact(ts), canHint: m.GetCanHint()}, nil
	}),
	"ColumnPrefixFilter": decodeAs(func(m *pb.ColumnPrefixFilter, _ filterInput) (filter, error) {
		return &columnPrefixFilter{prefix: m.GetPrefix()}, nil
	}),
	"MultipleColumnPrefixFilter": decodeAs(func(m *pb.MultipleColumnPrefixFilter, _ filterInput) (filter, error) {
		return newMultipleColumnPrefixFilter(m), nil
	}),
	"ColumnRangeFilter": decodeAs(func(m *pb.ColumnRangeFilter, _ filterInput) (filter, error) {
		return &columnRangeFilter{min: m.MinColumn, max: m.MaxColumn,
			minIncl: m.GetMinColumnInclusive(), maxIncl: m.GetMaxColumnInclusive()}, nil
	}),
	"ColumnPaginationFilter": decodeAs(func(m *pb.ColumnPaginationFilter, _ filterInput) (filter, error) {
		return &columnPaginationFilter{limit: m.GetLimit(), offset: m.GetOffset(), columnOffset: m.ColumnOffset}, nil
	}),
	"ColumnCountGetFilter": decodeAs(func(m *pb.ColumnCountGetFilter, _ filterInput) (filter, error) {
		return &columnCountGetFilter{limit: m.GetLimit()}, nil
	}),
	"RowFilter":       decodeCompareFilter(partRow),
	"FamilyFilter":    decodeCompareFilter(partFamily),
	"QualifierFilter": decodeCompareFilter(partQualifier),
	"ValueFilter":     decodeCompareFilter(partValue),
	"SingleColumnValueFilter": decodeAs(func(m *pb.SingleColumnValueFilter, in filterInput) (filter, error) {
		return newSingleColumnValueFilter(m, false, in.ec)
	}),
	"SingleColumnValueExcludeFilter": decodeAs(func(m *pb.SingleColumnValueExcludeFilter, in filterInput) (filter, error) {
		return newSingleColumnValueFilter(m.GetSingleColumnValueFilter(), true, in.ec)
	}),
	"ColumnValueFilter": decodeAs(func(m *pb.ColumnValueFilter, in filterInput) (filter, error) {
		cmp, err := decodeComparator(m.GetComparator(), in.ec)
		if err != nil {
			return nil, err
		}
		return &columnValueFilter{family: m.GetFamily(), qualifier: m.GetQualifier(), op: m.GetCompareOp(), cmp: cmp}, nil
	}),
	"DependentColumnFilter": decodeAs(newDependentColumnFilter),
	"FilterList":            decodeAs(decodeFilterList),
	"SkipFilter":            decodeWrapperFilter(func(sub filter) filter { return &skipFilter{sub: sub} }),
	"WhileMatchFilter":      decodeWrapperFilter(func(sub filter) filter { return &whileMatchFilter{sub: sub} }),
}

// decodeCompareFilter is the decoder of the four filters that compare one part of a cell:
// they share one shape, a CompareFilter in field 1.
func decodeCompareFilter(part cellPart) filterDecoder {
	return decodeAs(func(m *pb.RowFilter, in filterInput) (filter, error) {
		cf := m.GetCompareFilter()
		f := &compareFilter{op: cf.GetCompareOp(), part: part}
		if f.op != opNoOp || cf.GetComparator() != nil {
			cmp, err := decodeComparator(cf.GetComparator(), in.ec)
			if err != nil {
				return nil, err
			}
			f.cmp = cmp
		}
		return f, nil
	})
}

func newDependentColumnFilter(m *pb.DependentColumnFilter, in filterInput) (filter, error) {
	f := &dependentColumnFilter{family: m.GetColumnFamily(), qualifier: m.GetColumnQualifier(),
		op: m.GetCompareFilter().GetCompareOp(), drop: m.GetDropDependentColumn(), stamps: map[int64]bool{}}
	if c := m.GetCompareFilter().GetComparator(); c != nil {
		cmp, err := decodeComparator(c, in.ec)
		if err != nil {
			return nil, err
		}
		f.cmp = cmp
	}
	return f, nil
}

func decodeFilterList(m *pb.FilterList, in filterInput) (filter, error) {
	subs := make([]filter, 0, len(m.GetFilters()))
	for _, sp := range m.GetFilters() {
		s, err := in.sub(sp)
		if err != nil {
			return nil, err
		}
		subs = append(subs, s)
	}
	return newFilterList(m.GetOperator() == pb.FilterList_MUST_PASS_ONE, subs, in.ec), nil
}

// decodeWrapperFilter is the decoder of SkipFilter and WhileMatchFilter: both hold one filter
// in field 1, which wrap wraps.
func decodeWrapperFilter(wrap func(sub filter) filter) filterDecoder {
	return decodeAs(func(m *pb.SkipFilter, in filterInput) (filter, error) {
		sub, err := in.sub(m.GetFilter())
		if err != nil {
			return nil, err
		}
		return wrap(sub), nil
	})
}
