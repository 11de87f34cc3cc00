//go:build !linux

package cputime

import (
	"errors"
	"time"
)

// Process returns the CPU time process pid has used so far. It is only implemented on Linux.
func Process(int) (time.Duration, error) {
	return 0, errors.New("cputime: the CPU time of another process is only measured on linux")
}
