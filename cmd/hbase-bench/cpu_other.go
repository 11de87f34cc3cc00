//go:build !unix

package main

import (
	"errors"
	"time"
)

// selfCPU returns the CPU time this process has used so far. It is only implemented on unix;
// elsewhere a run reports no CPU time per operation.
func selfCPU() (time.Duration, error) {
	return 0, errors.New("the CPU time of this process is only measured on unix systems")
}
