package cputime

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Process returns the CPU time process pid has used so far, summed over its live threads from
// /proc/<pid>/task/*/schedstat (nanoseconds on a CPU; tick-based /proc/<pid>/stat would be too
// coarse for the few hundred milliseconds a benchmark round lasts). Threads that have exited
// no longer count, so only a difference over a span in which the process keeps its threads
// (the RPC handlers and event loops of a running JVM) is meaningful.
func Process(pid int) (time.Duration, error) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("cputime: CPU time of process %d: %w", pid, err)
	}
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if err != nil {
			continue // the thread exited between the listing and the read
		}
		first, _, _ := strings.Cut(string(b), " ")
		ns, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("cputime: CPU time of process %d: thread %s: %q: %w", pid, t.Name(), b, err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}
