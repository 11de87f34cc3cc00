package engine

import "testing"

// The read point a scan got in a region holds for that region's range only: the region
// itself wherever it moves, its daughters, not a region reaching past it (a merge), not
// another region.
func TestReadPointHolds(t *testing.T) {
	region := func(start, end string) *regionInfo { return &regionInfo{start: []byte(start), end: []byte(end)} }
	for _, tc := range []struct {
		name           string
		rpStart, rpEnd string
		r              *regionInfo
		want           bool
	}{
		{"same range", "b", "m", region("b", "m"), true},
		{"first daughter", "b", "m", region("b", "f"), true},
		{"second daughter", "b", "m", region("f", "m"), true},
		{"daughter of the last region", "b", "", region("f", ""), true},
		{"daughters of the only region", "", "", region("", "f"), true},
		{"merged with the next", "b", "m", region("b", "z"), false},
		{"merged with the previous", "b", "m", region("a", "m"), false},
		{"merged into the last", "b", "m", region("b", ""), false},
		{"the next region", "b", "m", region("m", "z"), false},
		{"the previous region", "b", "m", region("a", "b"), false},
		{"low bytes", "\x00", "\x00,", region("\x00\x00", "\x00,"), true},
	} {
		s := &Scanner{readPoint: 42, rpStart: []byte(tc.rpStart), rpEnd: []byte(tc.rpEnd)}
		if got := s.readPointHolds(tc.r); got != tc.want {
			t.Errorf("%s: readPointHolds([%q, %q)) from [%q, %q) = %v, want %v",
				tc.name, tc.r.start, tc.r.end, tc.rpStart, tc.rpEnd, got, tc.want)
		}
	}
	if (&Scanner{}).readPointHolds(region("", "")) {
		t.Error("a scan without a read point holds one")
	}
}
