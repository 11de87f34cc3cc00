package sasl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/jcmturner/gokrb5/v8/types"
)

// FuzzReadSASLFrame: any server bytes give a message or an error, never a panic, and never a
// token longer than the limit.
func FuzzReadSASLFrame(f *testing.F) {
	ok := binary.BigEndian.AppendUint32(nil, statusSuccess)
	f.Add(appendToken(ok, []byte("token")))
	f.Add([]byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xa8})
	f.Add(append([]byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xa7}, appendToken(nil, []byte("wrapped"))...))
	f.Add(appendString(appendString(binary.BigEndian.AppendUint32(nil, statusError), "java.io.IOException"), "boom"))
	f.Add([]byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 2})
	f.Add([]byte{})
	const limit = 1 << 12
	f.Fuzz(func(t *testing.T, b []byte) {
		// The -89 payload parser sees the same bytes: it must not panic either.
		if p, err := readCipherProposal(bytes.NewReader(b), limit); err == nil && len(p.inKey)+len(p.outKey) > len(b) {
			t.Fatalf("proposal longer than its input")
		}
		m, err := readServerMessage(bytes.NewReader(b), limit)
		if err != nil {
			var se *ServerError
			if !errors.As(err, &se) && !errors.Is(err, ErrProtocol) && !errors.Is(err, ErrTokenTooLarge) &&
				!errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if len(m.token) > limit || len(m.cipherToken) > limit {
			t.Fatalf("token over the limit")
		}
	})
}

// FuzzParseWrapToken: arbitrary tokens through the header parser and the full verification
// (both sealed and integrity-only paths) never panic and never yield data on error.
func FuzzParseWrapToken(f *testing.F) {
	key := types.EncryptionKey{KeyType: 17, KeyValue: []byte("0123456789abcdef")}
	wk, err := newWrapKey(key)
	if err != nil {
		f.Fatal(err)
	}
	acc := &acceptorGSS{key: wk}
	for _, seal := range []bool{false, true} {
		tok, _ := acc.wrapWith(nil, []byte("seed payload"), seal)
		f.Add(tok)
	}
	f.Add([]byte{0x05, 0x04, 0x03, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0x05, 0x04, 0x01, 0xff, 0, 12, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3})
	f.Add([]byte{0x05, 0x04})
	f.Fuzz(func(t *testing.T, tok []byte) {
		if _, err := parseWrapHeader(tok); err != nil && !errors.Is(err, ErrBadToken) {
			t.Fatalf("unclassified error %v", err)
		}
		l := &gssLayer{key: wk}
		dst := []byte("dst")
		out, err := l.Unwrap(dst, tok)
		if err != nil && string(out) != "dst" {
			t.Fatalf("failed Unwrap changed dst to %q", out)
		}
		l = &gssLayer{key: wk, seal: true}
		out, err = l.Unwrap(dst, tok)
		if err != nil && string(out) != "dst" {
			t.Fatalf("failed Unwrap changed dst to %q", out)
		}
	})
}
