package hbasetest

import "testing"

func TestPEKey(t *testing.T) {
	if got := string(PEKey([]byte("x"), 42)); got != "x00000000000000000000000042" {
		t.Errorf("PEKey(x, 42) = %q", got)
	}
	if got := string(PEKey(nil, 99999)); len(got) != PERowLength || got[PERowLength-5:] != "99999" {
		t.Errorf("PEKey(nil, 99999) = %q", got)
	}
}

// The launcher's Workload.mix is splitmix64: its first output from state 0 is a published
// constant, which both sides must produce.
func TestWorkRowIsSplitMix64(t *testing.T) {
	if got := mix64(0); got != 0xE220A8397B1DCDAF {
		t.Errorf("mix64(0) = %#x, want 0xe220a8397b1dcdaf", got)
	}
	seen := map[int64]bool{}
	for i := range 1000 {
		r := WorkRow(7, i, 100)
		if r < 0 || r >= 100 {
			t.Fatalf("WorkRow(7, %d, 100) = %d", i, r)
		}
		seen[r] = true
	}
	if len(seen) < 90 {
		t.Errorf("1000 draws hit %d of 100 rows", len(seen))
	}
}
