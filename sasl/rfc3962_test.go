package sasl

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/stretchr/testify/require"
)

// The cached-key RFC 3962 path must be interchangeable with gokrb5's, which derives its keys
// per message: each side opens what the other sealed, and the checksums are equal.
func TestRFC3962MatchesGokrb5(t *testing.T) {
	for _, etypeID := range []int32{17, 18} {
		et, err := crypto.GetEtype(etypeID)
		require.NoError(t, err)
		key := make([]byte, et.GetKeyByteSize())
		rand.Read(key)
		for _, usage := range []uint32{usageAcceptorSeal, usageInitiatorSeal} {
			u, err := newRFC3962Usage(et, key, usage)
			require.NoError(t, err)
			for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 1024, 4097, 70000} {
				name := fmt.Sprintf("etype %d usage %d len %d", etypeID, usage, n)
				payload := make([]byte, n)
				rand.Read(payload)
				header := bytes.Repeat([]byte{0x05}, wrapHeaderLen)
				whole := append(append([]byte{}, payload...), header...)

				sealed, err := u.seal([]byte("prefix"), payload, header)
				require.NoError(t, err)
				require.Equal(t, "prefix", string(sealed[:6]), name)
				got, err := et.DecryptMessage(key, sealed[6:], usage)
				require.NoError(t, err, name)
				require.Equal(t, whole, got, name)

				_, theirs, err := et.EncryptMessage(key, whole, usage)
				require.NoError(t, err)
				got, err = u.open(theirs)
				require.NoError(t, err, name)
				require.Equal(t, whole, got, name)

				want, err := et.GetChecksumHash(key, whole, usage)
				require.NoError(t, err)
				require.Equal(t, want[:rfc3962MACLen], u.checksum(payload, header), name)
			}
		}
	}
}

func TestRFC3962RejectsTampering(t *testing.T) {
	et, err := crypto.GetEtype(18)
	require.NoError(t, err)
	key := make([]byte, et.GetKeyByteSize())
	rand.Read(key)
	u, err := newRFC3962Usage(et, key, usageAcceptorSeal)
	require.NoError(t, err)
	sealed, err := u.seal(nil, []byte("some payload of a few blocks, more than two"), make([]byte, wrapHeaderLen))
	require.NoError(t, err)
	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 0x01
		_, err := u.open(bad)
		require.ErrorIs(t, err, ErrIntegrity, "byte %d flipped", i)
	}
	for _, n := range []int{0, 10, rfc3962Overhead + 15} {
		_, err := u.open(sealed[:n])
		require.ErrorIs(t, err, ErrBadToken, "truncated to %d", n)
	}
}
