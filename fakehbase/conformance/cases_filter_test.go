package conformance

import (
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
)

func wf(fl hrpc.Filter) hrpc.ReadOption { return hrpc.WithFilter(fl) }

func bin(v string) hrpc.Comparator { return hrpc.BinaryComparator{Value: b(v)} }

// wide writes rows a..j, each with columns f:a f:b f:c g:a g:b, values row+column, at 1.
func (e *env) wide() {
	for _, r := range alphabet {
		e.put(r, hrpc.ValueAt(f, b("a"), 1, b(r+"fa")), hrpc.ValueAt(f, b("b"), 1, b(r+"fb")),
			hrpc.ValueAt(f, b("c"), 1, b(r+"fc")), hrpc.ValueAt(g, b("a"), 1, b(r+"ga")), hrpc.ValueAt(g, b("b"), 1, b(r+"gb")))
	}
}

// Filters, each as HBase 2.6 applies it, including its quirks (a page filter counts per region
// scanner; a value filter can pick an older version).
var filterCases = []kase{
	{"filter_prefix", threeRegions, func(e *env) {
		e.rows("a", "ca", "cb", "cc", "d", "g")
		e.scan("prefix c", wf(hrpc.PrefixFilter{Prefix: b("c")}))
		e.scan("prefix c reversed", wf(hrpc.PrefixFilter{Prefix: b("c")}), hrpc.Reversed())
		e.get("get outside", "d", wf(hrpc.PrefixFilter{Prefix: b("c")}))
		e.get("exists outside", "d", hrpc.ExistsOnly(), wf(hrpc.PrefixFilter{Prefix: b("c")}))
		e.get("exists inside", "cb", hrpc.ExistsOnly(), wf(hrpc.PrefixFilter{Prefix: b("c")}))
	}},
	{"filter_page_per_region", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("page 2", wf(hrpc.PageFilter{PageSize: 2}))
		e.scan("page 2 caching 1", wf(hrpc.PageFilter{PageSize: 2}), hrpc.NumberOfRows(1))
		e.scan("page 2 reversed", wf(hrpc.PageFilter{PageSize: 2}), hrpc.Reversed())
		e.scan("page 0", wf(hrpc.PageFilter{PageSize: 0}))
	}},
	{"filter_key_only", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("hello")), hrpc.ValueAt(g, b("b"), 1, b("")))
		e.scan("key only", wf(hrpc.KeyOnlyFilter{}))
		e.scan("length as value", wf(hrpc.KeyOnlyFilter{LenAsValue: true}))
	}},
	{"filter_first_key_only", threeRegions, func(e *env) {
		e.wide()
		e.scan("first key only", wf(hrpc.FirstKeyOnlyFilter{}), hrpc.Limit(3))
		e.get("get", "e", wf(hrpc.FirstKeyOnlyFilter{}), hrpc.Families(g))
	}},
	{"filter_column_prefix", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("1")), hrpc.ValueAt(f, b("ab"), 1, b("2")), hrpc.ValueAt(f, b("abc"), 1, b("3")),
			hrpc.ValueAt(f, b("b"), 1, b("4")), hrpc.ValueAt(g, b("ab"), 1, b("5")))
		e.get("ab", "r1", wf(hrpc.ColumnPrefixFilter{Prefix: b("ab")}))
		e.get("empty prefix", "r1", wf(hrpc.ColumnPrefixFilter{Prefix: []byte{}}))
		e.get("multiple a b", "r1", wf(hrpc.MultipleColumnPrefixFilter{Prefixes: [][]byte{b("b"), b("ab")}}))
		e.get("multiple a ab", "r1", wf(hrpc.MultipleColumnPrefixFilter{Prefixes: [][]byte{b("a"), b("ab")}}))
		e.get("multiple z", "r1", wf(hrpc.MultipleColumnPrefixFilter{Prefixes: [][]byte{b("z")}}))
	}},
	{"filter_column_range", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("1")), hrpc.ValueAt(f, b("b"), 1, b("2")), hrpc.ValueAt(f, b("c"), 1, b("3")),
			hrpc.ValueAt(f, b("d"), 1, b("4")), hrpc.ValueAt(g, b("a"), 1, b("5")), hrpc.ValueAt(g, b("c"), 1, b("6")))
		e.get("[b,c]", "r1", wf(hrpc.ColumnRangeFilter{Min: b("b"), Max: b("c"), MinInclusive: true, MaxInclusive: true}))
		e.get("(b,d)", "r1", wf(hrpc.ColumnRangeFilter{Min: b("b"), Max: b("d")}))
		e.get("[,b]", "r1", wf(hrpc.ColumnRangeFilter{Max: b("b"), MaxInclusive: true}))
		e.get("[c,)", "r1", wf(hrpc.ColumnRangeFilter{Min: b("c"), MinInclusive: true}))
	}},
	{"filter_column_pagination", twoFamilies, func(e *env) {
		e.wide()
		e.get("limit 2 offset 1", "a", wf(hrpc.ColumnPaginationFilter{Limit: 2, Offset: 1}))
		e.get("limit 2 offset 3", "a", wf(hrpc.ColumnPaginationFilter{Limit: 2, Offset: 3}))
		e.get("limit 2 from b", "a", wf(hrpc.ColumnPaginationFilter{Limit: 2, ColumnOffset: b("b")}))
		e.scan("scan limit 1 offset 2", wf(hrpc.ColumnPaginationFilter{Limit: 1, Offset: 2}), hrpc.Limit(3))
	}},
	{"filter_column_count_get", twoFamilies, func(e *env) {
		e.wide()
		e.get("get 3", "a", wf(hrpc.ColumnCountGetFilter{Limit: 3}))
		e.scan("scan 2", wf(hrpc.ColumnCountGetFilter{Limit: 2}))
	}},
	{"filter_single_column_value", threeRegions, func(e *env) {
		for _, r := range alphabet {
			e.putAt(r, f, "a", 1, r)
			if r < "e" {
				e.putAt(r, g, "s", 1, "on")
			} else if r < "h" {
				e.putAt(r, g, "s", 1, "off")
			}
		}
		e.scan("s = on", wf(hrpc.SingleColumnValueFilter{Family: g, Qualifier: b("s"), Op: hrpc.Equal, Comparator: bin("on")}))
		e.scan("s = on, if missing", wf(hrpc.SingleColumnValueFilter{Family: g, Qualifier: b("s"), Op: hrpc.Equal,
			Comparator: bin("on"), FilterIfMissing: true}))
		e.scan("s != on exclude, if missing", wf(hrpc.SingleColumnValueExcludeFilter{Family: g, Qualifier: b("s"),
			Op: hrpc.NotEqual, Comparator: bin("on"), FilterIfMissing: true}))
	}},
	{"filter_single_column_value_versions", &layout{families: []famSpec{{name: "f", versions: 3}}}, func(e *env) {
		e.putAt("r1", f, "s", 10, "yes")
		e.putAt("r1", f, "s", 20, "no")
		e.putAt("r1", f, "t", 10, "other")
		e.get("latest = yes", "r1", wf(hrpc.SingleColumnValueFilter{Family: f, Qualifier: b("s"), Op: hrpc.Equal, Comparator: bin("yes")}))
		e.get("any = yes", "r1", hrpc.MaxVersions(3), wf(hrpc.SingleColumnValueFilter{Family: f, Qualifier: b("s"), Op: hrpc.Equal,
			Comparator: bin("yes"), AllVersions: true}))
	}},
	{"filter_compare_filters", twoFamilies, func(e *env) {
		e.wide()
		e.scan("row >= h", wf(hrpc.RowFilter{Op: hrpc.GreaterOrEqual, Comparator: bin("h")}))
		e.scan("row != b, limit 2", wf(hrpc.RowFilter{Op: hrpc.NotEqual, Comparator: bin("a")}), hrpc.Limit(2))
		e.get("family g", "c", wf(hrpc.FamilyFilter{Op: hrpc.Equal, Comparator: bin("g")}))
		e.get("family < g", "c", wf(hrpc.FamilyFilter{Op: hrpc.Less, Comparator: bin("g")}))
		e.get("qualifier > a", "c", wf(hrpc.QualifierFilter{Op: hrpc.Greater, Comparator: bin("a")}))
		e.get("value <= cfb", "c", wf(hrpc.ValueFilter{Op: hrpc.LessOrEqual, Comparator: bin("cfb")}))
		e.get("value no op", "c", wf(hrpc.ValueFilter{Op: hrpc.NoOp, Comparator: bin("cfb")}))
	}},
	{"filter_comparators", oneFamily, func(e *env) {
		for _, r := range []string{"apple", "Apricot", "banana", "cherry", "date"} {
			e.putAt(r, f, "q", 1, r+" pie")
		}
		e.put("num", hrpc.ValueAt(f, b("n"), 1, long(42)))
		e.scan("regex ^a", wf(hrpc.RowFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "^a"}}))
		e.scan("regex ^a, case-insensitive", wf(hrpc.RowFilter{Op: hrpc.Equal,
			Comparator: hrpc.RegexStringComparator{Pattern: "^a", Flags: hrpc.RegexCaseInsensitive}}))
		e.scan("substring ERR", wf(hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.SubstringComparator{Substr: "ERR"}}))
		e.scan("binary prefix ba", wf(hrpc.RowFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryPrefixComparator{Value: b("ba")}}))
		e.scan("long > 40", hrpc.Columns(f, b("n")), wf(hrpc.ValueFilter{Op: hrpc.Greater, Comparator: hrpc.LongComparator{Value: 40}}))
		e.scan("bit and", wf(hrpc.RowFilter{Op: hrpc.Equal, Comparator: hrpc.BitComparator{Value: b("\x00\x00\x00\x04"), Op: hrpc.BitAnd}}))
		e.scan("null", wf(hrpc.ValueFilter{Op: hrpc.NotEqual, Comparator: hrpc.NullComparator{}}), hrpc.Limit(2))
	}},
	{"filter_lists", twoFamilies, func(e *env) {
		e.wide()
		e.scan("and: prefix-free rows b..d, qualifier a", wf(hrpc.NewFilterList(hrpc.MustPassAll,
			hrpc.RowFilter{Op: hrpc.GreaterOrEqual, Comparator: bin("b")},
			hrpc.RowFilter{Op: hrpc.LessOrEqual, Comparator: bin("d")},
			hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin("a")})))
		e.scan("or: row a or value ends gb", wf(hrpc.NewFilterList(hrpc.MustPassOne,
			hrpc.RowFilter{Op: hrpc.Equal, Comparator: bin("a")},
			hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "gb$"}})), hrpc.Limit(4))
		e.scan("and with key only and page", wf(hrpc.NewFilterList(hrpc.MustPassAll,
			hrpc.KeyOnlyFilter{}, hrpc.PageFilter{PageSize: 2}, hrpc.ColumnPrefixFilter{Prefix: b("b")})))
		e.scan("or of column prefixes", wf(hrpc.NewFilterList(hrpc.MustPassOne,
			hrpc.ColumnPrefixFilter{Prefix: b("c")}, hrpc.ColumnPrefixFilter{Prefix: b("a")})), hrpc.Limit(2))
		e.scan("nested", wf(hrpc.NewFilterList(hrpc.MustPassOne,
			hrpc.NewFilterList(hrpc.MustPassAll, hrpc.PrefixFilter{Prefix: b("b")}, hrpc.FamilyFilter{Op: hrpc.Equal, Comparator: bin("g")}),
			hrpc.NewFilterList(hrpc.MustPassAll, hrpc.PrefixFilter{Prefix: b("j")}, hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin("c")}))))
		e.scan("empty and", wf(hrpc.NewFilterList(hrpc.MustPassAll)), hrpc.Limit(1))
	}},
	{"filter_row_ranges", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("ranges", wf(hrpc.MultiRowRangeFilter{Ranges: []hrpc.RowRange{
			{Start: b("a"), Stop: b("b"), StartInclusive: true},
			{Start: b("d"), Stop: b("f"), StartInclusive: false, StopInclusive: true},
			{Start: b("i"), StartInclusive: true}}}))
		e.scan("ranges reversed", hrpc.Reversed(), wf(hrpc.MultiRowRangeFilter{Ranges: []hrpc.RowRange{
			{Start: b("b"), Stop: b("d"), StartInclusive: true},
			{Start: b("g"), Stop: b("h"), StartInclusive: true, StopInclusive: true}}}))
	}},
	{"filter_fuzzy_row", oneFamily, func(e *env) {
		for _, r := range []string{"u1-2024-a", "u2-2024-b", "u1-2025-c", "u3-2024-d", "u1-2024"} {
			e.putAt(r, f, "q", 1, r)
		}
		e.scan("u?-2024-?", wf(hrpc.FuzzyRowFilter{Keys: []hrpc.FuzzyKey{
			{Key: b("u?-2024-?"), Mask: []byte{0, 1, 0, 0, 0, 0, 0, 0, 1}}}}))
		e.scan("u1-???? or u3", wf(hrpc.FuzzyRowFilter{Keys: []hrpc.FuzzyKey{
			{Key: b("u1-????"), Mask: []byte{0, 0, 0, 1, 1, 1, 1}},
			{Key: b("u3"), Mask: []byte{0, 0}}}}))
	}},
	{"filter_timestamps", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")),
			hrpc.ValueAt(f, b("a"), 30, b("a30")), hrpc.ValueAt(f, b("b"), 20, b("b20")))
		e.get("10 and 20", "r1", hrpc.MaxVersions(3), wf(hrpc.TimestampsFilter{Timestamps: []int64{20, 10}}))
		e.get("10 and 20 latest", "r1", wf(hrpc.TimestampsFilter{Timestamps: []int64{20, 10}}))
		e.get("30 with hints", "r1", hrpc.MaxVersions(3), wf(hrpc.TimestampsFilter{Timestamps: []int64{30}, CanHint: true}))
		e.get("none", "r1", wf(hrpc.TimestampsFilter{}))
	}},
	{"filter_inclusive_stop", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("stop at d", wf(hrpc.InclusiveStopFilter{StopRow: b("d")}))
		e.scan("reversed stop at g", hrpc.Reversed(), wf(hrpc.InclusiveStopFilter{StopRow: b("g")}))
	}},
	{"filter_while_match_and_skip", twoFamilies, func(e *env) {
		e.wide()
		e.putAt("c", f, "x", 1, "stop")
		e.scan("while value != stop", wf(hrpc.WhileMatchFilter{Filter: hrpc.ValueFilter{Op: hrpc.NotEqual, Comparator: bin("stop")}}))
		e.scan("skip rows with stop", wf(hrpc.SkipFilter{Filter: hrpc.ValueFilter{Op: hrpc.NotEqual, Comparator: bin("stop")}}), hrpc.Limit(3))
		e.scan("while row < d", wf(hrpc.WhileMatchFilter{Filter: hrpc.RowFilter{Op: hrpc.Less, Comparator: bin("d")}}), hrpc.Families(g))
	}},
	{"filter_column_value", twoFamilies, func(e *env) {
		e.wide()
		e.scan("f:b > dfb", wf(hrpc.ColumnValueFilter{Family: f, Qualifier: b("b"), Op: hrpc.Greater, Comparator: bin("dfb")}), hrpc.Limit(3))
	}},
	{"filter_dependent_column", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("dep"), 10, b("x")), hrpc.ValueAt(f, b("dep"), 20, b("y")),
			hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 30, b("a30")), hrpc.ValueAt(f, b("b"), 20, b("b20")))
		e.get("dependent", "r1", hrpc.MaxVersions(3), wf(hrpc.DependentColumnFilter{Family: f, Qualifier: b("dep")}))
		e.get("dropped", "r1", hrpc.MaxVersions(3), wf(hrpc.DependentColumnFilter{Family: f, Qualifier: b("dep"), DropDependentColumn: true}))
		e.get("compared", "r1", hrpc.MaxVersions(3), wf(hrpc.DependentColumnFilter{Family: f, Qualifier: b("dep"),
			Op: hrpc.Equal, Comparator: bin("y")}))
	}},
	{"filter_value_picks_older_version", threeVers, func(e *env) {
		e.putAt("r1", f, "a", 10, "match")
		e.putAt("r1", f, "a", 20, "other")
		e.get("value = match", "r1", wf(hrpc.ValueFilter{Op: hrpc.Equal, Comparator: bin("match")}))
		e.scan("scan value = match", wf(hrpc.ValueFilter{Op: hrpc.Equal, Comparator: bin("match")}))
	}},
	{"filter_all", oneFamily, func(e *env) {
		e.rows("a", "b")
		e.scan("filter all", wf(hrpc.FilterAllFilter{}))
		e.get("get", "a", wf(hrpc.FilterAllFilter{}))
	}},
	{"filter_list_combinations", &layout{families: []famSpec{{name: "f", versions: 3}, {name: "g", versions: 3}}}, func(e *env) {
		for _, r := range []string{"a", "b", "c"} {
			for ts := uint64(1); ts <= 3; ts++ {
				e.put(r, hrpc.ValueAt(f, b("a"), ts, b(fmt.Sprint(r, "fa", ts))), hrpc.ValueAt(f, b("b"), ts, b(fmt.Sprint(r, "fb", ts))),
					hrpc.ValueAt(f, b("c"), ts, b(fmt.Sprint(r, "fc", ts))), hrpc.ValueAt(g, b("a"), ts, b(fmt.Sprint(r, "ga", ts))))
			}
		}
		e.scan("or: first column per row, or qualifier c", hrpc.MaxVersions(3), wf(hrpc.NewFilterList(hrpc.MustPassOne,
			hrpc.ColumnPaginationFilter{Limit: 1}, hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin("c")})))
		e.scan("or: timestamps 1 with hints, or column prefix b", hrpc.MaxVersions(3), wf(hrpc.NewFilterList(hrpc.MustPassOne,
			hrpc.TimestampsFilter{Timestamps: []int64{1}, CanHint: true}, hrpc.ColumnPrefixFilter{Prefix: b("b")})))
		e.scan("and: column range [b,c] and value ends 2", hrpc.MaxVersions(3), wf(hrpc.NewFilterList(hrpc.MustPassAll,
			hrpc.ColumnRangeFilter{Min: b("b"), Max: b("c"), MinInclusive: true, MaxInclusive: true},
			hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "2$"}})))
		e.scan("or: first key only, or family g, reversed", hrpc.Reversed(), wf(hrpc.NewFilterList(hrpc.MustPassOne,
			hrpc.FirstKeyOnlyFilter{}, hrpc.FamilyFilter{Op: hrpc.Equal, Comparator: bin("g")})))
		e.scan("and: page 2 and single column value", wf(hrpc.NewFilterList(hrpc.MustPassAll,
			hrpc.SingleColumnValueFilter{Family: f, Qualifier: b("a"), Op: hrpc.NotEqual, Comparator: bin("afa3")},
			hrpc.PageFilter{PageSize: 1})))
	}},
}
