package cputime

import (
	"os"
	"runtime"
	"testing"
)

func TestRSSGrowsWithTouchedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := RSS(os.Getpid()); err == nil {
			t.Fatal("RSS returned no error where it is not implemented")
		}
		return
	}
	before, err := RSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1 // resident only once touched
	}
	after, err := RSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(b)
	if before <= 0 || after-before < 48<<20 {
		t.Fatalf("RSS %d before and %d after touching 64 MiB", before, after)
	}
	if _, err := RSS(-1); err == nil {
		t.Fatal("RSS of pid -1: no error")
	}
}
