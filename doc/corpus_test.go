package doc

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// corpus is the JSON documents every round trip is checked on: nested objects, arrays of
// objects, unicode and punctuation in keys, numbers at the edges of int64 and float64, empty
// containers at every level.
var corpus = []string{
	`{}`,
	`{"a":1}`,
	`{"name":"Alice","age":30,"admin":true,"manager":null,"score":4.5}`,
	`{"address":{"street":"1 rue de Rivoli","city":"Paris","geo":{"lat":48.8566,"lon":2.3522}}}`,
	`{"orders":[{"id":1,"items":[{"sku":"a","qty":2},{"sku":"b","qty":1}]},{"id":2,"items":[]}]}`,
	`{"matrix":[[1,2,3],[4,5,6],[],[[7]]]}`,
	`{"empty":{},"none":[],"nested":{"e":{},"n":[],"deeper":{"x":[{}],"y":[[]]}}}`,
	`{"名前":"アリス","città":"Roma","emoji😀":"🎉","Ελληνικά":{"κλειδί":"τιμή"}}`,
	`{"a.b":1,"a[0]":2,"a]":3,"[":4,"\"":5,"\\":6,"":7,"a b":8,"#v":9,".":10,"0":11}`,
	`{"ctrl\u0000key":"nul\u0000inside","tab\tkey":"line\nbreak","\u2028":"\u2029","\u007f":"del"}`,
	`{"max":9223372036854775807,"min":-9223372036854775808,"big":9223372036854775808,"huge":1e308,"tiny":5e-324,"neg":-1.7976931348623157e308}`,
	`{"ints":[0,-0,1,-1,9007199254740993,-9007199254740993],"floats":[0.0,-0.0,1.0,0.1,1e21,1e-7,123456789.125,2.5e-320]}`,
	`{"almost":[9007199254740992.0,9223372036854775807.0,4611686018427387904.5]}`,
	`{"s":"","long":"` + strings.Repeat("x", 5000) + `","quote":"say \"hi\"","slash":"a\\b\/c"}`,
	`{"deep":{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[1,[2,[3,[4,{"k":"v"}]]]]}}}}}}}}}}}`,
	`{"mixed":[null,true,false,0,1.5,"s",[],{},[null],{"n":null}]}`,
	`{"dup":1,"dup":2}`,
}

// sameValue compares canonical values exactly: types (int64 is not float64), float bits
// (-0 is not 0), keys and elements.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string, int64:
		return a == b
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

func mustParse(t testing.TB, s string) map[string]any {
	t.Helper()
	m, err := ParseJSON([]byte(s))
	if err != nil {
		t.Fatalf("ParseJSON(%.60s): %v", s, err)
	}
	return m
}

// rowOf turns cells into a row's cells as a Get returns them: sorted by qualifier.
func rowOf(id string, cs cells, m *meta) []hrpc.Cell {
	var out []hrpc.Cell
	for q, v := range cs {
		out = append(out, hrpc.Cell{Row: []byte(id), Family: []byte("d"), Qualifier: []byte(q), Value: v})
	}
	if m != nil {
		out = append(out, hrpc.Cell{Row: []byte(id), Family: []byte("d"), Qualifier: metaQualifierBytes, Value: m.encode()})
	}
	slices.SortFunc(out, func(a, b hrpc.Cell) int { return bytes.Compare(a.Qualifier, b.Qualifier) })
	return out
}

// roundTrip flattens a document and decodes its cells.
func roundTrip(t testing.TB, m map[string]any) map[string]any {
	t.Helper()
	cs, err := flattenObject(Limits{MaxDepth: 64, MaxQualifier: 32767, MaxRowBytes: 1 << 30}, m)
	if err != nil {
		t.Fatalf("flatten: %v", err)
	}
	var d decoder
	_, found, got, err := d.row(rowOf("id", cs, &meta{version: 1}))
	if err != nil || !found {
		t.Fatalf("decode: %v (found %v)", err, found)
	}
	return got
}

func TestCorpusRoundTripInMemory(t *testing.T) {
	for i, s := range corpus {
		m := mustParse(t, s)
		if got := roundTrip(t, m); !sameValue(got, m) {
			t.Errorf("corpus %d: stored and read back:\n%s\nwant\n%s", i, jsonText(got), jsonText(m))
		}
		out, err := MarshalJSON(m)
		if err != nil {
			t.Fatal(err)
		}
		if again := mustParse(t, string(out)); !sameValue(again, m) {
			t.Errorf("corpus %d: MarshalJSON then ParseJSON changed it:\n%s", i, out)
		}
	}
}

func TestNumbersParse(t *testing.T) {
	m := mustParse(t, corpus[10])
	want := map[string]any{"max": int64(math.MaxInt64), "min": int64(math.MinInt64), "big": 9223372036854775808.0,
		"huge": 1e308, "tiny": 5e-324, "neg": -math.MaxFloat64}
	if !sameValue(m, want) {
		t.Fatalf("parsed %#v; want %#v", m, want)
	}
	f := mustParse(t, `{"z":-0.0,"i":-0,"one":1.0}`)
	if !sameValue(f, map[string]any{"z": math.Copysign(0, -1), "i": int64(0), "one": 1.0}) {
		t.Fatalf("parsed %#v", f)
	}
	if out, _ := MarshalJSON(f); string(out) != `{"i":0,"one":1.0,"z":-0.0}` {
		t.Fatalf("MarshalJSON = %s", out)
	}
	for _, bad := range []string{`[1]`, `"s"`, `{"a":1e999}`, `{"a":1} x`, `{"a":`, "{\"a\":\"\xff\"}"} {
		if _, err := ParseJSON([]byte(bad)); !errors.Is(err, hberr.ErrInvalidDocument) {
			t.Errorf("ParseJSON(%q) = %v; want ErrInvalidDocument", bad, err)
		}
	}
}

// randomDoc makes a random document: nasty keys, numbers at the edges, containers nested a few
// levels, empty ones included.
func randomDoc(r *rand.Rand, maxDepth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(6) {
		m[nastyKeys[r.IntN(len(nastyKeys))]] = randomValue(r, maxDepth-1)
	}
	return m
}

func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(10)
	if depth <= 0 && k >= 7 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2, 3:
		for {
			if n := randomNumber(r); finite(n) {
				return n
			}
		}
	case 4, 5:
		return []string{"", "a", "b", "ab", "é", "\x00", "😀", "a.b", "[0]"}[r.IntN(9)]
	case 6:
		return int64(r.IntN(5))
	case 7:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomValue(r, depth-1)
		}
		return a
	default:
		return randomDoc(r, depth)
	}
}

func TestRandomDocsRoundTripInMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 3000 {
		m := randomDoc(r, 5)
		if got := roundTrip(t, m); !sameValue(got, m) {
			t.Fatalf("doc %d: read back\n%s\nwant\n%s", i, jsonText(got), jsonText(m))
		}
	}
}

// TestDecodeRefusesCorruptRows: a row that is not what the layer writes is an error, never a
// document that is silently something else.
func TestDecodeRefusesCorruptRows(t *testing.T) {
	base := cells{".a": markerObject, ".a.b": appendScalar(nil, int64(1)), ".l": appendArrayMarker(nil, 2),
		".l[0]": appendScalar(nil, "x"), ".l[1]": appendScalar(nil, "y")}
	bad := map[string]func(cells){
		"element past the length":  func(c cells) { c[".l[2]"] = appendScalar(nil, "z") },
		"missing element":          func(c cells) { delete(c, ".l[1]") },
		"child of a scalar":        func(c cells) { c[".a.b.c"] = appendScalar(nil, int64(2)) },
		"child without its parent": func(c cells) { c[".x.y"] = appendScalar(nil, int64(2)) },
		"index under an object":    func(c cells) { c[".a[0]"] = appendScalar(nil, int64(2)) },
		"key under an array":       func(c cells) { c[".l.k"] = appendScalar(nil, int64(2)) },
		"non-canonical qualifier":  func(c cells) { c[`.["z"]`] = appendScalar(nil, int64(2)) },
		"not a path":               func(c cells) { c["zz"] = appendScalar(nil, int64(2)) },
		"bad value":                func(c cells) { c[".v"] = []byte{0x42} },
		"bad array length":         func(c cells) { c[".l"] = []byte{tagArray, 0xff} },
	}
	for name, spoil := range bad {
		cs := cells{}
		for q, v := range base {
			cs[q] = v
		}
		spoil(cs)
		var d decoder
		if _, _, got, err := d.row(rowOf("id", cs, &meta{version: 1})); !errors.Is(err, hberr.ErrInvalidDocument) {
			t.Errorf("%s: decoded %v, %v; want ErrInvalidDocument", name, got, err)
		}
	}
}

func TestLimits(t *testing.T) {
	lim := Limits{MaxDepth: 3, MaxQualifier: 16, MaxRowBytes: 1024}
	lim, err := lim.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		doc   string
		limit string
		path  string
	}{
		{`{"a":{"b":{"c":{"d":1}}}}`, "depth", ".a.b.c.d"},
		{`{"a":[[[[1]]]]}`, "depth", ".a[0][0][0]"},
		{`{"abcdefghijklmnopq":1}`, "qualifier", ".abcdefghijklmnopq"},
	}
	for _, c := range cases {
		_, err := flattenObject(lim, mustParse(t, c.doc))
		var le *hberr.DocLimitError
		if !errors.As(err, &le) || le.Limit != c.limit || le.Path != c.path || !errors.Is(err, hberr.ErrDocumentLimit) {
			t.Errorf("%s: %v; want a %s limit at %s", c.doc, err, c.limit, c.path)
		}
		if err != nil && !strings.Contains(err.Error(), c.path) {
			t.Errorf("%s: message %q does not name the path", c.doc, err)
		}
	}
	if err := checkRowSize(lim, 1025); !errors.Is(err, hberr.ErrDocumentLimit) || !strings.Contains(err.Error(), "row of 1025 bytes over the limit of 1024") {
		t.Errorf("row limit: %v", err)
	}
	for _, l := range []Limits{{MaxDepth: -1}, {MaxQualifier: 8}, {MaxQualifier: 40000}, {MaxRowBytes: 10}} {
		if _, err := l.withDefaults(); err == nil {
			t.Errorf("limits %+v accepted", l)
		}
	}
}
