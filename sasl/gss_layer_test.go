package sasl

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"strings"
	"testing"

	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/types"
)

func testWrapKey(t testing.TB, etype int32, size int) wrapKey {
	t.Helper()
	k := make([]byte, size)
	rand.Read(k)
	wk, err := newWrapKey(types.EncryptionKey{KeyType: etype, KeyValue: k})
	if err != nil {
		t.Fatal(err)
	}
	return wk
}

// layerPair returns an established client layer and the matching acceptor.
func layerPair(t testing.TB, seal bool) (*gssLayer, *acceptorGSS) {
	wk := testWrapKey(t, 17, 16)
	return &gssLayer{key: wk, seal: seal, sendSeq: 7, recvSeq: 1000},
		&acceptorGSS{key: wk, seal: seal, sendSeq: 1000, recvSeq: 7}
}

// gokrb5 builds integrity-only initiator tokens; ours must be byte-identical.
func TestIntegrityTokenMatchesGokrb5(t *testing.T) {
	for _, et := range []struct {
		id   int32
		size int
	}{{17, 16}, {18, 32}, {19, 16}, {20, 32}} {
		wk := testWrapKey(t, et.id, et.size)
		payload := []byte("security layer choice")
		ref, err := gssapi.NewInitiatorWrapToken(payload, wk.key)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		got, err := wk.appendWrap(nil, wrapHeader{}, false, usageInitiatorSeal, payload)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("etype %d: got = %q; want %q", et.id, got, want)
		}
	}
}

func TestSealedTokenLayout(t *testing.T) {
	wk := testWrapKey(t, 17, 16)
	tok, err := wk.appendWrap(nil, wrapHeader{seq: 0x0102030405060708}, true, usageInitiatorSeal, []byte("secret row"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tok[:16], []byte{0x05, 0x04, flagSealed, 0xff, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("tok[:16] = %q; want %q", tok[:16], []byte{0x05, 0x04, flagSealed, 0xff, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	}
	if bytes.Contains(tok, []byte("secret row")) {
		t.Fatal("sealed token carries plaintext")
	}
	got, h, err := wk.openWrap(nil, tok, usageInitiatorSeal)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "secret row" {
		t.Fatalf("string(got) = %q; want %q", string(got), "secret row")
	}
	if h.seq != uint64(0x0102030405060708) {
		t.Fatalf("h.seq = %v; want %v", h.seq, uint64(0x0102030405060708))
	}
}

// Java may rotate (RRC) and pad (EC); both are undone on receipt.
func TestRotatedTokensAreAccepted(t *testing.T) {
	wk := testWrapKey(t, 17, 16)
	for _, sealed := range []bool{false, true} {
		for _, rrc := range []int{0, 1, 16, 28, 1000} {
			tok, err := wk.appendWrap(nil, wrapHeader{flags: flagSentByAcceptor}, sealed, usageAcceptorSeal, []byte("payload"))
			if err != nil {
				t.Fatal(err)
			}
			body := tok[wrapHeaderLen:]
			r := rrc % len(body)
			rot := append(append([]byte{}, body[len(body)-r:]...), body[:len(body)-r]...)
			tok = append(tok[:wrapHeaderLen:wrapHeaderLen], rot...)
			tok[6], tok[7] = byte(rrc>>8), byte(rrc)
			got, _, err := wk.openWrap(nil, tok, usageAcceptorSeal)
			if err != nil {
				t.Fatalf("sealed=%v rrc=%d: %v", sealed, rrc, err)
			}
			if string(got) != "payload" {
				t.Fatalf("string(got) = %q; want %q", string(got), "payload")
			}
		}
	}
}

func TestLayerRoundTrip(t *testing.T) {
	for _, seal := range []bool{false, true} {
		c, s := layerPair(t, seal)
		exchange(t, c, s)
	}
}

func requireLayerDead(t *testing.T, c *gssLayer, s *acceptorGSS) {
	t.Helper()
	tok, err := s.Wrap(nil, []byte("later"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Unwrap(nil, tok)
	if !errors.Is(err, ErrLayerFailed) {
		t.Fatalf("error %v; want %v", err, ErrLayerFailed)
	}
	if len(out) != 0 {
		t.Fatalf("out = %q; want it empty", out)
	}
}

func TestTamperedTokenIsRejected(t *testing.T) {
	for _, seal := range []bool{false, true} {
		_, s := layerPair(t, seal)
		tok, err := s.Wrap(nil, []byte("some response bytes"))
		if err != nil {
			t.Fatal(err)
		}
		for pos := range tok {
			t.Run(fmt.Sprintf("seal=%v/%d", seal, pos), func(t *testing.T) {
				c, s := layerPair(t, seal)
				s.key = c.key
				tok, err := s.Wrap(nil, []byte("some response bytes"))
				if err != nil {
					t.Fatal(err)
				}
				tok[pos] ^= 0x40
				out, err := c.Unwrap([]byte("kept"), tok)
				if err == nil {
					t.Fatal("err is nil; want an error")
				}
				if string(out) != "kept" {
					t.Fatalf("string(out) = %q; want %q", string(out), "kept")
				}
				requireLayerDead(t, c, s)
			})
		}
	}
}

func TestReplayedTokenIsRejected(t *testing.T) {
	c, s := layerPair(t, true)
	tok, err := s.Wrap(nil, []byte("once"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Unwrap(nil, tok)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Unwrap(nil, tok)
	if !errors.Is(err, ErrSequence) {
		t.Fatalf("error %v; want %v", err, ErrSequence)
	}
	if err == nil || !strings.Contains(err.Error(), "got 1000, expected 1001") {
		t.Fatalf("error %v; want one containing %q", err, "got 1000, expected 1001")
	}
	if len(out) != 0 {
		t.Fatalf("out = %q; want it empty", out)
	}
	requireLayerDead(t, c, s)
}

func TestReorderedTokensAreRejected(t *testing.T) {
	c, s := layerPair(t, true)
	_, err := s.Wrap(nil, []byte("first"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Wrap(nil, []byte("second"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Unwrap(nil, second)
	if !errors.Is(err, ErrSequence) {
		t.Fatalf("error %v; want %v", err, ErrSequence)
	}
}

func TestTruncatedTokenIsRejected(t *testing.T) {
	for _, seal := range []bool{false, true} {
		c0, s0 := layerPair(t, seal)
		tok, err := s0.Wrap(nil, []byte("truncate me"))
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(tok) {
			c := &gssLayer{key: c0.key, seal: seal, recvSeq: 1000}
			out, err := c.Unwrap(nil, tok[:n])
			if err == nil {
				t.Fatalf("seal=%v len=%d", seal, n)
			}
			if len(out) != 0 {
				t.Fatalf("out = %q; want it empty", out)
			}
		}
	}
}

// A token the client made itself, reflected back, must not be accepted.
func TestReflectedTokenIsRejected(t *testing.T) {
	c, _ := layerPair(t, true)
	c.recvSeq = c.sendSeq
	tok, err := c.Wrap(nil, []byte("mine"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Unwrap(nil, tok)
	if err == nil {
		t.Fatal("err is nil; want an error")
	}
}

// Under privacy an integrity-only token is a downgrade.
func TestUnsealedTokenUnderPrivacyIsRejected(t *testing.T) {
	c, s := layerPair(t, true)
	tok, err := s.wrapWith(nil, []byte("clear"), false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Unwrap(nil, tok)
	if !errors.Is(err, hberr.ErrDowngrade) {
		t.Fatalf("error %v; want %v", err, hberr.ErrDowngrade)
	}
}

func TestNonAESEnctypeIsRefused(t *testing.T) {
	_, err := newWrapKey(types.EncryptionKey{KeyType: 23, KeyValue: make([]byte, 16)})
	if !errors.Is(err, hberr.ErrKerberos) {
		t.Fatalf("error %v; want %v", err, hberr.ErrKerberos)
	}
	if err == nil || !strings.Contains(err.Error(), "enctype 23") {
		t.Fatalf("error %v; want one containing %q", err, "enctype 23")
	}
}
