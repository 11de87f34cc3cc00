package doc

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

type address struct {
	Street string `doc:"street"`
	City   string `doc:"city"`
	Zip    string `doc:"zip,omitempty"`
}

type Audit struct {
	CreatedBy string    `doc:"createdBy"`
	Created   time.Time `doc:"created"`
}

type profile struct {
	Audit                         // embedded: its fields are the profile's
	ID       string               `doc:"-"`
	Name     string               `doc:"name"`
	Age      int                  `doc:"age"`
	Score    float64              `doc:"score"`
	Ratio    float32              `doc:"ratio"`
	Small    int8                 `doc:"small"`
	Big      uint64               `doc:"big"`
	Admin    bool                 `doc:"admin"`
	Nick     *string              `doc:"nick"`
	Manager  *string              `doc:"manager,omitempty"`
	Address  address              `doc:"address"`
	Previous []address            `doc:"previous"`
	Tags     []string             `doc:"tags"`
	Empty    []string             `doc:"empty"`
	Nil      []string             `doc:"nilSlice"`
	Grid     [2][2]int            `doc:"grid"`
	Counts   map[string]int64     `doc:"counts"`
	ByYear   map[int]string       `doc:"byYear"`
	Blob     []byte               `doc:"blob"`
	Any      any                  `doc:"any"`
	JSONName string               `json:"jsonName"`
	Plain    string               //
	Skip     int                  `doc:"skip,omitempty"`
	Zero     time.Time            `doc:"zero,omitzero"`
	Nested   map[string][]address `doc:"nested"`
	hidden   int
}

// TestStructRoundTrip: a struct converted to a document, stored as cells and read back
// decodes to the same struct, exactly.
func TestStructRoundTrip(t *testing.T) {
	nick := "ally"
	in := profile{
		Audit: Audit{CreatedBy: "ops", Created: time.Date(2026, 1, 2, 3, 4, 5, 6789, time.UTC)},
		ID:    "not stored",
		Name:  "Alice", Age: -42, Score: 0.1, Ratio: 1.1, Small: -128, Big: math.MaxInt64, Admin: true,
		Nick:     &nick,
		Address:  address{Street: "1 rue", City: "Paris"},
		Previous: []address{{City: "Lyon", Zip: "69000"}, {}},
		Tags:     []string{"a", "b.c", ""},
		Empty:    []string{},
		Grid:     [2][2]int{{1, 2}, {3, 4}},
		Counts:   map[string]int64{"x": math.MinInt64, "": 1},
		ByYear:   map[int]string{2024: "a", -1: "b"},
		Blob:     []byte{0, 1, 2, 0xff},
		Any:      map[string]any{"k": []any{int64(1), 2.5, "s", nil}},
		JSONName: "j",
		Plain:    "p",
		Nested:   map[string][]address{"home": {{City: "Nice"}}},
		hidden:   7,
	}
	c := newCodec()
	cv := conv{c: c, maxDepth: 32}
	fields, err := cv.object(&in)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ID", "hidden", "skip", "zero", "manager"} {
		if _, ok := fields[k]; ok {
			t.Errorf("field %s stored", k)
		}
	}
	for _, k := range []string{"createdBy", "jsonName", "Plain", "nilSlice"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("field %s not stored: %v", k, fields)
		}
	}
	got := roundTrip(t, fields)
	var out profile
	if err := c.decodeInto(got, &out); err != nil {
		t.Fatal(err)
	}
	in.ID, in.hidden = "", 0
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", out, in)
	}
	// Decoding through a Document, and into a map.
	d := &Document{ID: "x", Fields: got}
	var m map[string]any
	if err := d.Decode(&m); err != nil || !sameValue(m, got) {
		t.Fatalf("Decode into a map: %v", err)
	}
}

func TestStructDecodeRefuses(t *testing.T) {
	type small struct {
		N  int8    `doc:"n"`
		U  uint    `doc:"u"`
		S  string  `doc:"s"`
		F  float32 `doc:"f"`
		I  int     `doc:"i"`
		Fl float64 `doc:"fl"`
	}
	cases := []struct {
		doc  string
		path string
	}{
		{`{"n":200}`, ".n"},
		{`{"u":-1}`, ".u"},
		{`{"s":1}`, ".s"},
		{`{"f":"x"}`, ".f"},
		{`{"i":1.5}`, ".i"},
		{`{"f":1e300}`, ".f"},
		{`{"fl":9007199254740993}`, ".fl"},
	}
	c := newCodec()
	for _, tc := range cases {
		var s small
		err := c.decodeInto(mustParse(t, tc.doc), &s)
		if !errors.Is(err, hberr.ErrInvalidDocument) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v; want ErrInvalidDocument at %s", tc.doc, err, tc.path)
		}
	}
	var s small
	if err := c.decodeInto(mustParse(t, `{"i":3.0,"fl":3}`), &s); err != nil || s.I != 3 || s.Fl != 3 {
		t.Errorf("an integral float into an int and an int into a float: %+v, %v", s, err)
	}
}

func TestCanonicalRefuses(t *testing.T) {
	bad := []any{
		map[string]any{"f": math.NaN()},
		map[string]any{"f": math.Inf(-1)},
		map[string]any{"c": make(chan int)},
		map[string]any{"s": "\xff"},
		map[string]any{"\xff": 1},
		map[string]any{"u": uint64(math.MaxUint64)},
		[]any{1},
		"string",
		json.RawMessage(`[1]`),
	}
	for _, v := range bad {
		if _, err := Canonical(v); !errors.Is(err, hberr.ErrInvalidDocument) {
			t.Errorf("Canonical(%#v) = %v; want ErrInvalidDocument", v, err)
		}
	}
	type loop struct {
		Next *loop `doc:"next"`
	}
	l := &loop{}
	l.Next = l
	var le *hberr.DocLimitError
	if _, err := Canonical(l); !errors.As(err, &le) || le.Limit != "depth" {
		t.Errorf("a cycle: %v; want the depth limit", err)
	}
	m, err := Canonical(json.RawMessage(`{"a":[1,2.0]}`))
	if err != nil || !sameValue(m, map[string]any{"a": []any{int64(1), 2.0}}) {
		t.Errorf("Canonical(JSON) = %v, %v", m, err)
	}
}
