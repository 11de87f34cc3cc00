package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// filterTestRows fills table with 20 rows "row00".."row19" whose columns make every filter
// below select something different:
//
//	f:a    "valNN"                  f:b  int64 NN (big endian)   f:bits  one byte NN
//	f:c1   "x"                      f:c2 "y" on even rows        f:d     "d" at timestamp 1000+NN
//	f:e    empty, rows NN%4 == 0    g:x  "gx"
func filterTestRows(t *testing.T, c *Client, ctx context.Context, table string) {
	t.Helper()
	f, g := []byte("f"), []byte("g")
	var batch []hrpc.Batchable
	for i := range 20 {
		opts := []hrpc.PutOption{
			hrpc.Value(f, []byte("a"), []byte(fmt.Sprintf("val%02d", i))),
			hrpc.Value(f, []byte("b"), binary.BigEndian.AppendUint64(nil, uint64(i))),
			hrpc.Value(f, []byte("bits"), []byte{byte(i)}),
			hrpc.Value(f, []byte("c1"), []byte("x")),
			hrpc.ValueAt(f, []byte("d"), uint64(1000+i), []byte("d")),
			hrpc.Value(g, []byte("x"), []byte("gx")),
		}
		if i%2 == 0 {
			opts = append(opts, hrpc.Value(f, []byte("c2"), []byte("y")))
		}
		if i%4 == 0 {
			opts = append(opts, hrpc.Value(f, []byte("e"), nil))
		}
		batch = append(batch, opsMust[*hrpc.Put](t)(hrpc.NewPut(table, []byte(fmt.Sprintf("row%02d", i)), opts...)))
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("put %d: %v", i, r.Err)
		}
	}
}

// rowsOf lists the rows of a scan result, and cellsOf its cells as "row/family:qualifier".
func rowsOf(rs []*hrpc.Result) string {
	var out []string
	for _, r := range rs {
		if len(r.Cells) > 0 {
			out = append(out, string(r.Cells[0].Row))
		}
	}
	return strings.Join(out, " ")
}

func cellsOf(rs []*hrpc.Result) string {
	var out []string
	for _, r := range rs {
		for _, c := range r.Cells {
			out = append(out, fmt.Sprintf("%s/%s:%s", c.Row, c.Family, c.Qualifier))
		}
	}
	return strings.Join(out, " ")
}

// cellList is "row/col" for each row of rows.
func cellList(rows, col string) string {
	var out []string
	for _, r := range strings.Fields(rows) {
		out = append(out, r+"/"+col)
	}
	return strings.Join(out, " ")
}

func rowRange(from, to int, step int) string {
	var out []string
	for i := from; i <= to; i += step {
		out = append(out, fmt.Sprintf("row%02d", i))
	}
	return strings.Join(out, " ")
}

func TestIntegrationFilters(t *testing.T) {
	table := createTable(t, []string{"f", "g"}, [][]byte{[]byte("row10")})
	c := newTestClient(t)
	ctx := testContext(t, 3*time.Minute)
	filterTestRows(t, c, ctx, table)
	f, g := []byte("f"), []byte("g")
	bin := func(s string) hrpc.Comparator { return hrpc.BinaryComparator{Value: []byte(s)} }
	scan := func(fl hrpc.Filter, opts ...hrpc.ScanOption) []*hrpc.Result {
		t.Helper()
		return opsScanAll(t, c, ctx, table, append([]hrpc.ScanOption{hrpc.WithFilter(fl)}, opts...)...)
	}
	type check struct {
		name   string
		filter hrpc.Filter
		opts   []hrpc.ScanOption
		rows   string // expected rows, when set
		cells  string // expected cells, when set
	}
	checks := []check{
		{name: "prefix", filter: hrpc.PrefixFilter{Prefix: []byte("row1")}, rows: rowRange(10, 19, 1)},
		{name: "column prefix", filter: hrpc.ColumnPrefixFilter{Prefix: []byte("c")}, opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row02"))},
			cells: "row00/f:c1 row00/f:c2 row01/f:c1"},
		{name: "multiple column prefix", filter: hrpc.MultipleColumnPrefixFilter{Prefixes: [][]byte{[]byte("e"), []byte("bi")}},
			opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row02"))}, cells: "row00/f:bits row00/f:e row01/f:bits"},
		{name: "column range", filter: hrpc.ColumnRangeFilter{Min: []byte("b"), MinInclusive: true, Max: []byte("c2")},
			opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row01"))}, cells: "row00/f:b row00/f:bits row00/f:c1"},
		{name: "column pagination", filter: hrpc.ColumnPaginationFilter{Limit: 2, Offset: 1},
			opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row01"))}, cells: "row00/f:b row00/f:bits"},
		{name: "qualifier", filter: hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin("c2")}, cells: cellList(rowRange(0, 18, 2), "f:c2")},
		{name: "family", filter: hrpc.FamilyFilter{Op: hrpc.Equal, Comparator: bin("g")}, opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row02"))},
			cells: "row00/g:x row01/g:x"},
		{name: "value substring", filter: hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.SubstringComparator{Substr: "AL05"}}, cells: "row05/f:a"},
		{name: "value regex", filter: hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "^VAL1[3-5]$", Flags: hrpc.RegexCaseInsensitive}},
			cells: "row13/f:a row14/f:a row15/f:a"},
		{name: "value binary prefix", filter: hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryPrefixComparator{Value: []byte("val0")}}, rows: rowRange(0, 9, 1)},
		{name: "value bit", filter: hrpc.SingleColumnValueFilter{Family: f, Qualifier: []byte("bits"), Op: hrpc.Equal,
			Comparator: hrpc.BitComparator{Value: []byte{0x05}, Op: hrpc.BitAnd}, FilterIfMissing: true},
			rows: "row01 row03 row04 row05 row06 row07 row09 row11 row12 row13 row14 row15 row17 row19"},
		{name: "single column value long", filter: hrpc.SingleColumnValueFilter{Family: f, Qualifier: []byte("b"), Op: hrpc.Greater,
			Comparator: hrpc.LongComparator{Value: 16}, FilterIfMissing: true}, rows: rowRange(17, 19, 1)},
		{name: "single column value missing kept", filter: hrpc.SingleColumnValueFilter{Family: f, Qualifier: []byte("c2"), Op: hrpc.Equal,
			Comparator: bin("nope")}, rows: rowRange(1, 19, 2)},
		// NullComparator finds every present value "not equal", even an empty one.
		{name: "single column value null", filter: hrpc.SingleColumnValueFilter{Family: f, Qualifier: []byte("e"), Op: hrpc.NotEqual,
			Comparator: hrpc.NullComparator{}, FilterIfMissing: true}, rows: rowRange(0, 16, 4)},
		{name: "single column value null equal", filter: hrpc.SingleColumnValueFilter{Family: f, Qualifier: []byte("e"), Op: hrpc.Equal,
			Comparator: hrpc.NullComparator{}, FilterIfMissing: true}, rows: ""},
		{name: "single column value exclude", filter: hrpc.SingleColumnValueExcludeFilter{Family: f, Qualifier: []byte("a"), Op: hrpc.Equal,
			Comparator: bin("val03"), FilterIfMissing: true}, cells: "row03/f:b row03/f:bits row03/f:c1 row03/f:d row03/g:x"},
		{name: "column value", filter: hrpc.ColumnValueFilter{Family: f, Qualifier: []byte("a"), Op: hrpc.LessOrEqual, Comparator: bin("val01")},
			cells: "row00/f:a row01/f:a"},
		{name: "row", filter: hrpc.RowFilter{Op: hrpc.GreaterOrEqual, Comparator: bin("row17")}, rows: rowRange(17, 19, 1)},
		{name: "key only", filter: hrpc.KeyOnlyFilter{}, opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row01")), hrpc.Families(g)}, cells: "row00/g:x"},
		{name: "first key only", filter: hrpc.FirstKeyOnlyFilter{}, opts: []hrpc.ScanOption{hrpc.StopRow([]byte("row02"))}, cells: "row00/f:a row01/f:a"},
		{name: "page", filter: hrpc.PageFilter{PageSize: 3}, opts: []hrpc.ScanOption{hrpc.StartRow([]byte("row08"))}, rows: "row08 row09 row10 row11 row12"},
		{name: "inclusive stop", filter: hrpc.InclusiveStopFilter{StopRow: []byte("row03")}, rows: rowRange(0, 3, 1)},
		{name: "fuzzy row", filter: hrpc.FuzzyRowFilter{Keys: []hrpc.FuzzyKey{{Key: []byte("row?5"), Mask: []byte{0, 0, 0, 1, 0}}}}, rows: "row05 row15"},
		{name: "multi row range", filter: hrpc.MultiRowRangeFilter{Ranges: []hrpc.RowRange{
			{Start: []byte("row02"), StartInclusive: true, Stop: []byte("row04")},
			{Start: []byte("row17"), Stop: []byte("row18"), StopInclusive: true}}}, rows: "row02 row03 row18"},
		{name: "timestamps", filter: hrpc.TimestampsFilter{Timestamps: []int64{1003, 1011, 5}}, cells: "row03/f:d row11/f:d"},
		{name: "list must pass one", filter: hrpc.NewFilterList(hrpc.MustPassOne, hrpc.PrefixFilter{Prefix: []byte("row0")}, hrpc.PrefixFilter{Prefix: []byte("row19")}),
			rows: rowRange(0, 9, 1) + " row19"},
		{name: "list must pass all nested", filter: hrpc.NewFilterList(hrpc.MustPassAll,
			hrpc.PrefixFilter{Prefix: []byte("row1")},
			hrpc.NewFilterList(hrpc.MustPassOne, hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin("c2")}, hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin("e")})),
			cells: "row10/f:c2 row12/f:c2 row12/f:e row14/f:c2 row16/f:c2 row16/f:e row18/f:c2"},
		{name: "skip", filter: hrpc.SkipFilter{Filter: hrpc.ValueFilter{Op: hrpc.NotEqual, Comparator: bin("val07")}},
			rows: rowRange(0, 6, 1) + " " + rowRange(8, 19, 1)},
		// Filters run in each region on its own, as with the Java client: the second region
		// (from row10) starts with a fresh WhileMatchFilter.
		{name: "while match", filter: hrpc.WhileMatchFilter{Filter: hrpc.RowFilter{Op: hrpc.NotEqual, Comparator: bin("row05")}},
			rows: rowRange(0, 4, 1) + " " + rowRange(10, 19, 1)},
		{name: "while match second region", filter: hrpc.WhileMatchFilter{Filter: hrpc.RowFilter{Op: hrpc.Less, Comparator: bin("row13")}},
			rows: rowRange(0, 12, 1)},
		{name: "random none", filter: hrpc.RandomRowFilter{Chance: 0}, rows: ""},
		{name: "random all", filter: hrpc.RandomRowFilter{Chance: 1}, rows: rowRange(0, 19, 1)},
		{name: "filter all", filter: hrpc.FilterAllFilter{}, rows: ""},
	}
	for _, ck := range checks {
		t.Run(strings.ReplaceAll(ck.name, " ", "_"), func(t *testing.T) {
			rs := scan(ck.filter, ck.opts...)
			if ck.cells != "" {
				if got := cellsOf(rs); got != ck.cells {
					t.Fatalf("cells\n got %s\nwant %s", got, ck.cells)
				}
				return
			}
			if got := rowsOf(rs); got != ck.rows {
				t.Fatalf("rows\n got %s\nwant %s", got, ck.rows)
			}
		})
	}

	// Prefix scans both ways, across the region boundary at row10.
	if got := rowsOf(opsScanAll(t, c, ctx, table, hrpc.Prefix([]byte("row1")), hrpc.Reversed())); got != "row19 row18 row17 row16 row15 row14 row13 row12 row11 row10" {
		t.Fatalf("reversed prefix scan: %s", got)
	}
	if got := rowsOf(opsScanAll(t, c, ctx, table, hrpc.Prefix([]byte("row09")), hrpc.Reversed())); got != "row09" {
		t.Fatalf("reversed prefix scan of one row: %s", got)
	}
	if got := rowsOf(opsScanAll(t, c, ctx, table, hrpc.Prefix([]byte("row0")), hrpc.Limit(3))); got != "row00 row01 row02" {
		t.Fatalf("prefix scan with limit: %s", got)
	}

	// Key-only values are empty, or their length with LenAsValue.
	rs := scan(hrpc.KeyOnlyFilter{LenAsValue: true}, hrpc.StopRow([]byte("row01")), hrpc.Columns(f, []byte("a")))
	if len(rs) != 1 || len(rs[0].Cells) != 1 || binary.BigEndian.Uint32(rs[0].Cells[0].Value) != 5 {
		t.Fatalf("key only with length: %+v", rs)
	}
	// Filters on a Get.
	get := func(fl hrpc.Filter) string {
		t.Helper()
		res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(table, []byte("row04"), hrpc.WithFilter(fl))))
		if err != nil {
			t.Fatal(err)
		}
		return cellsOf([]*hrpc.Result{res})
	}
	if got := get(hrpc.ColumnCountGetFilter{Limit: 2}); got != "row04/f:a row04/f:b" {
		t.Fatalf("column count get: %s", got)
	}
	if got := get(hrpc.DependentColumnFilter{Family: f, Qualifier: []byte("d")}); got != "row04/f:d" {
		t.Fatalf("dependent column: %s", got)
	}
	if got := get(hrpc.ValueFilter{Op: hrpc.Equal, Comparator: bin("gx")}); got != "row04/g:x" {
		t.Fatalf("value filter on get: %s", got)
	}
}
