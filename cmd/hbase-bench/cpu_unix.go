//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the user plus system CPU time this process has used so far. The server
// (a JVM child under -local) is not included: RUSAGE_SELF counts this process only.
func processCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
