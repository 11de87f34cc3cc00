package cipher

import "errors"

var (
	// ErrTransformation is returned for a cipher transformation other than AES/CTR/NoPadding.
	ErrTransformation = errors.New("cipher: unsupported transformation")
	// ErrKey is returned for keys or IVs of the wrong size.
	ErrKey = errors.New("cipher: bad key material")
	// ErrShortFrame is returned by Unwrap for a frame too short to hold a MAC and a sequence
	// number.
	ErrShortFrame = errors.New("cipher: CryptoAES frame truncated")
	// ErrMAC is returned by Unwrap when the frame's MAC does not match: the frame was altered
	// or was not produced with this connection's keys.
	ErrMAC = errors.New("cipher: CryptoAES MAC mismatch")
	// ErrSequence is returned by Unwrap for a frame whose sequence number is not the next one
	// expected: a replayed, dropped or reordered frame.
	ErrSequence = errors.New("cipher: CryptoAES sequence number out of order")
	// ErrFailed is returned by every Unwrap after one failed: the inbound keystream is out of
	// step with the peer and the connection must be closed.
	ErrFailed = errors.New("cipher: CryptoAES layer failed earlier")
)
