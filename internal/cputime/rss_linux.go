package cputime

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// RSS returns the resident set size of process pid in bytes, from /proc/<pid>/statm (pages
// resident, times the page size).
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0, fmt.Errorf("cputime: RSS of process %d: %w", pid, err)
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("cputime: RSS of process %d: statm %q", pid, b)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("cputime: RSS of process %d: statm %q: %w", pid, b, err)
	}
	return pages * int64(os.Getpagesize()), nil
}
