package main

import (
	"bytes"
	"slices"
	"testing"
)

func TestAppendKey(t *testing.T) {
	for _, tc := range []struct {
		n    uint64
		size int
		want string
	}{
		{0, 26, "00000000000000000000000000"},
		{42, 26, "00000000000000000000000042"},
		{99999, 5, "99999"},
		{7, 1, "7"},
		{1048575, 26, "00000000000000000001048575"},
	} {
		got := appendKey([]byte("x"), tc.n, tc.size)
		if string(got) != "x"+tc.want {
			t.Errorf("appendKey(%d, %d) = %q, want %q", tc.n, tc.size, got[1:], tc.want)
		}
	}
}

func TestAppendKeySortsNumerically(t *testing.T) {
	prev := appendKey(nil, 0, 8)
	for n := uint64(1); n < 20000; n += 7 {
		k := appendKey(nil, n, 8)
		if bytes.Compare(prev, k) >= 0 {
			t.Fatalf("key of %d (%q) does not sort after the previous one (%q)", n, k, prev)
		}
		prev = k
	}
}

func TestAppendKeyDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, defaultKeySize)
	allocs := testing.AllocsPerRun(100, func() { buf = appendKey(buf[:0], 123456789, defaultKeySize) })
	if allocs != 0 {
		t.Errorf("appendKey allocates %.1f times per call", allocs)
	}
}

func TestMinKeySize(t *testing.T) {
	for rows, want := range map[int64]int{1: 1, 10: 1, 11: 2, 100: 2, 101: 3, 1e12: 12} {
		if got := minKeySize(rows); got != want {
			t.Errorf("minKeySize(%d) = %d, want %d", rows, got, want)
		}
	}
}

func TestSplitKeys(t *testing.T) {
	keys, err := splitKeys(1000, 4, 6)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"000250", "000500", "000750"}
	var got []string
	for _, k := range keys {
		got = append(got, string(k))
	}
	if !slices.Equal(got, want) {
		t.Errorf("splitKeys(1000, 4, 6) = %q, want %q", got, want)
	}
	if keys, err := splitKeys(10, 1, 2); err != nil || len(keys) != 0 {
		t.Errorf("one region: %q, %v; want no split keys", keys, err)
	}
	// Many regions over few rows: keys still strictly increasing (no duplicate split key).
	keys, err = splitKeys(100, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(keys); i++ {
		if bytes.Compare(keys[i-1], keys[i]) >= 0 {
			t.Fatalf("split keys not increasing at %d: %q, %q", i, keys[i-1], keys[i])
		}
	}
	if _, err := splitKeys(3, 4, 1); err == nil {
		t.Error("4 regions over 3 rows: no error")
	}
	if _, err := splitKeys(3, 0, 1); err == nil {
		t.Error("0 regions: no error")
	}
}
