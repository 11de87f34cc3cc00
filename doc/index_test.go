package doc

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// findIDs runs Find and returns the ids, sorted.
func findIDs(t testing.TB, c *Collection, k Cond, opts ...FindOption) []string {
	t.Helper()
	var ids []string
	for d, err := range c.Find(testContext(t, time.Minute), k, opts...) {
		if err != nil {
			t.Fatalf("Find: %v", err)
		}
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	return ids
}

// putIndexRow writes an index row as a writer would, at ts.
func putIndexRow(t testing.TB, c *Collection, name string, value any, id string, ts uint64) {
	t.Helper()
	ix, err := c.indexNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := hrpc.NewPut(c.idxTable, ix.row(string(scalarKey(nil, value)), id), hrpc.Timestamp(ts),
		hrpc.Value(c.idxFam, indexQualifier, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.c.Put(testContext(t, time.Minute), p); err != nil {
		t.Fatal(err)
	}
}

// TestIndexRepair leaves an index in every state a crash (or a program without the index)
// can leave it, checks that queries through the index hide what is stale, and that
// RepairIndex reports and fixes exactly that: rows of values documents no longer have
// (removed), rows a write under way may have put (left alone until the grace ends), values
// without a row (added).
func TestIndexRepair(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		c := b.collection(t, WithIndex("city", ".city"), WithIndex("tags", ".tags"))
		ctx := testContext(t, 3*time.Minute)
		docs := map[string]map[string]any{}
		cities := []string{"Paris", "Lyon", "Nice"}
		for i := range 30 {
			id := fmt.Sprintf("u%02d", i)
			docs[id] = map[string]any{"city": cities[i%3], "tags": []any{fmt.Sprintf("t%d", i%4), "all"}}
			if _, err := c.Insert(ctx, id, docs[id]); err != nil {
				t.Fatal(err)
			}
		}
		checkIndexes(t, ctx, c, docs)

		// Stale rows: values the documents do not have, older than them (a writer that put
		// them and died before its document write, or wrote the document and died before
		// removing its old rows).
		cur, err := c.read(ctx, "u01", selection{})
		if err != nil {
			t.Fatal(err)
		}
		putIndexRow(t, c, "city", "Ghost", "u01", cur.meta.ts-5)
		putIndexRow(t, c, "city", "Paris", "u01", cur.meta.ts) // u01 is in Lyon
		putIndexRow(t, c, "tags", "old", "u02", cur.meta.ts)
		putIndexRow(t, c, "city", "Paris", "nobody", 1000) // a document that never was
		stale, young := 4, 1
		// A young row: newer than its document and than the grace, as a write under way puts.
		putIndexRow(t, c, "city", "Soon", "u03", uint64(time.Now().Add(time.Hour).UnixMilli()))

		// A writer failing between its steps, for real, where the fake can make it fail.
		if b.fake != nil {
			if err := b.fake.InjectError(fakehbase.Match{Op: fakehbase.OpCheckAndMutate, Table: c.Table()}, fakehbase.DoNotRetry, "crash before the document write", 1); err != nil {
				t.Fatal(err)
			}
			_, err := c.Update(ctx, "u04", []Op{Set(".city", "Crashed")})
			if !errors.Is(err, hberr.ErrDoNotRetry) {
				t.Fatalf("Update that failed: %v", err)
			}
			young++ // its row of Crashed stays, newer than its document: young until the grace ends
			if err := b.fake.InjectError(fakehbase.Match{Op: fakehbase.OpDelete, Table: c.idxTable}, fakehbase.DoNotRetry, "crash before the old rows' removal", 1); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Update(ctx, "u05", []Op{Set(".city", "Moved")}); err != nil {
				t.Fatalf("Update whose row removal failed: %v", err)
			}
			docs["u05"]["city"] = "Moved"
			stale++ // u05's row of Lyon stays
		}

		// Missing rows: documents written by a program that does not know the index.
		plain, err := Open(b.client, c.Table(), "d")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plain.Update(ctx, "u06", []Op{Set(".city", "Unindexed"), Append(".tags", "new")}); err != nil {
			t.Fatal(err)
		}
		docs["u06"]["city"] = "Unindexed"
		docs["u06"]["tags"] = append(docs["u06"]["tags"].([]any), "new")
		if _, err := plain.Insert(ctx, "u99", map[string]any{"city": "Paris"}); err != nil {
			t.Fatal(err)
		}
		docs["u99"] = map[string]any{"city": "Paris"}
		missing := 3 // u06's Unindexed and new, u99's Paris
		// u06's old rows (its city Paris, nothing of tags) stay behind: stale too.
		stale++

		// Reads through the index hide the stale rows: every id they return matches.
		for _, city := range []string{"Paris", "Ghost", "Crashed", "Lyon", "Soon"} {
			got := findIDs(t, c, Eq(".city", city))
			var want []string
			for id, d := range docs {
				if d["city"] == city && id != "u06" && id != "u99" { // not indexed yet
					want = append(want, id)
				}
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("before repair, city %s: %q; want %q", city, got, want)
			}
		}

		dry, err := c.RepairIndex(ctx, "city", RepairDryRun())
		if err != nil {
			t.Fatal(err)
		}
		rep, err := c.RepairIndex(ctx, "city")
		if err != nil {
			t.Fatal(err)
		}
		tags, err := c.RepairIndex(ctx, "tags")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("dry run: %v\ncity: %v %q\ntags: %v %q", dry, rep, rep.Examples, tags, tags.Examples)
		if dry.Removed != rep.Removed || dry.Added != rep.Added || !dry.DryRun {
			t.Errorf("dry run %v; the repair %v", dry, rep)
		}
		if got := rep.Removed + tags.Removed; got != stale {
			t.Errorf("removed %d rows; want %d", got, stale)
		}
		if got := rep.Added + tags.Added; got != missing {
			t.Errorf("added %d rows; want %d", got, missing)
		}
		if rep.Young != young || rep.Documents != len(docs) {
			t.Errorf("city: %d young, %d documents; want %d and %d", rep.Young, rep.Documents, young, len(docs))
		}
		if !slices.ContainsFunc(rep.Examples, func(s string) bool { return strings.Contains(s, `removed .city="Ghost" "u01"`) }) {
			t.Errorf("examples %q do not name the ghost row", rep.Examples)
		}
		// Once the young rows are older than the grace they go too; then the index is the
		// documents' values exactly, and another repair finds nothing.
		c.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
		late, err := c.RepairIndex(ctx, "city")
		if err != nil || late.Removed != young || late.Young != 0 {
			t.Fatalf("repair after the grace: %v, %v; want the %d young rows removed", late, err, young)
		}
		c.now = time.Now
		checkIndexes(t, ctx, c, docs)
		for _, name := range []string{"city", "tags"} {
			again, err := c.RepairIndex(ctx, name)
			if err != nil || again.Removed+again.Added+again.Young != 0 {
				t.Errorf("second repair of %s: %v, %v; want nothing to fix", name, again, err)
			}
		}
		if got := findIDs(t, c, Contains(".tags", "new")); !slices.Equal(got, []string{"u06"}) {
			t.Errorf("tags contains new: %q", got)
		}
		if _, err := c.RepairIndex(ctx, "nope"); !errors.Is(err, hberr.ErrIndexNotFound) {
			t.Errorf("RepairIndex of no index: %v", err)
		}
	})
}
