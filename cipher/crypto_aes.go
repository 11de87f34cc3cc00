package cipher

import (
	"bytes"
	"crypto/aes"
	stdcipher "crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"hash"
	"strings"
	"sync"
)

const (
	// MACSize is the length of the truncated HMAC-MD5 carried in each frame.
	MACSize = 10
	// seqSize is the length of the clear sequence number that ends each frame.
	seqSize = 4
	// Overhead is how many bytes Wrap adds to a message.
	Overhead = MACSize + seqSize
)

// CryptoAES is one connection's CryptoAES layer. Wrap and Unwrap keep independent state, so
// one goroutine may wrap while another unwraps; calls in the same direction are serialised
// because each direction is a single ordered stream.
type CryptoAES struct {
	out direction
	in  direction
	// macs are outbound HMACs for Seal, which runs outside out.mu.
	macs sync.Pool
}

// direction is the state of one side of the stream: the CTR keystream position, the HMAC keyed
// with that side's AES key and the next sequence number.
type direction struct {
	mu     sync.Mutex
	stream stdcipher.Stream
	mac    hash.Hash
	seq    uint32
	failed error // sticky: set once Unwrap fails
	// scratch for the sequence number and the full MAC, so steady state does not allocate.
	seqBuf [seqSize]byte
	sum    [md5.Size]byte
}

// New returns the client side of a CryptoAES layer for transformation (which must be
// AES/CTR/NoPadding, compared case-insensitively as HBase does) with the server-issued keys.
// Keys must be 16, 24 or 32 bytes and IVs 16 bytes. The key slices are copied.
func New(transformation string, k Keys) (*CryptoAES, error) {
	if !strings.EqualFold(transformation, Transformation) {
		return nil, fmt.Errorf("%w: %q (want %s)", ErrTransformation, transformation, Transformation)
	}
	c := &CryptoAES{}
	if err := c.out.init("out", k.OutKey, k.OutIV); err != nil {
		return nil, err
	}
	if err := c.in.init("in", k.InKey, k.InIV); err != nil {
		return nil, err
	}
	outKey := bytes.Clone(k.OutKey)
	c.macs.New = func() any { return &macState{h: hmac.New(md5.New, outKey)} }
	return c, nil
}

func (d *direction) init(name string, key, iv []byte) error {
	switch len(key) {
	case 16, 24, 32:
	default:
		return fmt.Errorf("%w: %s key is %d bytes, want 16, 24 or 32", ErrKey, name, len(key))
	}
	if len(iv) != aes.BlockSize {
		return fmt.Errorf("%w: %s IV is %d bytes, want %d", ErrKey, name, len(iv), aes.BlockSize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return fmt.Errorf("%w: %s key: %v", ErrKey, name, err)
	}
	// NewCTR copies the IV and hmac.New copies the key, so the caller's slices are not retained.
	d.stream = stdcipher.NewCTR(block, iv)
	d.mac = hmac.New(md5.New, key)
	return nil
}

// macOf computes HMAC-MD5(key, be32(seq) || msg) into d.sum and returns its first MACSize bytes.
func (d *direction) macOf(seq uint32, msg []byte) []byte {
	binary.BigEndian.PutUint32(d.seqBuf[:], seq)
	d.mac.Reset()
	d.mac.Write(d.seqBuf[:])
	d.mac.Write(msg)
	return d.mac.Sum(d.sum[:0])[:MACSize]
}

// Wrap appends the frame for plain to dst: CTR(plain || mac10) || be32(seq). plain may not
// overlap dst's spare capacity.
func (c *CryptoAES) Wrap(dst, plain []byte) ([]byte, error) {
	d := &c.out
	d.mu.Lock()
	defer d.mu.Unlock()
	mac := d.macOf(d.seq, plain)
	start := len(dst)
	dst = append(dst, plain...)
	dst = append(dst, mac...)
	d.stream.XORKeyStream(dst[start:], dst[start:])
	dst = binary.BigEndian.AppendUint32(dst, d.seq)
	// Java's int counter wraps the same way, so the peer expects the wrapped value.
	d.seq++
	return dst, nil
}

// WrapOrdered and Seal split Wrap so that only its cheap, stream-ordered part runs where frames
// are put in order (a connection's write lock) and the MAC, which costs several times the
// AES-CTR on AES-NI hardware, runs on the calling goroutine in parallel with other callers.
//
// WrapOrdered appends a frame for plain whose MAC field (the MACSize bytes after the
// ciphertext of plain) holds only the keystream; seq is the frame's sequence number. Frames must
// be sent in the order WrapOrdered was called.
//
// Seal appends the MAC of plain under sequence number seq to dst; XORed into that field it
// completes the frame, which is then byte for byte what Wrap would have produced. Seal may be
// called from any goroutine, in any order, concurrently with everything but Wrap/WrapOrdered's
// use of the same frame.
func (c *CryptoAES) WrapOrdered(dst, plain []byte) (frame []byte, seq uint32) {
	d := &c.out
	d.mu.Lock()
	defer d.mu.Unlock()
	seq = d.seq
	d.seq++
	start := len(dst)
	dst = append(dst, plain...)
	dst = append(dst, make([]byte, MACSize)...) // the keystream of the MAC field; make does not escape
	d.stream.XORKeyStream(dst[start:], dst[start:])
	return binary.BigEndian.AppendUint32(dst, seq), seq
}

// Seal: see WrapOrdered.
func (c *CryptoAES) Seal(dst []byte, seq uint32, plain []byte) []byte {
	m := c.macs.Get().(*macState)
	binary.BigEndian.PutUint32(m.seq[:], seq)
	m.h.Reset()
	m.h.Write(m.seq[:])
	m.h.Write(plain)
	dst = append(dst, m.h.Sum(m.sum[:0])[:MACSize]...)
	c.macs.Put(m)
	return dst
}

// macState is one goroutine's HMAC for Seal; pooled so steady state does not allocate.
type macState struct {
	h   hash.Hash
	seq [seqSize]byte
	sum [md5.Size]byte
}

// Unwrap appends the message carried in token to dst after checking its MAC and sequence
// number. On any failure dst is returned unchanged (nothing of the frame reaches the caller)
// and the layer refuses every later frame.
func (c *CryptoAES) Unwrap(dst, token []byte) ([]byte, error) {
	d := &c.in
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failed != nil {
		return dst, fmt.Errorf("%w: %w", ErrFailed, d.failed)
	}
	if len(token) < Overhead {
		d.failed = fmt.Errorf("%w: %d bytes, need at least %d", ErrShortFrame, len(token), Overhead)
		return dst, d.failed
	}
	body := token[:len(token)-seqSize]
	seq := binary.BigEndian.Uint32(token[len(token)-seqSize:])
	start := len(dst)
	dst = append(dst, body...)
	d.stream.XORKeyStream(dst[start:], dst[start:])
	msg := dst[start : len(dst)-MACSize]
	got := dst[len(dst)-MACSize:]
	want := d.macOf(seq, msg)
	if !hmac.Equal(got, want) {
		d.failed = fmt.Errorf("%w (frame sequence number %d)", ErrMAC, seq)
		clear(dst[start:])
		return dst[:start], d.failed
	}
	if seq != d.seq {
		d.failed = fmt.Errorf("%w: got %d, expected %d", ErrSequence, seq, d.seq)
		clear(dst[start:])
		return dst[:start], d.failed
	}
	d.seq++
	return dst[:len(dst)-MACSize], nil
}

// String keeps key material out of logs and %v output.
func (c *CryptoAES) String() string { return "cipher.CryptoAES{" + Transformation + "}" }

// GoString keeps key material out of %#v output.
func (c *CryptoAES) GoString() string { return c.String() }
