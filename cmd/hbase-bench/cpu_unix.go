//go:build unix

package main

import (
	"fmt"
	"syscall"
	"time"
)

// selfCPU returns the user plus system CPU time this process has used so far; a -local
// cluster's JVM is another process and is not included. The library's internal/cputime has the
// same function, but this module is released on its own and must not import the library's
// internal packages, whose API no release promises.
func selfCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
