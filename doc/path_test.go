package doc

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

func TestParsePath(t *testing.T) {
	cases := []struct{ in, want string }{
		{".a", ".a"},
		{"a", ".a"},
		{"a.b[0].c", ".a.b[0].c"},
		{`.["a.b"]`, `.["a.b"]`},
		{`.["x"]`, ".x"},
		{`["x"][2]`, ".x[2]"},
		{`.[""]`, `.[""]`},
		{".名前.città", ".名前.città"},
		{`.["tab\there"]`, `.["tab\u0009here"]`},
		{`.["\u00e9"]`, ".é"},
		{`.["\ud83d\ude00"]`, ".😀"},
		{`.["q\"uote"]`, `.["q\"uote"]`},
		{`.["back\\slash"]`, `.["back\\slash"]`},
		{`.["a]b"]`, `.["a]b"]`},
		{`.["a[b"]`, `.["a[b"]`},
		{`.["\/"]`, "./"},
		{".a b", ".a b"},
		{".0", ".0"},
		{".x[10][0]", ".x[10][0]"},
		{".\uFFFD", ".\uFFFD"},
		{`.["` + "\x7f" + `"]`, `.["\u007f"]`},
	}
	for _, c := range cases {
		got, err := ParsePath(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParsePath(%q) = %q, %v; want %q", c.in, got, err, c.want)
			continue
		}
		if again, err := ParsePath(got); err != nil || again != got {
			t.Errorf("ParsePath(%q) (canonical) = %q, %v; want it unchanged", got, again, err)
		}
		if _, err := parseQualifier(got); err != nil {
			t.Errorf("parseQualifier(%q): %v", got, err)
		}
	}
}

func TestParsePathRefuses(t *testing.T) {
	for _, in := range []string{"", ".", "..a", ".a.", "a..b", "[", "[x]", "[01]", "[-1]", "[1", ".a[", `.["a"`,
		`.["a"x]`, `.["\q"]`, `.["\ud800"]`, ".a]", `.a"b`, `.a\b`, "\xff", `.["` + "\xff" + `"]`,
		".[99999999999]", ".a\x01"} {
		_, err := ParsePath(in)
		if !errors.Is(err, hberr.ErrInvalidPath) {
			t.Errorf("ParsePath(%q) = %v; want ErrInvalidPath", in, err)
		}
	}
	// Spellings a user may write but a stored qualifier may not: one canonical form each.
	for _, q := range []string{`.["x"]`, `["x.y"]`, ".[0]", "a", `.["\t"]`, `.["\u0041"]`, `.["\/"]`} {
		if _, err := parseQualifier(q); err == nil {
			t.Errorf("parseQualifier(%q) accepted a non-canonical qualifier", q)
		}
	}
}

// nastyKeys are keys that test the quoting.
var nastyKeys = []string{"a", "b", "a.b", "", "[", "]", "[0]", `"`, `\`, "\x00", "\n", "é", "名前", "😀",
	" ", "a b", "0", "#v", ".", "..", "\u2028", "\x7f", "ab", "a[", "\uFFFD"}

func randomSegments(r *rand.Rand, n int) []segment {
	segs := make([]segment, n)
	for i := range segs {
		if i > 0 && r.IntN(3) == 0 {
			segs[i] = segment{index: r.IntN(12)}
		} else {
			segs[i] = segment{key: nastyKeys[r.IntN(len(nastyKeys))], index: -1}
		}
	}
	return segs
}

// TestPathRoundTrip: a path written canonically parses back to its segments, as a user's path
// and as a qualifier; and the subtree prefixes of a path are exactly the paths it is a prefix
// of, segment-wise.
func TestPathRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		segs := randomSegments(r, 1+r.IntN(5))
		q := formatPath(segs)
		for name, parse := range map[string]func(string) ([]segment, error){"parsePath": parsePath, "parseQualifier": parseQualifier} {
			got, err := parse(q)
			if err != nil || !slices.Equal(got, segs) {
				t.Fatalf("%s(%q) = %v, %v; want %v", name, q, got, err, segs)
			}
		}
		parent, last, err := lastSegment(q, nil)
		if err != nil || last != segs[len(segs)-1] || q[:parent] != formatPath(segs[:len(segs)-1]) {
			t.Fatalf("lastSegment(%q) = %d, %v, %v", q, parent, last, err)
		}
		other := randomSegments(r, 1+r.IntN(5))
		if r.IntN(2) == 0 { // often a descendant
			other = append(slices.Clone(segs), other...)
		}
		oq := formatPath(other)
		dot, bracket := subtreePrefixes(q)
		inSubtree := oq == q || strings.HasPrefix(oq, dot) || strings.HasPrefix(oq, bracket)
		isPrefix := len(other) >= len(segs) && slices.Equal(other[:len(segs)], segs)
		if inSubtree != isPrefix {
			t.Fatalf("%q under %q: by qualifier %v, by segments %v", oq, q, inSubtree, isPrefix)
		}
	}
}

func TestPathOf(t *testing.T) {
	if got := PathOf("a.b", 0, "c"); got != `.["a.b"][0].c` {
		t.Fatalf("PathOf = %q", got)
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{".a.b[0]", `.["a.b"]`, `["\u0000"]`, "a", ".名前"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, err := parsePath(s)
		if err != nil {
			if !errors.Is(err, hberr.ErrInvalidPath) {
				t.Fatalf("parsePath(%q): %v, not ErrInvalidPath", s, err)
			}
			return
		}
		q := formatPath(segs)
		again, err := parseQualifier(q)
		if err != nil || !slices.Equal(again, segs) {
			t.Fatalf("%q: canonical %q parses to %v, %v; want %v", s, q, again, err, segs)
		}
	})
}
