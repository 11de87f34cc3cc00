package main

import (
	"fmt"
	"syscall"
)

// peakRSS returns the most memory this process has held resident (getrusage's maxrss, in KiB
// on Linux); a -local cluster's JVM is another process and is not included.
func peakRSS() (int64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return ru.Maxrss << 10, nil
}
