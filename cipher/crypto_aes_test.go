package cipher

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
	var v javaVectors
	require.NoError(t, json.Unmarshal(raw, &v))
	return Keys{
		InKey: unhex(t, v.InKey), InIV: unhex(t, v.InIV),
		OutKey: unhex(t, v.OutKey), OutIV: unhex(t, v.OutIV),
	}, v
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
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
	require.NoError(t, err)
	server, err = New("aes/ctr/nopadding", k.Swapped())
	require.NoError(t, err)
	return client, server
}

func TestWrapMatchesJava(t *testing.T) {
	k, v := loadVectors(t)
	c, err := New(Transformation, k)
	require.NoError(t, err)
	for i, f := range v.ClientToServer {
		got, err := c.Wrap(nil, unhex(t, f.Plain))
		require.NoError(t, err)
		require.Equal(t, f.Wrapped, hex.EncodeToString(got), "frame %d", i)
	}
}

func TestUnwrapJavaFrames(t *testing.T) {
	k, v := loadVectors(t)
	c, err := New(Transformation, k)
	require.NoError(t, err)
	for i, f := range v.ServerToClient {
		got, err := c.Unwrap([]byte("prefix"), unhex(t, f.Wrapped))
		require.NoError(t, err, "frame %d", i)
		require.Equal(t, "prefix"+string(unhex(t, f.Plain)), string(got), "frame %d", i)
	}
}

func TestRoundTripBothWays(t *testing.T) {
	client, server := pair(t)
	for i := range 300 {
		msg := bytes.Repeat([]byte{byte(i)}, i*7%1500)
		tok, err := client.Wrap(nil, msg)
		require.NoError(t, err)
		require.Len(t, tok, len(msg)+Overhead)
		got, err := server.Unwrap(nil, tok)
		require.NoError(t, err)
		require.Equal(t, msg, got)

		tok, err = server.Wrap(nil, msg)
		require.NoError(t, err)
		got, err = client.Unwrap(nil, tok)
		require.NoError(t, err)
		require.Equal(t, msg, got)
	}
}

func TestSequenceWrapsLikeJavaInt(t *testing.T) {
	client, server := pair(t)
	client.out.seq, server.in.seq = 1<<32-1, 1<<32-1
	for range 3 {
		tok, err := client.Wrap(nil, []byte("x"))
		require.NoError(t, err)
		_, err = server.Unwrap(nil, tok)
		require.NoError(t, err)
	}
	require.Equal(t, uint32(2), server.in.seq)
}

// requireDead checks that a failed layer refuses a frame that would otherwise be valid.
func requireDead(t *testing.T, peer, l *CryptoAES) {
	t.Helper()
	tok, err := peer.Wrap(nil, []byte("next"))
	require.NoError(t, err)
	out, err := l.Unwrap(nil, tok)
	require.ErrorIs(t, err, ErrFailed)
	require.Empty(t, out)
}

func TestTamperedFrameIsRejected(t *testing.T) {
	msg := []byte("the quick brown fox jumps over the lazy dog")
	for pos := range len(msg) + Overhead {
		t.Run(fmt.Sprint(pos), func(t *testing.T) {
			client, server := pair(t)
			tok, err := server.Wrap(nil, msg)
			require.NoError(t, err)
			tok[pos] ^= 0x01
			dst := []byte("kept")
			out, err := client.Unwrap(dst, tok)
			require.ErrorIs(t, err, ErrMAC)
			require.Equal(t, "kept", string(out), "nothing of a bad frame may reach the caller")
			requireDead(t, server, client)
		})
	}
}

func TestReplayedFrameIsRejected(t *testing.T) {
	client, server := pair(t)
	tok, err := server.Wrap(nil, []byte("once"))
	require.NoError(t, err)
	_, err = client.Unwrap(nil, tok)
	require.NoError(t, err)
	out, err := client.Unwrap(nil, tok)
	require.Error(t, err)
	require.True(t, errors.Is(err, ErrMAC) || errors.Is(err, ErrSequence), "got %v", err)
	require.Empty(t, out)
	requireDead(t, server, client)
}

func TestReorderedFramesAreRejected(t *testing.T) {
	client, server := pair(t)
	first, err := server.Wrap(nil, []byte("first"))
	require.NoError(t, err)
	second, err := server.Wrap(nil, []byte("second"))
	require.NoError(t, err)
	out, err := client.Unwrap(nil, second)
	require.Error(t, err)
	require.Empty(t, out)
	_, err = client.Unwrap(nil, first)
	require.ErrorIs(t, err, ErrFailed)
}

// A peer whose counter is off but whose keystream is in step produces a valid MAC; only the
// sequence check can catch it.
func TestUnexpectedSequenceNumberIsRejected(t *testing.T) {
	client, server := pair(t)
	server.out.seq = 5
	tok, err := server.Wrap(nil, []byte("skipped ahead"))
	require.NoError(t, err)
	out, err := client.Unwrap([]byte("k"), tok)
	require.ErrorIs(t, err, ErrSequence)
	require.ErrorContains(t, err, "got 5, expected 0")
	require.Equal(t, "k", string(out))
}

func TestTruncatedFrameIsRejected(t *testing.T) {
	for n := range Overhead + 5 {
		client, server := pair(t)
		tok, err := server.Wrap(nil, []byte("hello"))
		require.NoError(t, err)
		out, err := client.Unwrap(nil, tok[:n])
		require.Error(t, err, "len %d", n)
		require.Empty(t, out)
		if n < Overhead {
			require.ErrorIs(t, err, ErrShortFrame)
		}
		requireDead(t, server, client)
	}
}

func TestNewRejectsBadParameters(t *testing.T) {
	k := testKeys()
	_, err := New("AES/CBC/PKCS5Padding", k)
	require.ErrorIs(t, err, ErrTransformation)
	bad := k
	bad.OutKey = bad.OutKey[:15]
	_, err = New(Transformation, bad)
	require.ErrorIs(t, err, ErrKey)
	bad = k
	bad.InIV = make([]byte, 32)
	_, err = New(Transformation, bad)
	require.ErrorIs(t, err, ErrKey)
	bad = k
	bad.InKey = nil
	_, err = New(Transformation, bad)
	require.ErrorIs(t, err, ErrKey)
}

func TestKeysNeverPrinted(t *testing.T) {
	k := testKeys()
	k.OutKey = []byte("SECRETSECRETSECR")
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v %+v %#v %s", k, k, k, k)} {
		require.NotContains(t, s, "SECRET")
		require.NotContains(t, s, "83 69 67")
	}
	c, err := New(Transformation, k)
	require.NoError(t, err)
	_ = c
}

func TestNewCopiesKeys(t *testing.T) {
	k := testKeys()
	client, err := New(Transformation, k)
	require.NoError(t, err)
	server, err := New(Transformation, k.Swapped())
	require.NoError(t, err)
	clear(k.OutKey)
	clear(k.OutIV)
	tok, err := client.Wrap(nil, []byte("still works"))
	require.NoError(t, err)
	_, err = server.Unwrap(nil, tok)
	require.NoError(t, err)
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
	require.Zero(t, allocs)
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
