package hrpc

import (
	"bytes"
	"math/big"
)

// KeyRangeSplits pre-splits the table into n regions (at least 3) between start and end, as
// the Java Admin's createTable(desc, startKey, endKey, numRegions) does: a first region
// below start, a last one from end, and n-2 regions of equal shares of the keys between them
// (HBase's Bytes.split: the keys read as numbers, the shorter padded with zero bytes, a zero
// byte added to both while the range has fewer keys than regions, and then the first and
// last split keys are start and end so padded), so the regions are the Java client's.
func KeyRangeSplits(start, end []byte, n int) CreateTableOption {
	return func(c *createTable) error {
		if n < 3 {
			return invalid("KeyRangeSplits: %d regions; need at least 3", n)
		}
		if bytes.Compare(start, end) >= 0 {
			return invalid("KeyRangeSplits: start key %q is not below end key %q", start, end)
		}
		if n == 3 {
			return SplitKeys(start, end)(c)
		}
		keys := splitRange(start, end, n-3)
		if len(keys) != n-1 {
			return invalid("KeyRangeSplits: cannot split [%q, %q) into %d regions", start, end, n)
		}
		return SplitKeys(keys...)(c)
	}
}

// splitRange returns a, num keys between a and b, and b: Bytes.split(a, b, num) of HBase.
// Both are padded to the longer length with zero bytes and read as unsigned numbers behind a
// 0x01 0x00 header; while b-a is below num+1 a zero byte is added to both, and the padded keys
// replace a and b as the first and last keys (as HBase's recursion does). The inner keys are
// a + i*((b-a)/(num+1)) without the header.
func splitRange(a, b []byte, num int) [][]byte {
	ap, bp := a, b
	for {
		l := max(len(ap), len(bp))
		ap = append(bytes.Clone(ap), make([]byte, l-len(ap))...)
		bp = append(bytes.Clone(bp), make([]byte, l-len(bp))...)
		if bytes.Compare(ap, bp) >= 0 {
			return nil
		}
		start := new(big.Int).SetBytes(append([]byte{1, 0}, ap...))
		stop := new(big.Int).SetBytes(append([]byte{1, 0}, bp...))
		diff := new(big.Int).Sub(stop, start)
		parts := big.NewInt(int64(num) + 1)
		if diff.Cmp(parts) < 0 {
			ap, bp = append(ap, 0), append(bp, 0)
			a, b = ap, bp
			continue
		}
		step := new(big.Int).Div(diff, parts)
		out := [][]byte{bytes.Clone(a)}
		for i := 1; i <= num; i++ {
			cur := new(big.Int).Add(start, new(big.Int).Mul(step, big.NewInt(int64(i))))
			k := cur.Bytes() // header 0x01 0x00 then the key, as long as the padded keys
			out = append(out, k[2:])
		}
		return append(out, bytes.Clone(b))
	}
}
