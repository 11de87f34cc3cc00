package histogram

import (
	"encoding/binary"
	"slices"
	"testing"
)

// FuzzRecord records arbitrary values into a histogram of arbitrary range and precision: no
// panic, a count equal to the values recorded, exact minimum and maximum, percentiles that
// never decrease with p, stay between the minimum and the maximum and are within the
// precision of the exact order statistics.
func FuzzRecord(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0}, int64(1000), 2)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80}, int64(1)<<62, 3)
	f.Add(make([]byte, 64), int64(0), -1)
	f.Fuzz(func(t *testing.T, data []byte, highest int64, digits int) {
		if digits >= 1 && digits <= 3 && highest > 1<<40 {
			highest = 1 << 40 // keeps the counters of the finest histograms small for the fuzzer
		}
		h := New(highest, digits)
		var values []int64
		for len(data) >= 8 {
			values = append(values, int64(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		for _, v := range values {
			h.Record(v)
		}
		if h.Count() != int64(len(values)) {
			t.Fatalf("Count() = %d; want %d", h.Count(), len(values))
		}
		if len(values) == 0 {
			return
		}
		d := min(max(digits, 1), maxDigits)
		checkAgainstExact(t, highest, d, values)
		prev := h.Percentile(0)
		for p := 0.5; p <= 100; p += 0.5 {
			got := h.Percentile(p)
			if got < prev || got < h.Min() || got > h.Max() {
				t.Fatalf("Percentile(%v) = %d after %d; Min %d Max %d", p, got, prev, h.Min(), h.Max())
			}
			prev = got
		}
		sorted := slices.Clone(values)
		slices.Sort(sorted)
		if above := h.CountAbove(sorted[len(sorted)/2]); above > int64(len(values)) || above < 0 {
			t.Fatalf("CountAbove(median) = %d of %d values", above, len(values))
		}
	})
}
