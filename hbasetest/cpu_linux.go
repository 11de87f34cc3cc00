package hbasetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CPUTime is the CPU time the cluster's JVM has used so far, summed over its live threads from
// /proc/<pid>/task/*/schedstat (nanoseconds on a CPU; tick-based /proc/<pid>/stat would be too
// coarse for the few hundred milliseconds a benchmark round lasts). Threads that have exited
// no longer count, so only a difference over a span in which the JVM keeps its threads (the
// RPC handlers and event loops of a running cluster) is meaningful.
func (c *Cluster) CPUTime() (time.Duration, error) {
	dir := fmt.Sprintf("/proc/%d/task", c.Pid())
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("hbasetest: JVM CPU time: %w", err)
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
			return 0, fmt.Errorf("hbasetest: JVM CPU time: %s: %q: %w", t.Name(), b, err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}
