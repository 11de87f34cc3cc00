package endpointtest

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/aggregate"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

var (
	famF, famG = []byte("f"), []byte("g")
	qualL      = []byte("l") // 8-byte longs
	qualD      = []byte("d") // 8-byte doubles
	qualS      = []byte("s") // 1-byte strings: no value for either interpreter
)

// loadAggregateRows writes the aggregation data set: rows r000..r119 whose f:l is i*7-300
// (negative up to r042) except every tenth row from r003, f:d is i*0.5-20.25 (sums exact in
// doubles) except every tenth row from r007, f:s "x" every fourth row, g:l i on even rows.
func loadAggregateRows(t *testing.T, c *hbase.Client, table string) {
	t.Helper()
	var batch []hrpc.Batchable
	for i := range 120 {
		var opts []hrpc.PutOption
		if i%10 != 3 {
			opts = append(opts, hrpc.Value(famF, qualL, long(int64(i*7-300))))
		}
		if i%10 != 7 {
			opts = append(opts, hrpc.Value(famF, qualD, double(float64(i)*0.5-20.25)))
		}
		if i%4 == 0 {
			opts = append(opts, hrpc.Value(famF, qualS, []byte("x")))
		}
		if i%2 == 0 {
			opts = append(opts, hrpc.Value(famG, qualL, long(int64(i))))
		}
		p, err := hrpc.NewPut(table, []byte(fmt.Sprintf("r%03d", i)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, p)
	}
	for i, r := range c.SendBatch(testkit.Context(t, time.Minute), batch) {
		if r.Err != nil {
			t.Fatalf("loading row %d: %v", i, r.Err)
		}
	}
}

// aggScan is one scan of the comparison: its range, column and filter, for both clients.
type aggScan struct {
	name        string
	start, stop string
	family      []byte
	qualifier   []byte // nil: the whole family
	filter      hrpc.Filter
	javaFilter  string // the same filter in HBase's filter language
}

func (s aggScan) goScan(t *testing.T, table string) *hrpc.Scan {
	t.Helper()
	var opts []hrpc.ScanOption
	if s.start != "" {
		opts = append(opts, hrpc.StartRow([]byte(s.start)))
	}
	if s.stop != "" {
		opts = append(opts, hrpc.StopRow([]byte(s.stop)))
	}
	switch {
	case s.qualifier != nil:
		opts = append(opts, hrpc.Columns(s.family, s.qualifier))
	case s.family != nil:
		opts = append(opts, hrpc.Families(s.family))
	}
	if s.filter != nil {
		opts = append(opts, hrpc.WithFilter(s.filter))
	}
	scan, err := hrpc.NewScan(table, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return scan
}

// java runs fn through the Java AggregationClient on the same table and scan.
func (s aggScan) java(t *testing.T, table, fn, interp string) string {
	t.Helper()
	quals := "-"
	if s.qualifier != nil {
		quals = hexWord(s.qualifier)
	}
	line := strings.Join([]string{"aggregate", fn, table, interp, hexWord(s.family), quals,
		hexWord([]byte(s.start)), hexWord([]byte(s.stop)), hexWord([]byte(s.javaFilter)), "false"}, " ")
	ans, err := env.Cluster(t).Command(testkit.Context(t, time.Minute), line)
	if err != nil {
		t.Fatalf("Java %s: %v", line, err)
	}
	return ans
}

func longAnswer(v int64, ok bool) string {
	if !ok {
		return "null"
	}
	return fmt.Sprintf("long:%d", v)
}

func doubleAnswer(v float64, ok bool) string {
	if !ok {
		return "null"
	}
	return fmt.Sprintf("double:%016x", math.Float64bits(v))
}

// sameDouble compares a Go answer with Java's: equal, both NaN (whatever their payload: Java's
// NaN is 0x7ff8000000000000, Go's 0x7ff8000000000001, and a NaN's payload is what the cells'
// bits made it), or, for a standard deviation (Java's Math.pow(x, 0.5) against Go's, which is
// math.Sqrt), within 2 ulps.
func sameDouble(goAns, javaAns string, ulps uint64) bool {
	if goAns == javaAns {
		return true
	}
	var g, j uint64
	if _, err := fmt.Sscanf(goAns, "double:%x", &g); err != nil {
		return false
	}
	if _, err := fmt.Sscanf(javaAns, "double:%x", &j); err != nil {
		return false
	}
	if math.IsNaN(math.Float64frombits(g)) && math.IsNaN(math.Float64frombits(j)) {
		return true
	}
	d := g - j
	if j > g {
		d = j - g
	}
	return d <= ulps
}

func aggregateScans(withFamilyOnly bool) []aggScan {
	scans := []aggScan{
		{name: "whole table"},
		{name: "across a region boundary", start: "r010", stop: "r050"},
		{name: "inside one region", start: "r041", stop: "r045"},
		{name: "empty range", start: "r200", stop: "r300"},
		{name: "prefix filter", filter: hrpc.PrefixFilter{Prefix: []byte("r06")}, javaFilter: "PrefixFilter('r06')"},
		{name: "row filter and range", start: "r050", filter: hrpc.RowFilter{Op: hrpc.GreaterOrEqual,
			Comparator: hrpc.BinaryComparator{Value: []byte("r095")}}, javaFilter: "RowFilter(>=, 'binary:r095')"},
		{name: "negative values only", start: "r000", stop: "r040"},
	}
	if withFamilyOnly {
		scans = append(scans, aggScan{name: "whole family", start: "r020", stop: "r090"})
	}
	return scans
}

// TestAggregateMatchesJava compares every aggregation of the Long and Double interpreters with
// the Java AggregationClient's on the same table (3 regions on 2 servers) and scans.
func TestAggregateMatchesJava(t *testing.T) {
	c := newClient(t)
	table := endpointTable(t, c, []string{"f", "g"}, []string{"r040", "r080"}, aggregateEndpoint)
	loadAggregateRows(t, c, table)
	ctx := testkit.Context(t, 3*time.Minute)
	compared := 0
	for _, s := range aggregateScans(true) {
		for _, interp := range []string{"long", "double"} {
			s := s
			s.family = famF
			if s.name != "whole family" {
				s.qualifier = qualL
				if interp == "double" {
					s.qualifier = qualD
				}
			}
			t.Run(s.name+"/"+interp, func(t *testing.T) {
				scan := s.goScan(t, table)
				got := map[string]string{}
				n, err := aggregate.RowCount(ctx, c, scan)
				got["rowcount"] = longAnswer(n, err == nil)
				check := func(fn string, err error) {
					if err != nil {
						t.Fatalf("%s: %v", fn, err)
					}
				}
				check("rowcount", err)
				if interp == "long" {
					v, ok, err := aggregate.Sum(ctx, c, scan, aggregate.Long())
					check("sum", err)
					got["sum"] = longAnswer(v, ok)
					v, ok, err = aggregate.Max(ctx, c, scan, aggregate.Long())
					check("max", err)
					got["max"] = longAnswer(v, ok)
					v, ok, err = aggregate.Min(ctx, c, scan, aggregate.Long())
					check("min", err)
					got["min"] = longAnswer(v, ok)
					f, err := aggregate.Avg(ctx, c, scan, aggregate.Long())
					check("avg", err)
					got["avg"] = doubleAnswer(f, true)
					f, err = aggregate.Std(ctx, c, scan, aggregate.Long())
					check("std", err)
					got["std"] = doubleAnswer(f, true)
				} else {
					v, ok, err := aggregate.Sum(ctx, c, scan, aggregate.Double())
					check("sum", err)
					got["sum"] = doubleAnswer(v, ok)
					v, ok, err = aggregate.Max(ctx, c, scan, aggregate.Double())
					check("max", err)
					got["max"] = doubleAnswer(v, ok)
					v, ok, err = aggregate.Min(ctx, c, scan, aggregate.Double())
					check("min", err)
					got["min"] = doubleAnswer(v, ok)
					f, err := aggregate.Avg(ctx, c, scan, aggregate.Double())
					check("avg", err)
					got["avg"] = doubleAnswer(f, true)
					f, err = aggregate.Std(ctx, c, scan, aggregate.Double())
					check("std", err)
					got["std"] = doubleAnswer(f, true)
				}
				for _, fn := range []string{"rowcount", "sum", "max", "min", "avg", "std"} {
					want := s.java(t, table, fn, interp)
					ulps := uint64(0)
					if fn == "std" {
						ulps = 2
					}
					if got[fn] != want && !sameDouble(got[fn], want, ulps) {
						t.Errorf("%s = %s; Java's AggregationClient gives %s", fn, got[fn], want)
					}
					compared++
				}
				t.Logf("%v", got)
			})
		}
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

// TestRowCountAnyFamily: RowCount takes a scan of no family or of two, as Java's does.
func TestRowCountAnyFamily(t *testing.T) {
	c := newClient(t)
	table := endpointTable(t, c, []string{"f", "g"}, []string{"r040", "r080"}, aggregateEndpoint)
	loadAggregateRows(t, c, table)
	ctx := testkit.Context(t, time.Minute)
	for _, s := range []aggScan{
		{name: "no family", start: "r030", stop: "r100"},
		{name: "family g", start: "r030", stop: "r100", family: famG},
	} {
		n, err := aggregate.RowCount(ctx, c, s.goScan(t, table))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got, want := longAnswer(n, true), s.java(t, table, "rowcount", "long"); got != want {
			t.Fatalf("%s: rowcount = %s; Java gives %s", s.name, got, want)
		}
	}
}

// TestAggregateEndpointMissing: a table whose regions do not load AggregateImplementation.
func TestAggregateEndpointMissing(t *testing.T) {
	c := newClient(t)
	table := endpointTable(t, c, []string{"f"}, []string{"m"})
	scan, err := hrpc.NewScan(table, hrpc.Columns(famF, qualL))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = aggregate.Sum(testkit.Context(t, time.Minute), c, scan, aggregate.Long())
	re, ok := errors.AsType[*hberr.RegionsError](err)
	if !ok || re.Regions != 2 || len(re.Errs) != 2 || !errors.Is(err, hberr.ErrNotSupported) {
		t.Fatalf("Sum error = %v; want an *hberr.RegionsError of 2 regions, hberr.ErrNotSupported", err)
	}
	if !strings.Contains(err.Error(), "No registered coprocessor service found for AggregateService") {
		t.Fatalf("Sum error = %q; want the server's message naming the service", err)
	}
	t.Logf("the error: %v", err)
}

// TestJavaMedianNotReproduced shows why aggregate has no Median: Java's
// AggregationClient.median scans again from the start of the last region whose sum it has
// counted, counting that region twice, so its answer is right only when the median falls in
// the first region. Values 1..10 in two regions (1..5 and 6..10), each weighing its value (no
// weight column): the running sum first exceeds half the total (27.5) at 7, so the median as
// Java defines it (the value before) is 6; Java answers 4. If HBase fixes it, this fails: then
// aggregate can have a Median that gives Java's answers.
func TestJavaMedianNotReproduced(t *testing.T) {
	c := newClient(t)
	table := endpointTable(t, c, []string{"f"}, []string{"r06"}, aggregateEndpoint)
	var batch []hrpc.Batchable
	for i := 1; i <= 10; i++ {
		p, err := hrpc.NewPut(table, []byte(fmt.Sprintf("r%02d", i)), hrpc.Value(famF, qualL, long(int64(i))))
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, p)
	}
	for i, r := range c.SendBatch(testkit.Context(t, time.Minute), batch) {
		if r.Err != nil {
			t.Fatalf("loading row %d: %v", i, r.Err)
		}
	}
	s := aggScan{name: "1..10", family: famF, qualifier: qualL}
	if got := s.java(t, table, "median", "long"); got != "long:4" {
		t.Fatalf("Java's median = %s; it was long:4 (the median is 6): reconsider aggregate.Median", got)
	}
}
