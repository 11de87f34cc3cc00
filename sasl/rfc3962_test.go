package sasl

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"testing"

	"github.com/jcmturner/gokrb5/v8/crypto"
)

// The cached-key RFC 3962 path must be interchangeable with gokrb5's, which derives its keys
// per message: each side opens what the other sealed, and the checksums are equal.
func TestRFC3962MatchesGokrb5(t *testing.T) {
	for _, etypeID := range []int32{17, 18} {
		et, err := crypto.GetEtype(etypeID)
		if err != nil {
			t.Fatal(err)
		}
		key := make([]byte, et.GetKeyByteSize())
		rand.Read(key)
		for _, usage := range []uint32{usageAcceptorSeal, usageInitiatorSeal} {
			u, err := newRFC3962Usage(et, key, usage)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 1024, 4097, 70000} {
				name := fmt.Sprintf("etype %d usage %d len %d", etypeID, usage, n)
				payload := make([]byte, n)
				rand.Read(payload)
				header := bytes.Repeat([]byte{0x05}, wrapHeaderLen)
				whole := append(append([]byte{}, payload...), header...)

				sealed, err := u.seal([]byte("prefix"), payload, header)
				if err != nil {
					t.Fatal(err)
				}
				if string(sealed[:6]) != "prefix" {
					t.Fatalf("%v: string(sealed[:6]) = %q; want %q", name, string(sealed[:6]), "prefix")
				}
				got, err := et.DecryptMessage(key, sealed[6:], usage)
				if err != nil {
					t.Fatalf("%v: %v", name, err)
				}
				if !bytes.Equal(got, whole) {
					t.Fatalf("%v: got = %q; want %q", name, got, whole)
				}

				_, theirs, err := et.EncryptMessage(key, whole, usage)
				if err != nil {
					t.Fatal(err)
				}
				got, err = u.open(theirs)
				if err != nil {
					t.Fatalf("%v: %v", name, err)
				}
				if !bytes.Equal(got, whole) {
					t.Fatalf("%v: got = %q; want %q", name, got, whole)
				}

				want, err := et.GetChecksumHash(key, whole, usage)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(u.checksum(payload, header), want[:rfc3962MACLen]) {
					t.Fatalf("%v: u.checksum(payload, header) = %q; want %q", name, u.checksum(payload, header), want[:rfc3962MACLen])
				}
			}
		}
	}
}

func TestRFC3962RejectsTampering(t *testing.T) {
	et, err := crypto.GetEtype(18)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, et.GetKeyByteSize())
	rand.Read(key)
	u, err := newRFC3962Usage(et, key, usageAcceptorSeal)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := u.seal(nil, []byte("some payload of a few blocks, more than two"), make([]byte, wrapHeaderLen))
	if err != nil {
		t.Fatal(err)
	}
	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 0x01
		_, err := u.open(bad)
		if !errors.Is(err, ErrIntegrity) {
			t.Fatalf("byte %d flipped: error %v; want %v", i, err, ErrIntegrity)
		}
	}
	for _, n := range []int{0, 10, rfc3962Overhead + 15} {
		_, err := u.open(sealed[:n])
		if !errors.Is(err, ErrBadToken) {
			t.Fatalf("truncated to %d: error %v; want %v", n, err, ErrBadToken)
		}
	}
}
