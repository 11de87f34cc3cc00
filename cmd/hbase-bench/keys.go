package main

import (
	"fmt"
	"strconv"
)

// defaultKeySize is the row key length of HBase's PerformanceEvaluation (and of the seeds'
// benchmark): row numbers as zero-padded decimal, so that keys sort in numeric order and the
// two tools write comparable tables.
const defaultKeySize = 26

// minKeySize is how many decimal digits row number rows-1 needs.
func minKeySize(rows int64) int {
	if rows <= 1 {
		return 1
	}
	return len(strconv.FormatInt(rows-1, 10))
}

// appendKey appends row number n as a zero-padded decimal of exactly size bytes.
// It does not allocate when dst has room; the caller checked that n fits in size digits.
func appendKey(dst []byte, n uint64, size int) []byte {
	start := len(dst)
	for range size {
		dst = append(dst, '0')
	}
	for i := len(dst) - 1; i >= start && n > 0; i-- {
		dst[i] = byte('0' + n%10)
		n /= 10
	}
	return dst
}

// splitKeys returns the regions-1 keys that cut rows [0, rows) into regions ranges of
// (nearly) equal size, for creating a pre-split table.
func splitKeys(rows int64, regions, keySize int) ([][]byte, error) {
	if regions < 1 {
		return nil, fmt.Errorf("regions must be at least 1, got %d", regions)
	}
	if int64(regions) > rows {
		return nil, fmt.Errorf("cannot split %d rows into %d regions", rows, regions)
	}
	keys := make([][]byte, 0, regions-1)
	for i := 1; i < regions; i++ {
		n := uint64(int64(i) * rows / int64(regions))
		keys = append(keys, appendKey(nil, n, keySize))
	}
	return keys, nil
}
