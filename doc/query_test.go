package doc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// queryValues are the values the query test's documents and conditions draw from.
var queryValues = []any{nil, false, true, int64(-5), int64(0), int64(3), 3.0, 3.5, -0.5, math.Copysign(0, -1),
	int64(math.MaxInt64), int64(math.MinInt64), 1e300, -1e300, int64(1<<53 + 1), float64(1 << 53),
	"", "a", "ab", "abc", "b", "a\x00", "é", "😀", "A", "a.b"}

func randomQueryDoc(r *rand.Rand) map[string]any {
	m := map[string]any{}
	pick := func() any { return queryValues[r.IntN(len(queryValues))] }
	for _, k := range []string{"n", "s", "f"} {
		if r.IntN(5) != 0 {
			m[k] = pick()
		}
	}
	if r.IntN(3) != 0 {
		tags := make([]any, r.IntN(4))
		for i := range tags {
			tags[i] = pick()
		}
		if r.IntN(6) == 0 {
			tags = append(tags, map[string]any{"x": 1})
		}
		m["tags"] = tags
	}
	if r.IntN(2) == 0 {
		m["o"] = map[string]any{"k": pick()}
	}
	if r.IntN(8) == 0 {
		m["n"] = map[string]any{"not": "a scalar"}
	}
	return m
}

// modelCompare compares two scalars as Find does, written from Cond's documentation: ok is
// false across types (or for containers).
func modelCompare(a, b any) (c int, ok bool) {
	class := func(v any) int {
		switch v.(type) {
		case nil:
			return 0
		case bool:
			return 1
		case int64, float64:
			return 2
		case string:
			return 3
		}
		return -1
	}
	if class(a) != class(b) || class(a) < 0 {
		return 0, false
	}
	switch x := a.(type) {
	case nil:
		return 0, true
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		}
		return 1, true
	case string:
		return strings.Compare(x, b.(string)), true
	}
	return exact(a).Cmp(exact(b)), true
}

func modelMatch(k Cond, doc map[string]any) bool {
	switch k.kind {
	case condAll:
		return true
	case condAnd:
		for _, s := range k.subs {
			if !modelMatch(s, doc) {
				return false
			}
		}
		return true
	case condOr:
		for _, s := range k.subs {
			if modelMatch(s, doc) {
				return true
			}
		}
		return false
	}
	segs, _ := parsePath(k.path)
	v, ok := lookup(doc, segs)
	if !ok {
		return false
	}
	canon := func(x any) any { return mustCanonicalValue(x) }
	switch k.kind {
	case condExists:
		return true
	case condPrefix:
		s, ok := v.(string)
		return ok && strings.HasPrefix(s, k.lo.(string))
	case condContains:
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range a {
			if c, ok := modelCompare(e, canon(k.lo)); ok && c == 0 {
				return true
			}
		}
		return false
	case condRange:
		if k.hasLo {
			c, ok := modelCompare(v, canon(k.lo))
			if !ok || c < 0 || c == 0 && !k.loInc {
				return false
			}
		}
		if k.hasHi {
			c, ok := modelCompare(v, canon(k.hi))
			if !ok || c > 0 || c == 0 && !k.hiInc {
				return false
			}
		}
		return true
	}
	return false
}

func randomCond(r *rand.Rand, depth int) Cond {
	paths := []string{".n", ".s", ".f", ".o.k", ".tags", ".tags[0]", ".missing"}
	p := paths[r.IntN(len(paths))]
	v := queryValues[r.IntN(len(queryValues))]
	switch k := r.IntN(12); {
	case k == 0 && depth > 0:
		return And(randomCond(r, depth-1), randomCond(r, depth-1))
	case k == 1 && depth > 0:
		return Or(randomCond(r, depth-1), randomCond(r, depth-1), randomCond(r, depth-1))
	case k == 2:
		return Eq(p, v)
	case k == 3:
		return Lt(p, v)
	case k == 4:
		return Le(p, v)
	case k == 5:
		return Gt(p, v)
	case k == 6:
		return Ge(p, v)
	case k == 7:
		for {
			w := queryValues[r.IntN(len(queryValues))]
			if _, ok := modelCompare(v, w); ok {
				return Between(p, v, w)
			}
		}
	case k == 8:
		return HasPrefix(p, []string{"", "a", "ab", "é", "a\x00"}[r.IntN(5)])
	case k == 9:
		return Exists(p)
	case k == 10:
		return Contains(".tags", v)
	}
	return Eq(".s", v)
}

// TestQueriesAgainstModel runs random conditions (comparisons across int64 and float64 at the
// edges, strings with NUL and non-ASCII, booleans, null, prefixes, existence, array contents,
// And, Or) over random documents, with and without indexes, whole and projected, over id
// ranges, with limits, on fakehbase and on the real cluster: Find must return exactly the
// documents the model matches.
func TestQueriesAgainstModel(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		c := b.collection(t, WithIndex("n", ".n"), WithIndex("s", ".s"), WithIndex("tags", ".tags"), WithIndex("ok", ".o.k"))
		ctx := testContext(t, 5*time.Minute)
		r := rand.New(rand.NewPCG(11, 12))
		docs := map[string]map[string]any{}
		for i := range 80 {
			id := fmt.Sprintf("q%03d", i)
			d, err := Canonical(randomQueryDoc(r))
			if err != nil {
				t.Fatal(err)
			}
			docs[id] = d
			if _, err := c.Insert(ctx, id, docs[id]); err != nil {
				t.Fatalf("Insert %s: %v", id, err)
			}
		}
		for _, id := range []string{"q003", "q017", "q050"} { // deleted: never found
			if err := c.Delete(ctx, id); err != nil {
				t.Fatal(err)
			}
			delete(docs, id)
		}
		rounds, indexed := 300, 0
		if b.name == "real" {
			rounds = 120
		}
		for i := range rounds {
			k := randomCond(r, 2)
			var opts []FindOption
			var proj []string
			start, stop, limit := "", "", 0
			switch r.IntN(5) {
			case 0:
				proj = []string{".s", ".o"}
				opts = append(opts, Project(proj...))
			case 1:
				start, stop = "q020", "q060"
				opts = append(opts, IDRange(start, stop))
			case 2:
				limit = 1 + r.IntN(5)
				opts = append(opts, Limit(limit))
			}
			var want []string
			for id, d := range docs {
				if modelMatch(k, d) && id >= start && (stop == "" || id < stop) {
					want = append(want, id)
				}
			}
			slices.Sort(want)
			plan, err := c.Explain(k, opts...)
			if err != nil {
				t.Fatalf("round %d: Explain: %v", i, err)
			}
			if strings.HasPrefix(plan, "index") {
				indexed++
			}
			for _, mode := range []string{"planned", "scan"} {
				o := opts
				if mode == "scan" {
					o = append(slices.Clone(opts), WithoutIndex())
				}
				var got []string
				for d, err := range c.Find(ctx, k, o...) {
					if err != nil {
						t.Fatalf("round %d %s (%s): %v", i, mode, plan, err)
					}
					got = append(got, d.ID)
					if proj != nil {
						if w := projected(docs[d.ID], proj); !sameValue(d.Fields, w) {
							t.Fatalf("round %d: %s projected %s; want %s", i, d.ID, jsonText(d.Fields), jsonText(w))
						}
					} else if !sameValue(d.Fields, docs[d.ID]) {
						t.Fatalf("round %d: %s read %s; want %s", i, d.ID, jsonText(d.Fields), jsonText(docs[d.ID]))
					}
				}
				sorted := slices.Sorted(slices.Values(got))
				if len(slices.Compact(slices.Clone(sorted))) != len(got) {
					t.Fatalf("round %d %s: %q returned twice", i, mode, got)
				}
				if limit > 0 {
					if len(got) != min(limit, len(want)) || !isSubset(sorted, want) {
						t.Fatalf("round %d %s: limit %d gave %q of %q", i, mode, limit, got, want)
					}
					continue
				}
				if !slices.Equal(sorted, want) {
					pk, _ := c.compile(k)
					t.Fatalf("round %d %s: %s\nplan: %s\ngot  %q\nwant %q", i, mode, pk, plan, sorted, want)
				}
			}
		}
		t.Logf("%d conditions, %d served by an index", rounds, indexed)
	})
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func TestQueryRefuses(t *testing.T) {
	b := fakeBackend(t)
	c := b.collection(t, WithIndex("n", ".n"))
	ctx := testContext(t, time.Minute)
	for _, k := range []Cond{Eq(".a", map[string]any{}), Eq(".a", []any{1}), Between(".a", 1, "x"), Lt("..", 1),
		Gt(".a", math.NaN())} {
		for _, err := range c.Find(ctx, k) {
			if err == nil || !(errors.Is(err, hberr.ErrInvalidQuery) || errors.Is(err, hberr.ErrInvalidPath) || errors.Is(err, hberr.ErrInvalidDocument)) {
				t.Errorf("Find(%+v) = %v; want a refusal", k, err)
			}
		}
	}
	for _, err := range c.Find(ctx, Eq(".s", 1), UseIndex("n")) {
		if !errors.Is(err, hberr.ErrInvalidQuery) {
			t.Errorf("UseIndex of an index that cannot serve: %v", err)
		}
	}
	for _, err := range c.Find(ctx, Eq(".s", 1), UseIndex("nope")) {
		if !errors.Is(err, hberr.ErrIndexNotFound) {
			t.Errorf("UseIndex of no index: %v", err)
		}
	}
}
