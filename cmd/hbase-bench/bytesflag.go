package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parseBytes reads a size: bytes, or a number with KiB, MiB or GiB (KB, MB and GB meaning the
// same, as HBase's write buffer is given in powers of two).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix []string
		m      int64
	}{{[]string{"GiB", "GB", "G"}, 1 << 30}, {[]string{"MiB", "MB", "M"}, 1 << 20}, {[]string{"KiB", "KB", "K"}, 1 << 10}, {[]string{"B"}, 1}} {
		found := false
		for _, suf := range u.suffix {
			if rest, ok := strings.CutSuffix(t, suf); ok {
				t, mult, found = strings.TrimSpace(rest), u.m, true
				break
			}
		}
		if found {
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("want a positive size such as 2097152, 512KiB or 2MiB, got %q", s)
	}
	return n * mult, nil
}
