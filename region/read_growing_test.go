package region

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// A peer that announces a frame near the limit and sends a few bytes must not make the client
// allocate what it announced.
func TestLyingLengthCostsOnlyWhatArrives(t *testing.T) {
	const announced = 200 << 20
	got, err := readGrowing(bytes.NewReader([]byte("abc")), nil, announced)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v", err)
	}
	if cap(got) > 2*growStep {
		t.Fatalf("allocated %d bytes for 3 that arrived", cap(got))
	}
}

func TestReadGrowingReadsExactly(t *testing.T) {
	for _, n := range []int{0, 1, growStep, growStep + 1, 5*growStep + 7} {
		src := make([]byte, n+10)
		for i := range src {
			src[i] = byte(i * 7)
		}
		r := bytes.NewReader(src)
		got, err := readGrowing(r, make([]byte, 0, 100), n)
		if err != nil || !bytes.Equal(got, src[:n]) {
			t.Fatalf("n=%d: err=%v, equal=%v", n, err, bytes.Equal(got, src[:n]))
		}
		if r.Len() != 10 {
			t.Fatalf("n=%d: read %d bytes past the frame", n, 10-r.Len())
		}
	}
}
