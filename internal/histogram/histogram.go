package histogram

import "math/bits"

// maxDigits bounds the precision: 3 digits (512 sub-buckets per power of two) is the finest
// the client and its benchmarks use, and a fourth would take about 16 times the memory.
const maxDigits = 3

// Histogram counts int64 values from 0 to a highest value. It is not safe for concurrent use:
// its users record under a lock of their own. Make one with New.
type Histogram struct {
	counts   []int64
	subBits  uint // log2 of H, the sub-buckets per power of two
	highest  int64
	count    int64
	min, max int64
	sumLo    uint64 // the sum of the values recorded, in 128 bits: it cannot overflow
	sumHi    uint64
}

// New returns an empty histogram of the values from 0 to highest with digits significant
// digits. A highest below 1 is taken as 1, and digits is clamped to 1..3.
func New(highest int64, digits int) *Histogram {
	highest = max(highest, 1)
	digits = min(max(digits, 1), maxDigits)
	half := int64(5) // 10^digits / 2: H is the smallest power of two at least this
	for range digits - 1 {
		half *= 10
	}
	h := &Histogram{subBits: uint(bits.Len64(uint64(half - 1))), highest: highest}
	h.counts = make([]int64, h.index(highest)+1)
	h.Reset()
	return h
}

// index is the bucket of v, 0 <= v <= highest.
func (h *Histogram) index(v int64) int {
	b := max(bits.Len64(uint64(v))-int(h.subBits)-1, 0)
	return b<<h.subBits + int(v>>b)
}

// value is the middle of bucket i: at most half a bucket from any value counted in it.
func (h *Histogram) value(i int) int64 {
	if i < 2<<h.subBits {
		return int64(i)
	}
	b := i>>h.subBits - 1
	return int64(i-b<<h.subBits)<<b + 1<<(b-1)
}

// Record counts v, clamped to 0..highest.
func (h *Histogram) Record(v int64) {
	v = min(max(v, 0), h.highest)
	h.counts[h.index(v)]++
	h.count++
	h.min = min(h.min, v)
	h.max = max(h.max, v)
	var carry uint64
	h.sumLo, carry = bits.Add64(h.sumLo, uint64(v), 0)
	h.sumHi += carry
}

// Count is the number of values recorded.
func (h *Histogram) Count() int64 { return h.count }

// Min is the least value recorded (after clamping), or 0 when there is none.
func (h *Histogram) Min() int64 {
	if h.count == 0 {
		return 0
	}
	return h.min
}

// Max is the greatest value recorded (after clamping), or 0 when there is none.
func (h *Histogram) Max() int64 { return h.max }

// Mean is the mean of the values recorded (after clamping), or 0 when there is none.
func (h *Histogram) Mean() float64 {
	if h.count == 0 {
		return 0
	}
	return (float64(h.sumHi)*(1<<64) + float64(h.sumLo)) / float64(h.count)
}

// Percentile returns the value below or at which p percent of the values recorded are, within
// the histogram's precision (exact at 0 and 100), or 0 when no value was recorded: the order
// statistic of rank p·Count/100 rounded to the nearest, at least 1, as HDR histograms rank
// (the 95th percentile of 96 values is the 91st, not the 92nd). p is clamped to 0..100.
func (h *Histogram) Percentile(p float64) int64 {
	if h.count == 0 {
		return 0
	}
	if !(p > 0) { // NaN too
		return h.min
	}
	if p >= 100 {
		return h.max
	}
	rank := min(max(int64(p*float64(h.count)/100+0.5), 1), h.count)
	i, seen := h.index(h.min), int64(0)
	// Whole groups of 8 counters are skipped while they do not reach the rank: their sum has
	// no dependency from one counter to the next, which a counter-by-counter walk has.
	for ; i+8 <= len(h.counts); i += 8 {
		g := h.counts[i : i+8 : i+8]
		s := g[0] + g[1] + g[2] + g[3] + g[4] + g[5] + g[6] + g[7]
		if seen+s >= rank {
			break
		}
		seen += s
	}
	for ; i < len(h.counts); i++ {
		if seen += h.counts[i]; seen >= rank {
			return min(max(h.value(i), h.min), h.max)
		}
	}
	return h.max // not reached: the counts add up to count
}

// CountAbove is the number of values recorded in the buckets above v's (v clamped to
// 0..highest): every one of them is greater than v, and only values within the precision of
// v are counted in neither.
func (h *Histogram) CountAbove(v int64) int64 {
	var n int64
	for _, c := range h.counts[h.index(min(max(v, 0), h.highest))+1:] {
		n += c
	}
	return n
}

// Reset empties the histogram, keeping its memory.
func (h *Histogram) Reset() {
	clear(h.counts)
	h.count, h.min, h.max, h.sumLo, h.sumHi = 0, h.highest, 0, 0, 0
}
