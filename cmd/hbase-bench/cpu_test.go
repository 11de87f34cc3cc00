package main

import (
	"runtime"
	"testing"
	"time"
)

// TestSelfCPUCountsBusyTime spins until selfCPU reports 50 ms more than at the start: on a
// loaded machine the spinning goroutine may get only a share of a CPU, so it waits for CPU time
// (at most 20 s of wall time), not for wall time.
func TestSelfCPUCountsBusyTime(t *testing.T) {
	before, err := selfCPU()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		if err == nil {
			t.Fatal("selfCPU returned no error where it is not implemented")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		for end := time.Now().Add(5 * time.Millisecond); time.Now().Before(end); {
		}
		now, err := selfCPU()
		if err != nil {
			t.Fatal(err)
		}
		if now-before >= 50*time.Millisecond {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("CPU time grew by %v in 20 s of spinning; want 50ms", now-before)
		}
	}
}
