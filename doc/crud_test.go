package doc

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// TestCorpusRoundTrip stores every document of the corpus and reads it back, whole, as JSON
// and through ParseJSON again: the same values, types and float bits.
func TestCorpusRoundTrip(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		c := b.collection(t)
		ctx := testContext(t, 2*time.Minute)
		for i, s := range corpus {
			id := fmt.Sprintf("corpus-%02d", i)
			if _, err := c.Insert(ctx, id, json.RawMessage(s)); err != nil {
				t.Fatalf("%s: Insert: %v", id, err)
			}
			d, err := c.Get(ctx, id)
			if err != nil {
				t.Fatalf("%s: Get: %v", id, err)
			}
			want := mustParse(t, s)
			if !sameValue(d.Fields, want) {
				t.Errorf("%s: read back\n%s\nwant\n%s", id, jsonText(d.Fields), jsonText(want))
			}
			out, err := d.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if again := mustParse(t, string(out)); !sameValue(again, want) {
				t.Errorf("%s: its JSON %s reads back otherwise", id, out)
			}
		}
	})
}

// TestDocumentLifecycle: Insert fails when present, Replace when absent, Upsert either way;
// versions count every write, deletes included, and go on after a delete; conditional writes
// refuse another version and leave the document alone.
func TestDocumentLifecycle(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		c := b.collection(t)
		ctx := testContext(t, 2*time.Minute)
		expect := func(what string, err, want error) {
			t.Helper()
			if !errors.Is(err, want) {
				t.Fatalf("%s: %v; want %v", what, err, want)
			}
			var de *hberr.DocError
			if want != nil && (!errors.As(err, &de) || de.ID != "u1" || de.Table != c.Table()) {
				t.Fatalf("%s: %v is not a DocError naming the document", what, err)
			}
		}
		version := func(want uint64) {
			t.Helper()
			d, err := c.Get(ctx, "u1")
			if err != nil || d.Version != want {
				t.Fatalf("Get: %v, %v; want version %d", d, err, want)
			}
		}
		_, err := c.Get(ctx, "u1")
		expect("Get of nothing", err, hberr.ErrDocumentNotFound)
		_, err = c.Replace(ctx, "u1", map[string]any{"a": 1})
		expect("Replace of nothing", err, hberr.ErrDocumentNotFound)
		expect("Update of nothing", func() error { _, err := c.Update(ctx, "u1", []Op{Set(".a", 1)}); return err }(), hberr.ErrDocumentNotFound)
		expect("Delete of nothing", c.Delete(ctx, "u1"), hberr.ErrDocumentNotFound)

		v, err := c.Insert(ctx, "u1", map[string]any{"a": 1, "gone": []any{1, 2, 3}})
		if err != nil || v != 1 {
			t.Fatalf("Insert = %d, %v", v, err)
		}
		_, err = c.Insert(ctx, "u1", map[string]any{"a": 2})
		expect("Insert of a present one", err, hberr.ErrDocumentExists)
		version(1)

		v, err = c.Replace(ctx, "u1", map[string]any{"b": "x"})
		if err != nil || v != 2 {
			t.Fatalf("Replace = %d, %v", v, err)
		}
		d, _ := c.Get(ctx, "u1")
		if !sameValue(d.Fields, map[string]any{"b": "x"}) {
			t.Fatalf("after Replace: %s", jsonText(d.Fields))
		}
		_, err = c.Replace(ctx, "u1", map[string]any{"b": "y"}, IfVersion(1))
		expect("Replace at an old version", err, hberr.ErrVersionConflict)
		_, err = c.Update(ctx, "u1", []Op{Set(".c", 1)}, IfVersion(7))
		expect("Update at another version", err, hberr.ErrVersionConflict)
		expect("Delete at an old version", c.Delete(ctx, "u1", IfVersion(1)), hberr.ErrVersionConflict)
		version(2)
		if v, err = c.Update(ctx, "u1", []Op{Set(".c", 1)}, IfVersion(2)); err != nil || v != 3 {
			t.Fatalf("Update at its version = %d, %v", v, err)
		}
		if err := c.Delete(ctx, "u1", IfVersion(3)); err != nil {
			t.Fatalf("Delete at its version: %v", err)
		}
		_, err = c.Get(ctx, "u1")
		expect("Get after Delete", err, hberr.ErrDocumentNotFound)
		_, err = c.Update(ctx, "u1", []Op{Set(".c", 1)}, IfVersion(4))
		expect("Update of a deleted one", err, hberr.ErrVersionConflict)

		// Inserted again at once (the same millisecond, likely): versions go on, nothing of
		// the old document shows, and the new cells are not masked by the delete.
		if v, err = c.Insert(ctx, "u1", map[string]any{"new": true}); err != nil || v != 5 {
			t.Fatalf("Insert after Delete = %d, %v", v, err)
		}
		d, _ = c.Get(ctx, "u1")
		if !sameValue(d.Fields, map[string]any{"new": true}) || d.Version != 5 {
			t.Fatalf("after Insert again: v%d %s", d.Version, jsonText(d.Fields))
		}
		if v, err = c.Upsert(ctx, "u1", map[string]any{"up": int64(1)}); err != nil || v != 6 {
			t.Fatalf("Upsert of a present one = %d, %v", v, err)
		}
		if v, err = c.Upsert(ctx, "u2", map[string]any{"up": int64(2)}); err != nil || v != 1 {
			t.Fatalf("Upsert of a new one = %d, %v", v, err)
		}

		// Many writes of one document within milliseconds: each sees the last (timestamps go up
		// one by one when the clock does not).
		for i := range 30 {
			if _, err := c.Update(ctx, "u1", []Op{Set(".n", i), Remove(".up")}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Update(ctx, "u1", []Op{Remove(".n"), Set(".up", i)}); err != nil {
				t.Fatal(err)
			}
			d, _ := c.Get(ctx, "u1")
			if !sameValue(d.Fields, map[string]any{"up": int64(i)}) {
				t.Fatalf("round %d: %s", i, jsonText(d.Fields))
			}
		}
	})
}

// TestLimitsWriteNothing: a document, an update or an index key over a limit is refused with
// a DocLimitError naming the limit and the path, and the stored document is unchanged.
func TestLimitsWriteNothing(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		c := b.collection(t, WithLimits(Limits{MaxDepth: 4, MaxQualifier: 32, MaxRowBytes: 2048}), WithIndex("by-s", ".s"))
		ctx := testContext(t, 2*time.Minute)
		if _, err := c.Insert(ctx, "l", map[string]any{"a": map[string]any{"b": 1}, "s": "x"}); err != nil {
			t.Fatal(err)
		}
		limited := func(what string, err error, limit, path string) {
			t.Helper()
			var le *hberr.DocLimitError
			if !errors.As(err, &le) || le.Limit != limit || !strings.Contains(err.Error(), path) {
				t.Fatalf("%s: %v; want the %s limit at %s", what, err, limit, path)
			}
		}
		_, err := c.Insert(ctx, "m", map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": map[string]any{"e": 1}}}}})
		limited("Insert too deep", err, "depth", ".a.b.c.d.e")
		_, err = c.Update(ctx, "l", []Op{Set(".a.b", map[string]any{"c": map[string]any{"d": map[string]any{"e": 1}}})})
		limited("Set too deep", err, "depth", ".a.b.c.d")
		_, err = c.Update(ctx, "l", []Op{Set(".x", 1), Set("."+strings.Repeat("k", 40), 1)})
		limited("Set of a long key", err, "qualifier", ".kkkk")
		_, err = c.Update(ctx, "l", []Op{Set(".s", "y"), Set(".big", strings.Repeat("z", 3000))})
		limited("Set of a big value", err, "row", "row of")
		_, err = c.Update(ctx, "l", []Op{Append(".list", strings.Repeat("z", 600), strings.Repeat("z", 600)), Append(".list", strings.Repeat("z", 900))})
		limited("Appends past the row limit", err, "row", "row of")
		_, err = c.Upsert(ctx, "l", map[string]any{"s": strings.Repeat("é", 1100)})
		limited("Upsert of a big document", err, "row", "row of")
		d, err := c.Get(ctx, "l")
		if err != nil || d.Version != 1 || !sameValue(d.Fields, map[string]any{"a": map[string]any{"b": int64(1)}, "s": "x"}) {
			t.Fatalf("after refused writes: %v %v", d, err)
		}
		// An index key over HBase's row key limit.
		big := Limits{MaxRowBytes: 1 << 20}
		c2, err := Open(b.client, c.Table(), "d", WithLimits(big), WithIndexTable(c.idxTable, "d"), WithIndex("by-s", ".s"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c2.Update(ctx, "l", []Op{Set(".s", strings.Repeat("k", 40000))})
		limited("an index key of 40000 bytes", err, "index key", ".s")
		checkIndexes(t, ctx, c, map[string]map[string]any{"l": d.Fields})
	})
}

// TestProjectionReadsOnlyItsCells: a projected Get asks the server for the projected paths'
// cells (the version cell aside, and siblings whose keys start like a projected one's), not
// the rest of the document.
func TestProjectionReadsOnlyItsCells(t *testing.T) {
	b := fakeBackend(t)
	c := b.collection(t)
	ctx := testContext(t, time.Minute)
	doc := mustParse(t, `{"a":{"b":[1,{"c":2}],"bb":3},"ab":4,"a b":5,"list":[10,11,12],"z":{"y":"x"}}`)
	if _, err := c.Insert(ctx, "p", doc); err != nil {
		t.Fatal(err)
	}
	paths := []string{".a.b", ".list[1]", ".z", ".missing"}
	sel := (&readOptions{paths: paths}).selection()
	g, err := hrpc.NewGet(c.table, []byte("p"), c.getOptions(sel)...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.client.Get(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cell := range res.Cells {
		got = append(got, string(cell.Qualifier))
	}
	// .a.bb starts like .a.b: the prefix filter lets it through, and the client drops it.
	want := []string{"#v", ".a.b", ".a.b[0]", ".a.b[1]", ".a.b[1].c", ".a.bb", ".list[1]", ".z", ".z.y"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("cells read %q; want %q", got, want)
	}
	d, err := c.Get(ctx, "p", Project(paths...))
	if err != nil {
		t.Fatal(err)
	}
	if want := mustParse(t, `{"a":{"b":[1,{"c":2}]},"list":[null,11],"z":{"y":"x"}}`); !sameValue(d.Fields, want) {
		t.Fatalf("projection %s; want %s", jsonText(d.Fields), jsonText(want))
	}
	if v, ok := d.Lookup(".a.b[1].c"); !ok || v != int64(2) {
		t.Fatalf("Lookup = %v, %v", v, ok)
	}
}

// TestReadsFollowShapes: a read of a subtree asks for its root as a column first and reads
// again with a prefix filter only when the root is a container; a root seen as a container
// is read with the filter at once, and a wrong guess (the root became a scalar, or a
// container again) still reads what is there.
func TestReadsFollowShapes(t *testing.T) {
	b := fakeBackend(t)
	c := b.collection(t)
	ctx := testContext(t, time.Minute)
	if _, err := c.Insert(ctx, "s", map[string]any{"a": 1, "n": "x"}); err != nil {
		t.Fatal(err)
	}
	gets := func() int { return b.fake.Calls(fakehbase.Match{Op: fakehbase.OpGet, Table: c.Table()}) }
	for i, step := range []struct {
		set  any    // the new value of .a
		want string // the projection of .a that follows
		gets int    // the Gets of the projection
	}{
		{nil, `{"a":1}`, 1},                          // a scalar: its column is all of it
		{map[string]any{"x": 1}, `{"a":{"x":1}}`, 2}, // an object: read again with the filter
		{[]any{}, `{"a":[]}`, 1},                     // seen as a container: the filter at once
		{[]any{"p"}, `{"a":["p"]}`, 2},               // the empty array was learned as none
		{"s", `{"a":"s"}`, 1},                        // the filter at once finds a scalar
		{map[string]any{"y": 2}, `{"a":{"y":2}}`, 2},
		{map[string]any{"y": 3}, `{"a":{"y":3}}`, 1}, // remembered: no column read first
	} {
		if i > 0 {
			if _, err := c.Update(ctx, "s", []Op{Set(".a", step.set)}); err != nil {
				t.Fatal(err)
			}
		}
		before := gets()
		d, err := c.Get(ctx, "s", Project(".a"))
		if err != nil {
			t.Fatal(err)
		}
		if want := mustParse(t, step.want); !sameValue(d.Fields, want) {
			t.Fatalf("step %d: projection %s; want %s", i, jsonText(d.Fields), step.want)
		}
		if n := gets() - before; n != step.gets {
			t.Errorf("step %d: %d Gets; want %d", i, n, step.gets)
		}
	}
}
