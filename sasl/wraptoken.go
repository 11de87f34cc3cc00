package sasl

import (
	"crypto/hmac"
	"encoding/binary"
	"fmt"
	"github.com/go-hbase/hbase/hberr"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/crypto/etype"
	"github.com/jcmturner/gokrb5/v8/types"
)

// RFC 4121 section 4.2.6.2 Wrap token layout and flags.
const (
	wrapHeaderLen      = 16
	flagSentByAcceptor = 0x01
	flagSealed         = 0x02
	flagAcceptorSubkey = 0x04
)

// Key usages for Wrap tokens (RFC 4121 section 2).
const (
	usageAcceptorSeal  = 22
	usageInitiatorSeal = 24
)

// wrapHeader is the clear header of a Wrap token.
type wrapHeader struct {
	flags byte
	ec    uint16
	rrc   uint16
	seq   uint64
}

func (h wrapHeader) appendTo(dst []byte, ec, rrc uint16) []byte {
	dst = append(dst, 0x05, 0x04, h.flags, 0xff)
	dst = binary.BigEndian.AppendUint16(dst, ec)
	dst = binary.BigEndian.AppendUint16(dst, rrc)
	return binary.BigEndian.AppendUint64(dst, h.seq)
}

// parseWrapHeader checks the token ID and filler and returns the header fields.
func parseWrapHeader(tok []byte) (wrapHeader, error) {
	if len(tok) < wrapHeaderLen {
		return wrapHeader{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrBadToken, len(tok), wrapHeaderLen)
	}
	if tok[0] != 0x05 || tok[1] != 0x04 {
		return wrapHeader{}, fmt.Errorf("%w: token ID %02x%02x, want 0504", ErrBadToken, tok[0], tok[1])
	}
	if tok[3] != 0xff {
		return wrapHeader{}, fmt.Errorf("%w: filler byte %02x, want ff", ErrBadToken, tok[3])
	}
	if tok[2]&^(flagSentByAcceptor|flagSealed|flagAcceptorSubkey) != 0 {
		return wrapHeader{}, fmt.Errorf("%w: unknown flags %02x", ErrBadToken, tok[2])
	}
	return wrapHeader{
		flags: tok[2],
		ec:    binary.BigEndian.Uint16(tok[4:6]),
		rrc:   binary.BigEndian.Uint16(tok[6:8]),
		seq:   binary.BigEndian.Uint64(tok[8:16]),
	}, nil
}

// wrapKey is a context key with its enctype; only enctypes that use RFC 4121 tokens are
// accepted (AES: 17, 18, 19, 20).
type wrapKey struct {
	key types.EncryptionKey
	et  etype.EType
	// acceptorSeal and initiatorSeal hold the derived keys of the two seal usages for
	// enctypes 17 and 18 (rfc3962.go); other enctypes go through gokrb5.
	acceptorSeal, initiatorSeal *rfc3962Usage
}

// fast returns the cached-key state for usage, or nil to use gokrb5.
func (k wrapKey) fast(usage uint32) *rfc3962Usage {
	switch usage {
	case usageAcceptorSeal:
		return k.acceptorSeal
	case usageInitiatorSeal:
		return k.initiatorSeal
	}
	return nil
}

func newWrapKey(k types.EncryptionKey) (wrapKey, error) {
	switch k.KeyType {
	case 17, 18, 19, 20:
	default:
		return wrapKey{}, fmt.Errorf("%w: session key enctype %d has no RFC 4121 wrap tokens (need an AES enctype)", hberr.ErrKerberos, k.KeyType)
	}
	et, err := crypto.GetEtype(k.KeyType)
	if err != nil {
		return wrapKey{}, fmt.Errorf("%w: enctype %d: %v", hberr.ErrKerberos, k.KeyType, err)
	}
	wk := wrapKey{key: k, et: et}
	if k.KeyType == 17 || k.KeyType == 18 {
		if wk.acceptorSeal, err = newRFC3962Usage(et, k.KeyValue, usageAcceptorSeal); err != nil {
			return wrapKey{}, err
		}
		if wk.initiatorSeal, err = newRFC3962Usage(et, k.KeyValue, usageInitiatorSeal); err != nil {
			return wrapKey{}, err
		}
	}
	return wk, nil
}

func (k wrapKey) checksumLen() int { return k.et.GetHMACBitLength() / 8 }

// appendWrap appends a Wrap token for payload: sealed (encrypted) or integrity-only. We send
// RRC 0 and, for sealed tokens, EC 0 (the AES enctypes need no padding), as Java does.
func (k wrapKey) appendWrap(dst []byte, h wrapHeader, sealed bool, usage uint32, payload []byte) ([]byte, error) {
	if u := k.fast(usage); u != nil {
		var hdr [wrapHeaderLen]byte
		if sealed {
			h.flags |= flagSealed
			dst = h.appendTo(dst, 0, 0)
			return u.seal(dst, payload, h.appendTo(hdr[:0], 0, 0))
		}
		h.flags &^= flagSealed
		sum := u.checksum(payload, h.appendTo(hdr[:0], 0, 0))
		dst = h.appendTo(dst, uint16(len(sum)), 0)
		dst = append(dst, payload...)
		return append(dst, sum...), nil
	}
	if sealed {
		h.flags |= flagSealed
		pt := make([]byte, 0, len(payload)+wrapHeaderLen)
		pt = append(pt, payload...)
		pt = h.appendTo(pt, 0, 0)
		_, ct, err := k.et.EncryptMessage(k.key.KeyValue, pt, usage)
		if err != nil {
			return dst, fmt.Errorf("sasl: seal wrap token: %w", err)
		}
		dst = h.appendTo(dst, 0, 0)
		return append(dst, ct...), nil
	}
	h.flags &^= flagSealed
	sumIn := make([]byte, 0, len(payload)+wrapHeaderLen)
	sumIn = append(sumIn, payload...)
	sumIn = h.appendTo(sumIn, 0, 0)
	sum, err := k.et.GetChecksumHash(k.key.KeyValue, sumIn, usage)
	if err != nil {
		return dst, fmt.Errorf("sasl: wrap token checksum: %w", err)
	}
	sum = sum[:k.checksumLen()]
	dst = h.appendTo(dst, uint16(len(sum)), 0)
	dst = append(dst, payload...)
	return append(dst, sum...), nil
}

// openWrap verifies tok and appends its payload to dst. It checks the cryptography and the
// header copy; the caller checks flags and sequence numbers. On error dst is unchanged.
func (k wrapKey) openWrap(dst, tok []byte, usage uint32) (out []byte, h wrapHeader, err error) {
	// gokrb5's decryption panics on some malformed input; a hostile server must only ever
	// cause an error.
	defer func() {
		if r := recover(); r != nil {
			out, err = dst, fmt.Errorf("%w: undecodable token", ErrBadToken)
		}
	}()
	h, err = parseWrapHeader(tok)
	if err != nil {
		return dst, h, err
	}
	body := rotateLeft(tok[wrapHeaderLen:], int(h.rrc))
	if h.flags&flagSealed != 0 {
		if min := k.et.GetConfounderByteSize() + k.checksumLen() + wrapHeaderLen; len(body) < min {
			return dst, h, fmt.Errorf("%w: sealed body of %d bytes, need at least %d", ErrBadToken, len(body), min)
		}
		var pt []byte
		if u := k.fast(usage); u != nil {
			if pt, err = u.open(body); err != nil {
				return dst, h, err
			}
		} else if pt, err = k.et.DecryptMessage(k.key.KeyValue, body, usage); err != nil {
			return dst, h, fmt.Errorf("%w: sealed token does not decrypt", ErrIntegrity)
		}
		if len(pt) < int(h.ec)+wrapHeaderLen {
			return dst, h, fmt.Errorf("%w: sealed body of %d bytes cannot hold EC %d and the header", ErrBadToken, len(pt), h.ec)
		}
		cp := pt[len(pt)-wrapHeaderLen:]
		// The encrypted header copy must match the clear header (its RRC is zero by rule).
		if !hmac.Equal(cp[:6], tok[:6]) || !hmac.Equal(cp[8:], tok[8:16]) {
			return dst, h, fmt.Errorf("%w: header copy does not match", ErrIntegrity)
		}
		return append(dst, pt[:len(pt)-int(h.ec)-wrapHeaderLen]...), h, nil
	}
	n := k.checksumLen()
	if int(h.ec) != n {
		return dst, h, fmt.Errorf("%w: integrity token EC %d, want checksum length %d", ErrBadToken, h.ec, n)
	}
	if len(body) < n {
		return dst, h, fmt.Errorf("%w: integrity token body of %d bytes is shorter than its checksum", ErrBadToken, len(body))
	}
	payload, got := body[:len(body)-n], body[len(body)-n:]
	if u := k.fast(usage); u != nil {
		var hdr [wrapHeaderLen]byte
		if !hmac.Equal(got, u.checksum(payload, h.appendTo(hdr[:0], 0, 0))) {
			return dst, h, fmt.Errorf("%w: checksum mismatch", ErrIntegrity)
		}
		return append(dst, payload...), h, nil
	}
	sumIn := make([]byte, 0, len(payload)+wrapHeaderLen)
	sumIn = append(sumIn, payload...)
	sumIn = h.appendTo(sumIn, 0, 0)
	want, err := k.et.GetChecksumHash(k.key.KeyValue, sumIn, usage)
	if err != nil {
		return dst, h, fmt.Errorf("%w: %v", ErrIntegrity, err)
	}
	if len(want) < n || !hmac.Equal(got, want[:n]) {
		return dst, h, fmt.Errorf("%w: checksum mismatch", ErrIntegrity)
	}
	return append(dst, payload...), h, nil
}

// rotateLeft undoes the sender's right rotation by rrc (RFC 4121 section 4.2.5). It returns b
// itself when there is nothing to rotate.
func rotateLeft(b []byte, rrc int) []byte {
	if len(b) == 0 {
		return b
	}
	rrc %= len(b)
	if rrc == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	out = append(out, b[rrc:]...)
	return append(out, b[:rrc]...)
}
