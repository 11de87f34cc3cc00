package hrpc

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func ptr[T any](v T) *T { return &v }

func binaryComparatorProto(v []byte) *pb.Comparator {
	b, err := proto.Marshal(&pb.BinaryComparator{Comparable: &pb.ByteArrayComparable{Value: v}})
	if err != nil {
		panic(err)
	}
	return &pb.Comparator{Name: ptr("org.apache.hadoop.hbase.filter.BinaryComparator"), SerializedComparator: b}
}

func TestComparatorsSerialise(t *testing.T) {
	cases := []struct {
		c     Comparator
		class string
		want  proto.Message
		got   proto.Message
	}{
		{BinaryComparator{Value: []byte("abc")}, "BinaryComparator",
			&pb.BinaryComparator{Comparable: &pb.ByteArrayComparable{Value: []byte("abc")}}, &pb.BinaryComparator{}},
		{BinaryPrefixComparator{Value: []byte{0, 0xff}}, "BinaryPrefixComparator",
			&pb.BinaryPrefixComparator{Comparable: &pb.ByteArrayComparable{Value: []byte{0, 0xff}}}, &pb.BinaryPrefixComparator{}},
		{BinaryComponentComparator{Value: []byte("x"), Offset: 3}, "BinaryComponentComparator",
			&pb.BinaryComponentComparator{Value: []byte("x"), Offset: ptr(uint32(3))}, &pb.BinaryComponentComparator{}},
		{LongComparator{Value: -2}, "LongComparator",
			&pb.LongComparator{Comparable: &pb.ByteArrayComparable{Value: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}}}, &pb.LongComparator{}},
		{NullComparator{}, "NullComparator", &pb.NullComparator{}, &pb.NullComparator{}},
		{BitComparator{Value: []byte{1}, Op: BitXor}, "BitComparator",
			&pb.BitComparator{Comparable: &pb.ByteArrayComparable{Value: []byte{1}}, BitwiseOp: pb.BitComparator_XOR.Enum()}, &pb.BitComparator{}},
		{RegexStringComparator{Pattern: "^a.*z$", Flags: RegexCaseInsensitive}, "RegexStringComparator",
			&pb.RegexStringComparator{Pattern: ptr("^a.*z$"), PatternFlags: ptr(int32(2)), Charset: ptr("UTF-8"), Engine: ptr("JAVA")}, &pb.RegexStringComparator{}},
		{SubstringComparator{Substr: "MiXed"}, "SubstringComparator",
			&pb.SubstringComparator{Substr: ptr("mixed")}, &pb.SubstringComparator{}},
	}
	for _, tc := range cases {
		t.Run(tc.class, func(t *testing.T) {
			p, err := tc.c.toProto()
			if err != nil {
				t.Fatal(err)
			}
			if want := "org.apache.hadoop.hbase.filter." + tc.class; p.GetName() != want {
				t.Fatalf("name %q, want %q", p.GetName(), want)
			}
			if err := proto.Unmarshal(p.SerializedComparator, tc.got); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(tc.got, tc.want) {
				t.Fatalf("serialized %v, want %v", tc.got, tc.want)
			}
		})
	}
}

func TestFiltersSerialise(t *testing.T) {
	bc := BinaryComparator{Value: []byte("v")}
	cf := &pb.CompareFilter{CompareOp: pb.CompareType_GREATER_OR_EQUAL.Enum(), Comparator: binaryComparatorProto([]byte("v"))}
	scvf := &pb.SingleColumnValueFilter{ColumnFamily: []byte("f"), ColumnQualifier: []byte("q"),
		CompareOp: pb.CompareType_EQUAL.Enum(), Comparator: binaryComparatorProto([]byte("v")),
		FilterIfMissing: ptr(true), LatestVersionOnly: ptr(true)}
	prefixProto := &pb.Filter{Name: ptr("org.apache.hadoop.hbase.filter.PrefixFilter"), SerializedFilter: mustMarshal(&pb.PrefixFilter{Prefix: []byte("p")})}
	kofProto := &pb.Filter{Name: ptr("org.apache.hadoop.hbase.filter.KeyOnlyFilter"), SerializedFilter: mustMarshal(&pb.KeyOnlyFilter{LenAsVal: ptr(false)})}
	cases := []struct {
		f     Filter
		class string
		want  proto.Message
		got   proto.Message
	}{
		{PrefixFilter{Prefix: []byte("p")}, "PrefixFilter", &pb.PrefixFilter{Prefix: []byte("p")}, &pb.PrefixFilter{}},
		{ColumnPrefixFilter{Prefix: []byte("c")}, "ColumnPrefixFilter", &pb.ColumnPrefixFilter{Prefix: []byte("c")}, &pb.ColumnPrefixFilter{}},
		{MultipleColumnPrefixFilter{Prefixes: [][]byte{[]byte("a"), []byte("b")}}, "MultipleColumnPrefixFilter",
			&pb.MultipleColumnPrefixFilter{SortedPrefixes: [][]byte{[]byte("a"), []byte("b")}}, &pb.MultipleColumnPrefixFilter{}},
		{ColumnRangeFilter{Min: []byte("a"), MinInclusive: true, Max: []byte("m")}, "ColumnRangeFilter",
			&pb.ColumnRangeFilter{MinColumn: []byte("a"), MinColumnInclusive: ptr(true), MaxColumn: []byte("m"), MaxColumnInclusive: ptr(false)}, &pb.ColumnRangeFilter{}},
		{ColumnPaginationFilter{Limit: 2, Offset: 1}, "ColumnPaginationFilter",
			&pb.ColumnPaginationFilter{Limit: ptr(int32(2)), Offset: ptr(int32(1))}, &pb.ColumnPaginationFilter{}},
		{ColumnPaginationFilter{Limit: 2, ColumnOffset: []byte("q")}, "ColumnPaginationFilter",
			&pb.ColumnPaginationFilter{Limit: ptr(int32(2)), ColumnOffset: []byte("q")}, &pb.ColumnPaginationFilter{}},
		{ColumnCountGetFilter{Limit: 5}, "ColumnCountGetFilter", &pb.ColumnCountGetFilter{Limit: ptr(int32(5))}, &pb.ColumnCountGetFilter{}},
		{QualifierFilter{Op: GreaterOrEqual, Comparator: bc}, "QualifierFilter", &pb.QualifierFilter{CompareFilter: cf}, &pb.QualifierFilter{}},
		{ValueFilter{Op: GreaterOrEqual, Comparator: bc}, "ValueFilter", &pb.ValueFilter{CompareFilter: cf}, &pb.ValueFilter{}},
		{RowFilter{Op: GreaterOrEqual, Comparator: bc}, "RowFilter", &pb.RowFilter{CompareFilter: cf}, &pb.RowFilter{}},
		{FamilyFilter{Op: GreaterOrEqual, Comparator: bc}, "FamilyFilter", &pb.FamilyFilter{CompareFilter: cf}, &pb.FamilyFilter{}},
		{SingleColumnValueFilter{Family: []byte("f"), Qualifier: []byte("q"), Op: Equal, Comparator: bc, FilterIfMissing: true},
			"SingleColumnValueFilter", scvf, &pb.SingleColumnValueFilter{}},
		{SingleColumnValueExcludeFilter{Family: []byte("f"), Qualifier: []byte("q"), Op: Equal, Comparator: bc, FilterIfMissing: true},
			"SingleColumnValueExcludeFilter", &pb.SingleColumnValueExcludeFilter{SingleColumnValueFilter: scvf}, &pb.SingleColumnValueExcludeFilter{}},
		{ColumnValueFilter{Family: []byte("f"), Qualifier: []byte("q"), Op: Equal, Comparator: bc}, "ColumnValueFilter",
			&pb.ColumnValueFilter{Family: []byte("f"), Qualifier: []byte("q"), CompareOp: pb.CompareType_EQUAL.Enum(), Comparator: binaryComparatorProto([]byte("v"))}, &pb.ColumnValueFilter{}},
		{DependentColumnFilter{Family: []byte("f"), Qualifier: []byte("q"), DropDependentColumn: true}, "DependentColumnFilter",
			&pb.DependentColumnFilter{CompareFilter: &pb.CompareFilter{CompareOp: pb.CompareType_NO_OP.Enum()}, ColumnFamily: []byte("f"), ColumnQualifier: []byte("q"), DropDependentColumn: ptr(true)}, &pb.DependentColumnFilter{}},
		{KeyOnlyFilter{LenAsValue: true}, "KeyOnlyFilter", &pb.KeyOnlyFilter{LenAsVal: ptr(true)}, &pb.KeyOnlyFilter{}},
		{FirstKeyOnlyFilter{}, "FirstKeyOnlyFilter", &pb.FirstKeyOnlyFilter{}, &pb.FirstKeyOnlyFilter{}},
		{FilterAllFilter{}, "FilterAllFilter", &pb.FilterAllFilter{}, &pb.FilterAllFilter{}},
		{PageFilter{PageSize: 10}, "PageFilter", &pb.PageFilter{PageSize: ptr(int64(10))}, &pb.PageFilter{}},
		{InclusiveStopFilter{StopRow: []byte("z")}, "InclusiveStopFilter", &pb.InclusiveStopFilter{StopRowKey: []byte("z")}, &pb.InclusiveStopFilter{}},
		{RandomRowFilter{Chance: 0.5}, "RandomRowFilter", &pb.RandomRowFilter{Chance: ptr(float32(0.5))}, &pb.RandomRowFilter{}},
		{TimestampsFilter{Timestamps: []int64{5, 1}}, "TimestampsFilter", &pb.TimestampsFilter{Timestamps: []int64{5, 1}, CanHint: ptr(false)}, &pb.TimestampsFilter{}},
		{FuzzyRowFilter{Keys: []FuzzyKey{{Key: []byte("ab?d"), Mask: []byte{0, 0, 1, 0}}}}, "FuzzyRowFilter",
			&pb.FuzzyRowFilter{FuzzyKeysData: []*pb.BytesBytesPair{{First: []byte{'a', 'b', 0, 'd'}, Second: []byte{0xff, 0xff, 2, 0xff}}}, IsMaskV2: ptr(true)}, &pb.FuzzyRowFilter{}},
		{MultiRowRangeFilter{Ranges: []RowRange{{Start: []byte("a"), StartInclusive: true, Stop: []byte("c")}, {Start: []byte("x")}}}, "MultiRowRangeFilter",
			&pb.MultiRowRangeFilter{RowRangeList: []*pb.RowRange{
				{StartRow: []byte("a"), StartRowInclusive: ptr(true), StopRow: []byte("c"), StopRowInclusive: ptr(false)},
				{StartRow: []byte("x"), StartRowInclusive: ptr(false), StopRowInclusive: ptr(false)}}}, &pb.MultiRowRangeFilter{}},
		{NewFilterList(MustPassOne, PrefixFilter{Prefix: []byte("p")}, KeyOnlyFilter{}), "FilterList",
			&pb.FilterList{Operator: pb.FilterList_MUST_PASS_ONE.Enum(), Filters: []*pb.Filter{prefixProto, kofProto}}, &pb.FilterList{}},
		{FilterList{Filters: []Filter{PrefixFilter{Prefix: []byte("p")}}}, "FilterList",
			&pb.FilterList{Operator: pb.FilterList_MUST_PASS_ALL.Enum(), Filters: []*pb.Filter{prefixProto}}, &pb.FilterList{}},
		{SkipFilter{Filter: PrefixFilter{Prefix: []byte("p")}}, "SkipFilter", &pb.SkipFilter{Filter: prefixProto}, &pb.SkipFilter{}},
		{WhileMatchFilter{Filter: PrefixFilter{Prefix: []byte("p")}}, "WhileMatchFilter", &pb.WhileMatchFilter{Filter: prefixProto}, &pb.WhileMatchFilter{}},
	}
	for _, tc := range cases {
		t.Run(tc.class, func(t *testing.T) {
			p, err := tc.f.toProto()
			if err != nil {
				t.Fatal(err)
			}
			if want := "org.apache.hadoop.hbase.filter." + tc.class; p.GetName() != want {
				t.Fatalf("name %q, want %q", p.GetName(), want)
			}
			if err := proto.Unmarshal(p.SerializedFilter, tc.got); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(tc.got, tc.want) {
				t.Fatalf("serialized\n %v\nwant\n %v", tc.got, tc.want)
			}
		})
	}
}

func mustMarshal(m proto.Message) []byte {
	b, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func TestFilterValidation(t *testing.T) {
	bad := map[string]Filter{
		"negative page":           PageFilter{PageSize: -1},
		"chance above 1":          RandomRowFilter{Chance: 1.5},
		"fuzzy lengths":           FuzzyRowFilter{Keys: []FuzzyKey{{Key: []byte("ab"), Mask: []byte{0}}}},
		"fuzzy mask byte":         FuzzyRowFilter{Keys: []FuzzyKey{{Key: []byte("a"), Mask: []byte{7}}}},
		"fuzzy empty":             FuzzyRowFilter{},
		"list with nil":           NewFilterList(MustPassAll, nil),
		"list operator":           FilterList{Operator: 9},
		"skip nil":                SkipFilter{},
		"while nil":               WhileMatchFilter{},
		"scvf no comparator":      SingleColumnValueFilter{Family: []byte("f"), Op: Equal},
		"bad compare op":          ValueFilter{Op: 42, Comparator: BinaryComparator{}},
		"row range backwards":     MultiRowRangeFilter{Ranges: []RowRange{{Start: []byte("b"), Stop: []byte("a")}}},
		"negative timestamp":      TimestampsFilter{Timestamps: []int64{-1}},
		"bit op":                  RowFilter{Op: Equal, Comparator: BitComparator{Value: []byte{1}}},
		"regex engine":            ValueFilter{Op: Equal, Comparator: RegexStringComparator{Pattern: "a", Engine: "PCRE"}},
		"column value no family":  ColumnValueFilter{Op: Equal, Comparator: NullComparator{}},
		"pagination negative":     ColumnPaginationFilter{Limit: -1},
		"nested invalid in list":  NewFilterList(MustPassOne, PageFilter{PageSize: -5}),
		"multi prefix nil prefix": MultipleColumnPrefixFilter{Prefixes: [][]byte{nil}},
	}
	for name, f := range bad {
		if _, err := f.toProto(); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: err = %v, want hberr.ErrBadRequest", name, err)
		}
		if _, err := NewGet("t", []byte("r"), WithFilter(f)); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: NewGet err = %v, want hberr.ErrBadRequest", name, err)
		}
	}
}
