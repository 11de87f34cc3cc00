package cipher

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// javaVectors are frames produced by JCE AES/CTR/NoPadding and HmacMD5 following
// hbase-common's CryptoAES.wrap step by step (two cipher updates per frame, MAC keyed with the
// direction's AES key over be32(seq) || msg), so they pin the format byte for byte.
type javaVectors struct {
	InKey, InIV, OutKey, OutIV string
	ClientToServer             []javaFrame
	ServerToClient             []javaFrame
}

type javaFrame struct{ Plain, Wrapped string }

func loadVectors(t *testing.T) (Keys, javaVectors) {
	t.Helper()
	raw, err := os.ReadFile("testdata/java_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v javaVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return Keys{
		InKey: unhex(t, v.InKey), InIV: unhex(t, v.InIV),
		OutKey: unhex(t, v.OutKey), OutIV: unhex(t, v.OutIV),
	}, v
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testKeys() Keys {
	k := Keys{InKey: make([]byte, 16), InIV: make([]byte, 16), OutKey: make([]byte, 16), OutIV: make([]byte, 16)}
	for i := range 16 {
		k.InKey[i], k.InIV[i], k.OutKey[i], k.OutIV[i] = byte(i), byte(i+16), byte(i+32), byte(i+48)
	}
	return k
}

// pair returns a client layer and the matching server layer.
func pair(t testing.TB) (client, server *CryptoAES) {
	t.Helper()
	k := testKeys()
	client, err := New(Transformation, k)
	if err != nil {
		t.Fatal(err)
	}
	server, err = New("aes/ctr/nopadding", k.Swapped())
	if err != nil {
		t.Fatal(err)
	}
	return client, server
}

func TestWrapMatchesJava(t *testing.T) {
	k, v := loadVectors(t)
	c, err := New(Transformation, k)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range v.ClientToServer {
		got, err := c.Wrap(nil, unhex(t, f.Plain))
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(got) != f.Wrapped {
			t.Fatalf("frame %d: hex.EncodeToString(got) = %q; want %q", i, hex.EncodeToString(got), f.Wrapped)
		}
	}
}

func TestUnwrapJavaFrames(t *testing.T) {
	k, v := loadVectors(t)
	c, err := New(Transformation, k)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range v.ServerToClient {
		got, err := c.Unwrap([]byte("prefix"), unhex(t, f.Wrapped))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if string(got) != "prefix"+string(unhex(t, f.Plain)) {
			t.Fatalf("frame %d: string(got) = %q; want %q", i, string(got), "prefix"+string(unhex(t, f.Plain)))
		}
	}
}

func TestRoundTripBothWays(t *testing.T) {
	client, server := pair(t)
	for i := range 300 {
		msg := bytes.Repeat([]byte{byte(i)}, i*7%1500)
		tok, err := client.Wrap(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		if len(tok) != len(msg)+Overhead {
			t.Fatalf("len(tok) = %d; want %d", len(tok), len(msg)+Overhead)
		}
		got, err := server.Unwrap(nil, tok)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("got = %q; want %q", got, msg)
		}

		tok, err = server.Wrap(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err = client.Unwrap(nil, tok)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("got = %q; want %q", got, msg)
		}
	}
}

func TestSequenceWrapsLikeJavaInt(t *testing.T) {
	client, server := pair(t)
	client.out.seq, server.in.seq = 1<<32-1, 1<<32-1
	for range 3 {
		tok, err := client.Wrap(nil, []byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = server.Unwrap(nil, tok)
		if err != nil {
			t.Fatal(err)
		}
	}
	if server.in.seq != uint32(2) {
		t.Fatalf("server.in.seq = %v; want %v", server.in.seq, uint32(2))
	}
}

// requireDead checks that a failed layer refuses a frame that would otherwise be valid.
func requireDead(t *testing.T, peer, l *CryptoAES) {
	t.Helper()
	tok, err := peer.Wrap(nil, []byte("next"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := l.Unwrap(nil, tok)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("error %v; want %v", err, ErrFailed)
	}
	if len(out) != 0 {
		t.Fatalf("out = %q; want it empty", out)
	}
}

func TestTamperedFrameIsRejected(t *testing.T) {
	msg := []byte("the quick brown fox jumps over the lazy dog")
	for pos := range len(msg) + Overhead {
		t.Run(fmt.Sprint(pos), func(t *testing.T) {
			client, server := pair(t)
			tok, err := server.Wrap(nil, msg)
			if err != nil {
				t.Fatal(err)
			}
			tok[pos] ^= 0x01
			dst := []byte("kept")
			out, err := client.Unwrap(dst, tok)
			if !errors.Is(err, ErrMAC) {
				t.Fatalf("error %v; want %v", err, ErrMAC)
			}
			if string(out) != "kept" {
				t.Fatalf("nothing of a bad frame may reach the caller: string(out) = %q; want %q", string(out), "kept")
			}
			requireDead(t, server, client)
		})
	}
}

func TestReplayedFrameIsRejected(t *testing.T) {
	client, server := pair(t)
	tok, err := server.Wrap(nil, []byte("once"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Unwrap(nil, tok)
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.Unwrap(nil, tok)
	if err == nil {
		t.Fatal("err is nil; want an error")
	}
	if !(errors.Is(err, ErrMAC) || errors.Is(err, ErrSequence)) {
		t.Fatalf("got %v", err)
	}
	if len(out) != 0 {
		t.Fatalf("out = %q; want it empty", out)
	}
	requireDead(t, server, client)
}

func TestReorderedFramesAreRejected(t *testing.T) {
	client, server := pair(t)
	first, err := server.Wrap(nil, []byte("first"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := server.Wrap(nil, []byte("second"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.Unwrap(nil, second)
	if err == nil {
		t.Fatal("err is nil; want an error")
	}
	if len(out) != 0 {
		t.Fatalf("out = %q; want it empty", out)
	}
	_, err = client.Unwrap(nil, first)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("error %v; want %v", err, ErrFailed)
	}
}

// A peer whose counter is off but whose keystream is in step produces a valid MAC; only the
// sequence check can catch it.
func TestUnexpectedSequenceNumberIsRejected(t *testing.T) {
	client, server := pair(t)
	server.out.seq = 5
	tok, err := server.Wrap(nil, []byte("skipped ahead"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.Unwrap([]byte("k"), tok)
	if !errors.Is(err, ErrSequence) {
		t.Fatalf("error %v; want %v", err, ErrSequence)
	}
	if err == nil || !strings.Contains(err.Error(), "got 5, expected 0") {
		t.Fatalf("error %v; want one containing %q", err, "got 5, expected 0")
	}
	if string(out) != "k" {
		t.Fatalf("string(out) = %q; want %q", string(out), "k")
	}
}

func TestTruncatedFrameIsRejected(t *testing.T) {
	for n := range Overhead + 5 {
		client, server := pair(t)
		tok, err := server.Wrap(nil, []byte("hello"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := client.Unwrap(nil, tok[:n])
		if err == nil {
			t.Fatalf("len %d", n)
		}
		if len(out) != 0 {
			t.Fatalf("out = %q; want it empty", out)
		}
		if n < Overhead {
			if !errors.Is(err, ErrShortFrame) {
				t.Fatalf("error %v; want %v", err, ErrShortFrame)
			}
		}
		requireDead(t, server, client)
	}
}

func TestNewRejectsBadParameters(t *testing.T) {
	k := testKeys()
	_, err := New("AES/CBC/PKCS5Padding", k)
	if !errors.Is(err, ErrTransformation) {
		t.Fatalf("error %v; want %v", err, ErrTransformation)
	}
	bad := k
	bad.OutKey = bad.OutKey[:15]
	_, err = New(Transformation, bad)
	if !errors.Is(err, ErrKey) {
		t.Fatalf("error %v; want %v", err, ErrKey)
	}
	bad = k
	bad.InIV = make([]byte, 32)
	_, err = New(Transformation, bad)
	if !errors.Is(err, ErrKey) {
		t.Fatalf("error %v; want %v", err, ErrKey)
	}
	bad = k
	bad.InKey = nil
	_, err = New(Transformation, bad)
	if !errors.Is(err, ErrKey) {
		t.Fatalf("error %v; want %v", err, ErrKey)
	}
}

func TestKeysNeverPrinted(t *testing.T) {
	k := testKeys()
	k.OutKey = []byte("SECRETSECRETSECR")
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v %+v %#v %s", k, k, k, k)} {
		if strings.Contains(s, "SECRET") {
			t.Fatalf("s = %q; want it not to contain %q", s, "SECRET")
		}
		if strings.Contains(s, "83 69 67") {
			t.Fatalf("s = %q; want it not to contain %q", s, "83 69 67")
		}
	}
	c, err := New(Transformation, k)
	if err != nil {
		t.Fatal(err)
	}
	_ = c
}

func TestNewCopiesKeys(t *testing.T) {
	k := testKeys()
	client, err := New(Transformation, k)
	if err != nil {
		t.Fatal(err)
	}
	server, err := New(Transformation, k.Swapped())
	if err != nil {
		t.Fatal(err)
	}
	clear(k.OutKey)
	clear(k.OutIV)
	tok, err := client.Wrap(nil, []byte("still works"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = server.Unwrap(nil, tok)
	if err != nil {
		t.Fatal(err)
	}
}

func TestSteadyStateDoesNotAllocate(t *testing.T) {
	client, server := pair(t)
	msg := make([]byte, 1024)
	tok := make([]byte, 0, 2048)
	plain := make([]byte, 0, 2048)
	allocs := testing.AllocsPerRun(200, func() {
		var err error
		tok, err = client.Wrap(tok[:0], msg)
		if err != nil {
			t.Fatal(err)
		}
		plain, err = server.Unwrap(plain[:0], tok)
		if err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("allocs = %v; want it zero", allocs)
	}
}

// Wrap and Unwrap run at once on one layer, as a connection's writer and reader do.
func TestConcurrentDirections(t *testing.T) {
	client, server := pair(t)
	const n = 500
	toServer, toClient := make(chan []byte, n), make(chan []byte, n)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	run := func(l *CryptoAES, out chan<- []byte, in <-chan []byte) {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range n {
				tok, err := l.Wrap(nil, []byte(fmt.Sprint(i)))
				if err != nil {
					errs <- err
					return
				}
				out <- tok
			}
		}()
		go func() {
			defer wg.Done()
			for i := range n {
				got, err := l.Unwrap(nil, <-in)
				if err != nil {
					errs <- err
					return
				}
				if string(got) != fmt.Sprint(i) {
					errs <- fmt.Errorf("frame %d: got %q", i, got)
					return
				}
			}
		}()
	}
	run(client, toServer, toClient)
	run(server, toClient, toServer)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
