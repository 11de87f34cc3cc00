//go:build !linux

package cputime

import "errors"

// RSS returns the resident set size of process pid. It is only implemented on Linux.
func RSS(int) (int64, error) {
	return 0, errors.New("cputime: the RSS of a process is only measured on linux")
}
