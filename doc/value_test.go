package doc

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// extremeNumbers are numbers at the edges of int64 and float64.
var extremeNumbers = []any{
	int64(0), int64(1), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), int64(math.MaxInt64 - 1),
	int64(math.MinInt64 + 1), int64(1<<53 + 1), int64(-(1<<53 + 1)), int64(1 << 62), int64(1<<62 + 511),
	int64(1<<62 + 512), int64(1<<63 - 512), int64(1<<63 - 513),
	0.0, math.Copysign(0, -1), 0.1, -0.1, 1.0, -1.0, math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1e21, 1e-7, float64(1 << 63),
	-float64(1 << 63), float64(1<<53) + 2, 9007199254740993.0, 123456789.125,
}

// exact is a number as an exact rational, for comparisons across int64 and float64.
func exact(v any) *big.Rat {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x)
	case float64:
		r, _ := new(big.Float).SetFloat64(x).Rat(nil)
		return r
	}
	panic("not a number")
}

func randomNumber(r *rand.Rand) any {
	switch r.IntN(6) {
	case 0:
		return extremeNumbers[r.IntN(len(extremeNumbers))]
	case 1:
		return int64(r.Uint64())
	case 2:
		return int64(r.IntN(2000) - 1000)
	case 3:
		return math.Float64frombits(r.Uint64()) // may be NaN or Inf: skipped by the caller
	case 4:
		return float64(r.IntN(2000)-1000) / 8
	default:
		// an integer-valued float near an int64 of the same value
		i := int64(r.Uint64()) >> r.IntN(63)
		return float64(i)
	}
}

func finite(v any) bool {
	f, ok := v.(float64)
	return !ok || !math.IsNaN(f) && !math.IsInf(f, 0)
}

// TestNumberEncoding: every number decodes to itself (bits and type), and the encodings order
// as the numbers do, int64 and float64 mixed, exactly (5 and 5.0 tie in the key, and their
// cell values differ only in the kind byte).
func TestNumberEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var nums []any
	nums = append(nums, extremeNumbers...)
	for len(nums) < 5000 {
		if n := randomNumber(r); finite(n) {
			nums = append(nums, n)
		}
	}
	for _, n := range nums {
		cell := appendScalar(nil, n)
		got, err := decodeScalar(".x", cell)
		if err != nil || !sameValue(got, n) {
			t.Fatalf("%T %v: decoded %T %v, %v", n, n, got, got, err)
		}
		if key := scalarKey(nil, n); !bytes.Equal(key, cell[:numberKeyLen]) {
			t.Fatalf("%v: key %x is not the cell's prefix %x", n, key, cell)
		}
	}
	for range 20000 {
		a, b := nums[r.IntN(len(nums))], nums[r.IntN(len(nums))]
		want := exact(a).Cmp(exact(b))
		got := bytes.Compare(scalarKey(nil, a), scalarKey(nil, b))
		if got != want {
			t.Fatalf("%T %v vs %T %v: keys compare %d; want %d", a, a, b, b, got, want)
		}
	}
}

// TestStringKeys: string keys order as the strings (bytes), are self-delimiting, and their
// prefix is the key of every string starting with it.
func TestStringKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte{0, 1, 'a', 'b', 0xff, 0xfe}
	rnd := func() string {
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		a, b := rnd(), rnd()
		ka, kb := scalarKey(nil, a), scalarKey(nil, b)
		if got, want := bytes.Compare(ka, kb), bytes.Compare([]byte(a), []byte(b)); got != want {
			t.Fatalf("%q vs %q: keys compare %d; want %d", a, b, got, want)
		}
		n, err := scalarKeyLen(append(ka, "id"...))
		if err != nil || n != len(ka) {
			t.Fatalf("%q: key length %d, %v; want %d", a, n, err, len(ka))
		}
		if len(a) <= len(b) && b[:len(a)] == a {
			if !bytes.HasPrefix(kb, ka[:len(ka)-2]) {
				t.Fatalf("%q is a prefix of %q but its key is not", a, b)
			}
		}
	}
	if k := keyString(scalarKey(nil, "a\x00b")); k != `"a\u0000b"` {
		t.Fatalf("keyString = %s", k)
	}
	for _, n := range []any{int64(5), 5.5, int64(math.MaxInt64), 1e300} {
		want := jsonText(n)
		if n == int64(5) {
			want = "5"
		}
		if k := keyString(scalarKey(nil, n)); k != want {
			t.Errorf("keyString(%v) = %s; want %s", n, k, want)
		}
	}
}

// TestTypeOrder: null < false < true < numbers < strings, in keys and in cell values.
func TestTypeOrder(t *testing.T) {
	ordered := []any{nil, false, true, -math.MaxFloat64, int64(math.MinInt64), int64(0), math.MaxFloat64, "", "\x00", "a"}
	for i := 1; i < len(ordered); i++ {
		a, b := ordered[i-1], ordered[i]
		if bytes.Compare(scalarKey(nil, a), scalarKey(nil, b)) >= 0 {
			t.Errorf("key of %v not below key of %v", a, b)
		}
		if bytes.Compare(appendScalar(nil, a), appendScalar(nil, b)) >= 0 {
			t.Errorf("cell of %v not below cell of %v", a, b)
		}
	}
}

func TestDecodeScalarRefuses(t *testing.T) {
	for _, v := range [][]byte{nil, {0}, {tagNull, 0}, {tagTrue, 1}, {tagNumber, 1, 2}, {tagString, 0xff},
		append(appendNumberKey(nil, 1.5, 0), 9), append(appendNumberKey(nil, 1.5, 3), kindFloat),
		append(appendNumberKey(nil, math.Inf(1), 0), kindFloat), {0x42}} {
		if got, err := decodeScalar(".x", v); err == nil {
			t.Errorf("decodeScalar(%x) = %v; want an error", v, got)
		}
	}
}
