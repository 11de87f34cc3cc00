package metarow

import (
	"bytes"
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	// Each row sorts strictly before the next one in hbase:meta.
	ordered := []string{
		"t",                          // t's table state row
		"t,,1795651191980.aaaa.",     // t's first region: empty start key
		"t,\x00,1795651191980.bbbb.", // 0x00 is below ',' as a byte, not here
		"t,\x00\x01\xff,1795651191980.cccc.",
		"t,\x10\xff\x00,1795651191980.dddd.",
		"t,+,1795651191980.eeee.",
		"t,,,1795651191980.ffff.",  // start key ","
		"t,,,,1795651191980.ffff.", // start key ",,"
		"t,-,1795651191980.gggg.",
		"t,a,1.x.", // equal start keys: region ids by their bytes
		"t,a,1795651191980.hhhh.",
		"t,a,2.x.",
		"t,a\x00,1.x.",
		"t,a,b,1.x.", // start key "a,b"
		"t,\xff,1795651191980.iiii.",
		"t-", // the next table's state row
		"t-,,1.x.",
		"t.,,1.x.",
		"t0,,1.x.",
		"t_,,1.x.",
	}
	for i := range ordered {
		for j := range ordered {
			a, b := []byte(ordered[i]), []byte(ordered[j])
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
	// The order that hung the admin calls: byte order puts "t,\x00,..." first.
	if bytes.Compare([]byte(ordered[1]), []byte(ordered[2])) < 0 {
		t.Fatal("the test's premise is wrong: byte order agrees with hbase:meta's here")
	}
	shuffled := slices.Clone(ordered)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, func(a, b string) int { return Compare([]byte(a), []byte(b)) })
	if !slices.Equal(shuffled, ordered) {
		t.Errorf("sorted:\n%q\nwant:\n%q", shuffled, ordered)
	}
}

// TestCompareSingleComma checks HBase's handling of a row with one comma (not a region
// name, but a scan boundary may be one): the rest is the start key, then the whole row.
func TestCompareSingleComma(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"t,a", "t,a", 0},
		{"t,a", "t,b", -1},
		{"t,a", "t,a,1", 1}, // start keys tie ("a"); then "t,a" against "1"
		{"t,", "t,,1", 1},   // start keys tie (""); then "t," against "1"
		{"t", "t,", -1},
	}
	for _, c := range cases {
		if got := Compare([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Compare([]byte(c.b), []byte(c.a)); got != -c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

func FuzzCompare(f *testing.F) {
	f.Add([]byte("t,,1.a."), []byte("t,\x00,1.b."), []byte("t,,,1."))
	f.Add([]byte("t"), []byte("t,"), []byte(","))
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		ab, ba := Compare(a, b), Compare(b, a)
		if ab != -ba {
			t.Fatalf("not antisymmetric: Compare(%q, %q) = %d, reversed %d", a, b, ab, ba)
		}
		if Compare(a, a) != 0 {
			t.Fatalf("Compare(%q, itself) != 0", a)
		}
		if ab <= 0 && Compare(b, c) <= 0 && Compare(a, c) > 0 {
			t.Fatalf("not transitive: %q <= %q <= %q but %q > %q", a, b, c, a, c)
		}
	})
}
