package hrpc

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

func TestConstructionErrors(t *testing.T) {
	table, row := "t", []byte("r")
	f, q, v := []byte("f"), []byte("q"), []byte("v")
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"get empty table", second(NewGet("", row)), errEmptyTable},
		{"get nil row", second(NewGet(table, nil)), errNilRow},
		{"put empty table", second(NewPut("", row, Value(f, q, v))), errEmptyTable},
		{"put nil row", second(NewPut(table, nil, Value(f, q, v))), errNilRow},
		{"put without cells", second(NewPut(table, row)), errNoCells},
		{"append without cells", second(NewAppend(table, row)), errNoCells},
		{"increment without cells", second(NewIncrement(table, row)), errNoCells},
		{"scan empty table", second(NewScan("")), errEmptyTable},
		{"negative limit", second(NewScan(table, Limit(-1))), hberr.ErrBadRequest},
		{"zero rows per rpc", second(NewScan(table, NumberOfRows(0))), hberr.ErrBadRequest},
		{"negative batch", second(NewScan(table, BatchSize(-3))), hberr.ErrBadRequest},
		{"zero max result size", second(NewScan(table, MaxResultSize(0))), hberr.ErrBadRequest},
		{"zero max versions", second(NewGet(table, row, MaxVersions(0))), hberr.ErrBadRequest},
		{"negative store offset", second(NewGet(table, row, ResultOffsetPerColumnFamily(-1))), hberr.ErrBadRequest},
		{"empty family", second(NewPut(table, row, Value(nil, q, v))), hberr.ErrBadRequest},
		{"long family", second(NewPut(table, row, Value(make([]byte, 128), q, v))), hberr.ErrBadRequest},
		{"long row", second(NewGet(table, make([]byte, 32768))), hberr.ErrBadRequest},
		{"families without family", second(NewGet(table, row, Families())), hberr.ErrBadRequest},
		{"columns without qualifier", second(NewGet(table, row, Columns(f))), hberr.ErrBadRequest},
		{"nil qualifier", second(NewGet(table, row, Columns(f, nil))), hberr.ErrBadRequest},
		{"time range backwards", second(NewGet(table, row, TimeRange(5, 1))), hberr.ErrBadRequest},
		{"timestamp too large", second(NewPut(table, row, Value(f, q, v), Timestamp(1<<63))), hberr.ErrBadRequest},
		{"cell timestamp too large", second(NewPut(table, row, ValueAt(f, q, 1<<63, v))), hberr.ErrBadRequest},
		{"bad durability", second(NewPut(table, row, Value(f, q, v), WithDurability(9))), hberr.ErrBadRequest},
		{"nil filter", second(NewScan(table, WithFilter(nil))), hberr.ErrBadRequest},
		{"nil option", second(NewGet(table, row, nil)), hberr.ErrBadRequest},
		{"zero option value", second(NewGet(table, row, ReadOption(nil))), hberr.ErrBadRequest},
		{"empty attribute", second(NewGet(table, row, Attribute("", nil))), hberr.ErrBadRequest},
		{"prefix with start", second(NewScan(table, Prefix([]byte("a")), StartRow([]byte("a")))), hberr.ErrBadRequest},
		{"start after stop", second(NewScan(table, StartRow([]byte("b")), StopRow([]byte("a")))), hberr.ErrBadRequest},
		{"reversed start before stop", second(NewScan(table, Reversed(), StartRow([]byte("a")), StopRow([]byte("b")))), hberr.ErrBadRequest},
		{"nil start row", second(NewScan(table, StartRow(nil))), hberr.ErrBadRequest},
		{"get empty row", second(NewGet(table, []byte{})), errNilRow},
		{"put empty row", second(NewPut(table, []byte{}, Value(f, q, v))), errNilRow},
		{"delete empty row", second(NewDelete(table, []byte{})), errNilRow},
		{"row mutations empty", second(NewRowMutations(nil)), errNoCells},
		{"check and mutate nil", second(NewCheckAndMutate(IfNotExists(f, q), nil)), hberr.ErrBadRequest},
		{"condition nil filter", second(NewCheckAndMutate(IfFilter(nil), mustPut(t, table, row))), hberr.ErrBadRequest},
		{"condition bad op", second(NewCheckAndMutate(IfValue(f, q, NoOp, v), mustPut(t, table, row))), hberr.ErrBadRequest},
		{"condition zero value", second(NewCheckAndMutate(Condition{}, mustPut(t, table, row))), hberr.ErrBadRequest},
		{"condition time range", second(NewCheckAndMutate(IfNotExists(f, q).InTimeRange(3, 2), mustPut(t, table, row))), hberr.ErrBadRequest},
	}
	for _, tc := range cases {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

func TestRowMutationsMismatch(t *testing.T) {
	a := mustPut(t, "t", []byte("a"))
	b := mustPut(t, "t", []byte("b"))
	c := mustPut(t, "u", []byte("a"))
	if _, err := NewRowMutations([]Mutation{a, b}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("different rows: %v", err)
	}
	if _, err := NewRowMutations([]Mutation{a, c}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("different tables: %v", err)
	}
	if _, err := NewRowMutations([]Mutation{a, nil}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("nil mutation: %v", err)
	}
}

func TestEmptyRowAndValueAllowed(t *testing.T) {
	if _, err := NewPut("t", []byte{0}, Value([]byte("f"), nil, nil)); err != nil {
		t.Fatalf("empty qualifier and value: %v", err)
	}
	if _, err := NewScan("t", StartRow([]byte{}), StopRow([]byte{})); err != nil {
		t.Fatalf("empty scan bounds: %v", err)
	}
	if _, err := NewDelete("t", []byte("r")); err != nil {
		t.Fatalf("whole-row delete: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

func mustPut(t testing.TB, table string, row []byte) *Put {
	t.Helper()
	p, err := NewPut(table, row, Value([]byte("f"), []byte("q"), []byte("v")))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOptionKinds checks which requests each option applies to: passing an option to another
// kind of request does not compile, because its type lacks that request's option method.
func TestOptionKinds(t *testing.T) {
	f, q, v := []byte("f"), []byte("q"), []byte("v")
	kinds := map[string]reflect.Type{
		"Get":            reflect.TypeFor[GetOption](),
		"Scan":           reflect.TypeFor[ScanOption](),
		"Put":            reflect.TypeFor[PutOption](),
		"Delete":         reflect.TypeFor[DeleteOption](),
		"Append":         reflect.TypeFor[AppendOption](),
		"Increment":      reflect.TypeFor[IncrementOption](),
		"CheckAndMutate": reflect.TypeFor[CheckAndMutateOption](),
		"RowMutations":   reflect.TypeFor[RowMutationsOption](),
	}
	cases := []struct {
		name string
		opt  any
		want string
	}{
		{"Families", Families(f), "Get Scan"},
		{"Columns", Columns(f, q), "Get Scan"},
		{"MaxVersions", MaxVersions(2), "Get Scan"},
		{"WithFilter", WithFilter(PrefixFilter{}), "Get Scan"},
		{"NoBlockCache", NoBlockCache(), "Get Scan"},
		{"TimeRange", TimeRange(0, 1), "Get Scan Append Increment"},
		{"ExistsOnly", ExistsOnly(), "Get"},
		{"Limit", Limit(1), "Scan"},
		{"StartRow", StartRow(q), "Scan"},
		{"Value", Value(f, q, v), "Put Append"},
		{"ValueAt", ValueAt(f, q, 1, v), "Put"},
		{"Amount", Amount(f, q, 1), "Increment"},
		{"DeleteColumn", DeleteColumn(f, q), "Delete"},
		{"DeleteFamily", DeleteFamily(f), "Delete"},
		{"Timestamp", Timestamp(1), "Put Delete Append Increment"},
		{"WithDurability", WithDurability(SkipWAL), "Put Delete Append Increment"},
		{"Attribute", Attribute("a", nil), "Get Scan Put Delete Append Increment"},
		{"MaxAttempts", MaxAttempts(1), "Get Scan Put Delete Append Increment CheckAndMutate RowMutations"},
		{"Priority", Priority(1), "Get Scan Put Delete Append Increment CheckAndMutate RowMutations"},
		{"RequestAttribute", RequestAttribute("a", nil), "Get Scan Put Delete Append Increment CheckAndMutate RowMutations"},
	}
	for _, c := range cases {
		for kind, iface := range kinds {
			want := strings.Contains(" "+c.want+" ", " "+kind+" ")
			if got := reflect.TypeOf(c.opt).Implements(iface); got != want {
				t.Errorf("%s applies to %s: %v, want %v", c.name, kind, got, want)
			}
		}
	}
}

// TestOptionsStayOnTheStack checks that an option built in the call to its constructor costs
// no allocation of its own (typed options must not cost allocations per request).
func TestOptionsStayOnTheStack(t *testing.T) {
	tb, row, f := "t", []byte("r"), []byte("f")
	bare := testing.AllocsPerRun(100, func() { _, _ = NewGet(tb, row) })
	withOpts := testing.AllocsPerRun(100, func() {
		_, _ = NewGet(tb, row, MaxVersions(2), NoBlockCache(), ExistsOnly(), MaxResultsPerColumnFamily(3))
	})
	if withOpts > bare {
		t.Errorf("NewGet with four options: %v allocations, without: %v", withOpts, bare)
	}
	put := testing.AllocsPerRun(100, func() { _, _ = NewPut(tb, row, Value(f, f, f)) })
	putMore := testing.AllocsPerRun(100, func() {
		_, _ = NewPut(tb, row, Value(f, f, f), Timestamp(1), WithDurability(SkipWAL))
	})
	if putMore > put {
		t.Errorf("NewPut with Timestamp and WithDurability: %v allocations, without: %v", putMore, put)
	}
}
