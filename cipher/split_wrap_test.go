package cipher

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// sealFrame completes a WrapOrdered frame for plain the way a connection's writer does.
func sealFrame(l *CryptoAES, frame []byte, seq uint32, plain []byte) {
	var mac [MACSize]byte
	for i, b := range l.Seal(mac[:0], seq, plain) {
		frame[len(plain)+i] ^= b
	}
}

// The split form must produce exactly Wrap's bytes: the Java peer cannot tell them apart.
func TestSplitWrapMatchesWrap(t *testing.T) {
	whole, _ := pair(t)
	split, _ := pair(t)
	for i, n := range []int{0, 1, 15, 16, 17, 128, 1000, 4096, 70000} {
		msg := bytes.Repeat([]byte{byte(i + 1)}, n)
		want, err := whole.Wrap(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		got, seq := split.WrapOrdered(nil, msg)
		if seq != uint32(i) {
			t.Fatalf("seq = %v; want %v", seq, uint32(i))
		}
		if bytes.Equal(got, want) {
			t.Fatalf("frame %d complete before Seal: got = %q; want anything else", i, got)
		}
		sealFrame(split, got, seq, msg)
		if !bytes.Equal(got, want) {
			t.Fatalf("frame %d (%d bytes): got = %q; want %q", i, n, got, want)
		}
	}
}

// Frames ordered by WrapOrdered and sealed by many goroutines in any order unwrap in order, and
// the two forms interleave on one stream.
func TestSplitWrapSealsConcurrently(t *testing.T) {
	client, server := pair(t)
	const n = 400
	frames := make([][]byte, n)
	msgs := make([][]byte, n)
	seqs := make([]uint32, n)
	for i := range n {
		msgs[i] = []byte(fmt.Sprintf("message %d %s", i, bytes.Repeat([]byte("x"), rand.IntN(3000))))
		if i%7 == 0 {
			frames[i], _ = client.Wrap(nil, msgs[i])
			seqs[i] = ^uint32(0)
			continue
		}
		frames[i], seqs[i] = client.WrapOrdered(nil, msgs[i])
	}
	var wg sync.WaitGroup
	for _, i := range rand.Perm(n) {
		if seqs[i] == ^uint32(0) {
			continue
		}
		wg.Go(func() { sealFrame(client, frames[i], seqs[i], msgs[i]) })
	}
	wg.Wait()
	for i := range n {
		got, err := server.Unwrap(nil, frames[i])
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(got, msgs[i]) {
			t.Fatalf("got = %q; want %q", got, msgs[i])
		}
	}
}

// A frame whose MAC field was never sealed is refused by the peer, so a writer bug that sent one
// early could not go unnoticed.
func TestUnsealedFrameIsRejected(t *testing.T) {
	client, server := pair(t)
	frame, _ := client.WrapOrdered(nil, []byte("not sealed"))
	_, err := server.Unwrap(nil, frame)
	if !errors.Is(err, ErrMAC) {
		t.Fatalf("error %v; want %v", err, ErrMAC)
	}
}

func TestSplitWrapDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled MAC states on purpose; run without -race")
	}
	client, server := pair(t)
	msg := make([]byte, 1024)
	frame := make([]byte, 0, 2048)
	plain := make([]byte, 0, 2048)
	var seq uint32
	client.Seal(nil, 0, msg) // fill the MAC pool
	allocs := testing.AllocsPerRun(200, func() {
		frame, seq = client.WrapOrdered(frame[:0], msg)
		sealFrame(client, frame, seq, msg)
		var err error
		if plain, err = server.Unwrap(plain[:0], frame); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("allocs = %v; want it zero", allocs)
	}
}
