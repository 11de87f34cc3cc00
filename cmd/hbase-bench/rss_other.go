//go:build !linux

package main

import "errors"

// peakRSS is measured on Linux only (maxrss is in other units elsewhere).
func peakRSS() (int64, error) { return 0, errors.New("peak RSS is measured on linux only") }
