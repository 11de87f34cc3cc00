package region

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// layerReader turns the peer's stream of be32 length | token frames into the plaintext stream
// of RPC frames (a frame may span tokens and a token may hold several frames).
type layerReader struct {
	src      *bufio.Reader
	layer    Layer
	maxToken int

	token []byte  // reused
	lb    [4]byte // a field, not a local: passed to io.ReadFull a local escapes, once per token
	plain []byte  // unwrapped bytes not yet read (reused)
	off   int
}

func (l *layerReader) Read(p []byte) (int, error) {
	for l.off == len(l.plain) {
		if err := l.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, l.plain[l.off:])
	l.off += n
	return n, nil
}

func (l *layerReader) fill() error {
	if _, err := io.ReadFull(l.src, l.lb[:]); err != nil {
		return err // io.EOF between tokens is a clean end of stream
	}
	n := binary.BigEndian.Uint32(l.lb[:])
	if int64(n) > int64(l.maxToken) {
		return fmt.Errorf("%w: security layer token of %d bytes (limit %d)", ErrFrameTooLarge, n, l.maxToken)
	}
	var err error
	if l.token, err = readGrowing(l.src, l.token, int(n)); err != nil {
		return unexpected(err)
	}
	plain, err := l.layer.Unwrap(l.plain[:0], l.token)
	if err != nil {
		return fmt.Errorf("security layer unwrap: %w", err)
	}
	l.plain, l.off = plain, 0
	return nil
}
