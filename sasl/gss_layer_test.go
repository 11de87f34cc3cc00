package sasl

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/types"
	"github.com/stretchr/testify/require"
)

func testWrapKey(t testing.TB, etype int32, size int) wrapKey {
	t.Helper()
	k := make([]byte, size)
	rand.Read(k)
	wk, err := newWrapKey(types.EncryptionKey{KeyType: etype, KeyValue: k})
	require.NoError(t, err)
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
		require.NoError(t, err)
		want, err := ref.Marshal()
		require.NoError(t, err)
		got, err := wk.appendWrap(nil, wrapHeader{}, false, usageInitiatorSeal, payload)
		require.NoError(t, err)
		require.Equal(t, want, got, "etype %d", et.id)
	}
}

func TestSealedTokenLayout(t *testing.T) {
	wk := testWrapKey(t, 17, 16)
	tok, err := wk.appendWrap(nil, wrapHeader{seq: 0x0102030405060708}, true, usageInitiatorSeal, []byte("secret row"))
	require.NoError(t, err)
	require.Equal(t, []byte{0x05, 0x04, flagSealed, 0xff, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}, tok[:16])
	require.False(t, bytes.Contains(tok, []byte("secret row")), "sealed token carries plaintext")
	got, h, err := wk.openWrap(nil, tok, usageInitiatorSeal)
	require.NoError(t, err)
	require.Equal(t, "secret row", string(got))
	require.Equal(t, uint64(0x0102030405060708), h.seq)
}

// Java may rotate (RRC) and pad (EC); both are undone on receipt.
func TestRotatedTokensAreAccepted(t *testing.T) {
	wk := testWrapKey(t, 17, 16)
	for _, sealed := range []bool{false, true} {
		for _, rrc := range []int{0, 1, 16, 28, 1000} {
			tok, err := wk.appendWrap(nil, wrapHeader{flags: flagSentByAcceptor}, sealed, usageAcceptorSeal, []byte("payload"))
			require.NoError(t, err)
			body := tok[wrapHeaderLen:]
			r := rrc % len(body)
			rot := append(append([]byte{}, body[len(body)-r:]...), body[:len(body)-r]...)
			tok = append(tok[:wrapHeaderLen:wrapHeaderLen], rot...)
			tok[6], tok[7] = byte(rrc>>8), byte(rrc)
			got, _, err := wk.openWrap(nil, tok, usageAcceptorSeal)
			require.NoError(t, err, "sealed=%v rrc=%d", sealed, rrc)
			require.Equal(t, "payload", string(got))
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
	require.NoError(t, err)
	out, err := c.Unwrap(nil, tok)
	require.ErrorIs(t, err, ErrLayerFailed)
	require.Empty(t, out)
}

func TestTamperedTokenIsRejected(t *testing.T) {
	for _, seal := range []bool{false, true} {
		_, s := layerPair(t, seal)
		tok, err := s.Wrap(nil, []byte("some response bytes"))
		require.NoError(t, err)
		for pos := range tok {
			t.Run(fmt.Sprintf("seal=%v/%d", seal, pos), func(t *testing.T) {
				c, s := layerPair(t, seal)
				s.key = c.key
				tok, err := s.Wrap(nil, []byte("some response bytes"))
				require.NoError(t, err)
				tok[pos] ^= 0x40
				out, err := c.Unwrap([]byte("kept"), tok)
				require.Error(t, err)
				require.Equal(t, "kept", string(out))
				requireLayerDead(t, c, s)
			})
		}
	}
}

func TestReplayedTokenIsRejected(t *testing.T) {
	c, s := layerPair(t, true)
	tok, err := s.Wrap(nil, []byte("once"))
	require.NoError(t, err)
	_, err = c.Unwrap(nil, tok)
	require.NoError(t, err)
	out, err := c.Unwrap(nil, tok)
	require.ErrorIs(t, err, ErrSequence)
	require.ErrorContains(t, err, "got 1000, expected 1001")
	require.Empty(t, out)
	requireLayerDead(t, c, s)
}

func TestReorderedTokensAreRejected(t *testing.T) {
	c, s := layerPair(t, true)
	_, err := s.Wrap(nil, []byte("first"))
	require.NoError(t, err)
	second, err := s.Wrap(nil, []byte("second"))
	require.NoError(t, err)
	_, err = c.Unwrap(nil, second)
	require.ErrorIs(t, err, ErrSequence)
}

func TestTruncatedTokenIsRejected(t *testing.T) {
	for _, seal := range []bool{false, true} {
		c0, s0 := layerPair(t, seal)
		tok, err := s0.Wrap(nil, []byte("truncate me"))
		require.NoError(t, err)
		for n := range len(tok) {
			c := &gssLayer{key: c0.key, seal: seal, recvSeq: 1000}
			out, err := c.Unwrap(nil, tok[:n])
			require.Error(t, err, "seal=%v len=%d", seal, n)
			require.Empty(t, out)
		}
	}
}

// A token the client made itself, reflected back, must not be accepted.
func TestReflectedTokenIsRejected(t *testing.T) {
	c, _ := layerPair(t, true)
	c.recvSeq = c.sendSeq
	tok, err := c.Wrap(nil, []byte("mine"))
	require.NoError(t, err)
	_, err = c.Unwrap(nil, tok)
	require.Error(t, err)
}

// Under privacy an integrity-only token is a downgrade.
func TestUnsealedTokenUnderPrivacyIsRejected(t *testing.T) {
	c, s := layerPair(t, true)
	tok, err := s.wrapWith(nil, []byte("clear"), false)
	require.NoError(t, err)
	_, err = c.Unwrap(nil, tok)
	require.ErrorIs(t, err, ErrDowngrade)
}

func TestNonAESEnctypeIsRefused(t *testing.T) {
	_, err := newWrapKey(types.EncryptionKey{KeyType: 23, KeyValue: make([]byte, 16)})
	require.ErrorIs(t, err, ErrKerberos)
	require.ErrorContains(t, err, "enctype 23")
}
