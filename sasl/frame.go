package sasl

import (
	"encoding/binary"
	"fmt"
	"io"
	"unicode/utf8"
)

// Status words and special lengths of the HBase SASL exchange (ServerRpcConnection,
// SaslUtil, and for -89 the seeds' HBASE-16633 design).
const (
	statusSuccess       = 0
	statusError         = 1
	switchToSimpleAuth  = -88
	useNegotiatedCipher = -89
)

// DefaultMaxTokenSize bounds one server message during the handshake. Kerberos tokens are a
// few KB; a larger length is a broken or hostile peer.
const DefaultMaxTokenSize = 1 << 20

// serverMessage is one message the server sends during the SASL exchange.
type serverMessage struct {
	token          []byte
	switchToSimple bool   // status SUCCESS, length -88
	cipherToken    []byte // status SUCCESS, length -89, then a Wrap token (patched servers only)
}

// cipherProposal is a patched server's answer to USE_NEGOTIATED_CIPHER: the chosen suite
// and the keys, named from the client's view (it encrypts with Out*, decrypts with In*).
type cipherProposal struct {
	suite                      string
	inKey, outKey, inIV, outIV []byte
}

// String keeps keys out of logs.
func (p *cipherProposal) String() string { return "cipherProposal{" + p.suite + ", keys redacted}" }

// readServerMessage reads one SASL reply: int32 status, then on SUCCESS int32 length + token
// (or a special length), on ERROR two length-prefixed strings (exception class, message).
func readServerMessage(r io.Reader, maxLen int) (serverMessage, error) {
	status, err := readInt32(r)
	if err != nil {
		return serverMessage{}, err
	}
	switch status {
	case statusSuccess:
	case statusError:
		class, err := readString(r, maxLen)
		if err != nil {
			return serverMessage{}, fmt.Errorf("reading server error class: %w", err)
		}
		msg, err := readString(r, maxLen)
		if err != nil {
			return serverMessage{}, fmt.Errorf("reading server error message: %w", err)
		}
		return serverMessage{}, &ServerError{Class: class, Message: msg}
	default:
		return serverMessage{}, fmt.Errorf("%w: unknown SASL status %d", ErrProtocol, status)
	}
	n, err := readInt32(r)
	if err != nil {
		return serverMessage{}, err
	}
	switch {
	case n == switchToSimpleAuth:
		return serverMessage{switchToSimple: true}, nil
	case n == useNegotiatedCipher:
		// The keys travel inside a SASL Wrap token so only the security context can read them.
		tok, err := readBytes(r, maxLen)
		if err != nil {
			return serverMessage{}, fmt.Errorf("reading negotiated cipher token: %w", err)
		}
		return serverMessage{cipherToken: tok}, nil
	case n < 0:
		return serverMessage{}, fmt.Errorf("%w: negative token length %d", ErrProtocol, n)
	}
	tok, err := readN(r, int(n), maxLen)
	if err != nil {
		return serverMessage{}, err
	}
	return serverMessage{token: tok}, nil
}

// readCipherProposal parses the unwrapped -89 payload: suite string, then inKey, outKey,
// inIV, outIV as int32 length + bytes each.
func readCipherProposal(r io.Reader, maxLen int) (*cipherProposal, error) {
	var p cipherProposal
	var err error
	if p.suite, err = readString(r, maxLen); err != nil {
		return nil, fmt.Errorf("reading negotiated cipher suite: %w", err)
	}
	for _, b := range []*[]byte{&p.inKey, &p.outKey, &p.inIV, &p.outIV} {
		if *b, err = readBytes(r, maxLen); err != nil {
			return nil, fmt.Errorf("reading negotiated cipher keys: %w", err)
		}
	}
	return &p, nil
}

func readInt32(r io.Reader) (int32, error) {
	var b [4]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, truncated(err)
	}
	return int32(binary.BigEndian.Uint32(b[:])), nil
}

// readBytes reads int32 length + bytes (Hadoop's BytesWritable layout).
func readBytes(r io.Reader, maxLen int) ([]byte, error) {
	n, err := readInt32(r)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: negative length %d", ErrProtocol, n)
	}
	return readN(r, int(n), maxLen)
}

// readString reads Hadoop's WritableUtils string: int32 length (-1 for null) + UTF-8.
func readString(r io.Reader, maxLen int) (string, error) {
	n, err := readInt32(r)
	if err != nil {
		return "", err
	}
	if n == -1 {
		return "", nil
	}
	if n < 0 {
		return "", fmt.Errorf("%w: negative string length %d", ErrProtocol, n)
	}
	b, err := readN(r, int(n), maxLen)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: string is not UTF-8", ErrProtocol)
	}
	return string(b), nil
}

func readN(r io.Reader, n, maxLen int) ([]byte, error) {
	if n > maxLen {
		return nil, fmt.Errorf("%w: %d bytes (limit %d)", ErrTokenTooLarge, n, maxLen)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, truncated(err)
	}
	return b, nil
}

// truncated turns a clean EOF inside a message into io.ErrUnexpectedEOF.
func truncated(err error) error {
	if err == io.EOF {
		return fmt.Errorf("%w: connection closed during SASL exchange: %w", ErrProtocol, io.ErrUnexpectedEOF)
	}
	return err
}

// appendToken appends the client's SASL message: int32 length + token.
func appendToken(dst, tok []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(tok)))
	return append(dst, tok...)
}

// appendString appends a WritableUtils string.
func appendString(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// negotiatedCipherWord is useNegotiatedCipher (-89) as it goes on the wire.
const negotiatedCipherWord uint32 = 0xFFFFFFA7
