//go:build !linux

package hbasetest

import (
	"errors"
	"time"
)

// CPUTime is the CPU time the cluster's JVM has used so far. It is only implemented on Linux.
func (c *Cluster) CPUTime() (time.Duration, error) { return processCPUTime(c.Pid()) }

func processCPUTime(int) (time.Duration, error) {
	return 0, errors.New("hbasetest: process CPU time is only implemented on linux")
}
