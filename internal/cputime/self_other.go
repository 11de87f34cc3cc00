//go:build !unix

package cputime

import (
	"errors"
	"time"
)

// Self returns the CPU time this process has used so far. It is only implemented on unix.
func Self() (time.Duration, error) {
	return 0, errors.New("cputime: the CPU time of this process is only measured on unix systems")
}
