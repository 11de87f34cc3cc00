package doc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// modelSeeds are the seeds of the model tests: GOHBASE_DOC_SEED=n runs one more.
func modelSeeds(t *testing.T) []uint64 {
	seeds := []uint64{1, 2, 3, 4}
	if s := os.Getenv("GOHBASE_DOC_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("GOHBASE_DOC_SEED=%q: %v", s, err)
		}
		seeds = append(seeds, n)
	}
	return seeds
}

// TestUpdatesAgainstModel applies random updates (Set, Remove, Increment, Append; one to three
// ops, on paths the document has, new ones and some that must fail) to documents with nasty
// keys and numbers, on fakehbase and on the real cluster by the same seeds, and after each
// compares the document read back (whole, and a random projection) with the reference model;
// a refused update must leave the document as it was. At the end the indexes must hold
// exactly the rows of the documents' values.
func TestUpdatesAgainstModel(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		steps := 250
		if b.name == "real" {
			steps = 60
		}
		c := b.collection(t, WithIndex("by-a", ".a"), WithIndex("by-b", ".b"), WithIndex("by-ab", `.a.b`))
		ctx := testContext(t, 5*time.Minute)
		models := map[string]map[string]any{}
		applied, refused := 0, 0
		for _, seed := range modelSeeds(t) {
			r := rand.New(rand.NewPCG(seed, 99))
			id := fmt.Sprintf("doc-%d", seed)
			model := randomDoc(r, 3)
			ver, err := c.Insert(ctx, id, model)
			if err != nil || ver != 1 {
				t.Fatalf("seed %d: Insert = %d, %v", seed, ver, err)
			}
			for step := range steps {
				ops := randomOps(r, model)
				want, merr := modelApply(model, ops)
				got, err := c.Update(ctx, id, ops)
				what := fmt.Sprintf("seed %d step %d: %s", seed, step, describeOps(ops))
				switch {
				case merr != nil:
					refused++
					if !errors.Is(err, hberr.ErrInvalidUpdate) {
						t.Fatalf("%s: %v; the model refuses it (%v)", what, err, merr)
					}
				case err != nil:
					t.Fatalf("%s: %v", what, err)
				default:
					applied++
					if got != ver+1 {
						t.Fatalf("%s: version %d after %d", what, got, ver)
					}
					ver, model = got, want
				}
				d, err := c.Get(ctx, id)
				if err != nil {
					t.Fatalf("%s: Get: %v", what, err)
				}
				if !sameValue(d.Fields, model) || d.Version != ver {
					t.Fatalf("%s: read v%d\n%s\nwant v%d\n%s", what, d.Version, jsonText(d.Fields), ver, jsonText(model))
				}
				if paths := allPaths(model, nil, nil); len(paths) > 0 && step%5 == 0 {
					proj := []string{paths[r.IntN(len(paths))], paths[r.IntN(len(paths))], ".nothere"}
					pd, err := c.Get(ctx, id, Project(proj...))
					if err != nil {
						t.Fatalf("%s: Get %v: %v", what, proj, err)
					}
					if want := projected(model, proj); !sameValue(pd.Fields, want) {
						t.Fatalf("%s: projection %q read\n%s\nwant\n%s", what, proj, jsonText(pd.Fields), jsonText(want))
					}
				}
			}
			models[id] = model
		}
		t.Logf("%d updates applied, %d refused as the model refuses them", applied, refused)
		checkIndexes(t, ctx, c, models)
	})
}

func describeOps(ops []Op) string {
	s := ""
	for i, op := range ops {
		if i > 0 {
			s += ", "
		}
		switch op.kind {
		case opSet, opIncrement:
			s += fmt.Sprintf("%s(%s, %s)", op.kind, op.path, jsonText(mustCanonicalValue(op.value)))
		case opAppend:
			s += fmt.Sprintf("%s(%s, %s)", op.kind, op.path, jsonText(mustCanonicalValue(op.values)))
		default:
			s += fmt.Sprintf("%s(%s)", op.kind, op.path)
		}
	}
	return s
}

func mustCanonicalValue(v any) any {
	m, err := Canonical(map[string]any{"v": v})
	if err != nil {
		return fmt.Sprint(v)
	}
	return m["v"]
}

// indexContents reads every row of c's indexes: index name → "key id" lines, sorted.
func indexContents(t testing.TB, ctx context.Context, c *Collection) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, ix := range c.indexes {
		s, err := hrpc.NewScan(c.idxTable, hrpc.Families(c.idxFam), hrpc.Prefix(ix.prefix()))
		if err != nil {
			t.Fatal(err)
		}
		for res, err := range c.c.Scan(ctx, s) {
			if err != nil {
				t.Fatalf("scanning index %s: %v", ix.name, err)
			}
			key, id, err := ix.parseRow(res.Cells[0].Row)
			if err != nil {
				t.Fatalf("index %s: %v", ix.name, err)
			}
			out[ix.name] = append(out[ix.name], keyString(key)+" "+id)
		}
		slices.Sort(out[ix.name])
	}
	return out
}

// expectedIndexes is what the indexes hold for documents (id → fields).
func expectedIndexes(c *Collection, docs map[string]map[string]any) map[string][]string {
	out := map[string][]string{}
	for _, ix := range c.indexes {
		segs, _ := parseQualifier(ix.q)
		for id, fields := range docs {
			for _, k := range ix.keysOf(fields, segs) {
				out[ix.name] = append(out[ix.name], keyString([]byte(k))+" "+id)
			}
		}
		slices.Sort(out[ix.name])
	}
	return out
}

// checkIndexes fails t unless c's indexes hold exactly the rows of docs' values.
func checkIndexes(t testing.TB, ctx context.Context, c *Collection, docs map[string]map[string]any) {
	t.Helper()
	got, want := indexContents(t, ctx, c), expectedIndexes(c, docs)
	for _, ix := range c.indexes {
		if !slices.Equal(got[ix.name], want[ix.name]) {
			t.Errorf("index %s holds\n%q\nwant\n%q", ix.name, got[ix.name], want[ix.name])
		}
	}
}
