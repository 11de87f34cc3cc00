package cputime

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// spinUntil keeps one CPU busy until read reports want more CPU time than at the start, or
// until the wall-clock limit: on a loaded machine the spinning goroutine may get only a small
// share of a CPU, so the test waits for CPU time, not for wall time.
func spinUntil(t *testing.T, read func() (time.Duration, error), want, limit time.Duration) {
	t.Helper()
	before, err := read()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(limit)
	for {
		for end := time.Now().Add(5 * time.Millisecond); time.Now().Before(end); {
		}
		now, err := read()
		if err != nil {
			t.Fatal(err)
		}
		if now-before >= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("CPU time grew by %v in %v of spinning; want %v", now-before, limit, want)
		}
	}
}

func TestSelfCountsBusyTime(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		if _, err := Self(); err == nil {
			t.Fatal("Self returned no error where it is not implemented")
		}
		return
	}
	spinUntil(t, Self, 50*time.Millisecond, 20*time.Second)
}

func TestProcessReadsThisProcess(t *testing.T) {
	self := func() (time.Duration, error) { return Process(os.Getpid()) }
	if runtime.GOOS != "linux" {
		if _, err := self(); err == nil {
			t.Fatal("Process returned no error where it is not implemented")
		}
		return
	}
	spinUntil(t, self, 50*time.Millisecond, 20*time.Second)
	if _, err := Process(-1); err == nil {
		t.Error("Process(-1) returned no error")
	}
}
