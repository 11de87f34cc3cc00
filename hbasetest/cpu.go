package hbasetest

import (
	"time"

	"github.com/go-hbase/hbase/internal/cputime"
)

// CPUTime is the CPU time the cluster's JVM has used so far, summed over its live threads
// (Linux only). Threads that have exited no longer count, so only a difference over a span in
// which the JVM keeps its threads (the RPC handlers and event loops of a running cluster) is
// meaningful.
func (c *Cluster) CPUTime() (time.Duration, error) { return cputime.Process(c.Pid()) }
