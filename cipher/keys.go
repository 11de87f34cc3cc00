package cipher

// Transformation is the only cipher transformation HBase's CryptoAES supports, sent by the
// client in ConnectionHeader.rpc_crypto_cipher_transformation.
const Transformation = "AES/CTR/NoPadding"

// Keys is the key material from the server's CryptoCipherMeta, named from the client's view:
// the client encrypts with OutKey/OutIV and decrypts with InKey/InIV. A server-side layer
// (used by tests and fakes) swaps the pairs.
type Keys struct {
	InKey, InIV   []byte
	OutKey, OutIV []byte
}

// Swapped returns the peer's view of the same keys.
func (k Keys) Swapped() Keys {
	return Keys{InKey: k.OutKey, InIV: k.OutIV, OutKey: k.InKey, OutIV: k.InIV}
}

// String keeps key material out of logs and error messages.
func (k Keys) String() string { return "cipher.Keys{redacted}" }

// GoString keeps key material out of %#v output.
func (k Keys) GoString() string { return k.String() }
