package sasl

import (
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"sync"
)

// gssLayer is the GSSAPI security layer of an established context: Wrap makes initiator
// tokens, Unwrap accepts only acceptor tokens carrying the next expected sequence number.
// It implements region.Layer.
type gssLayer struct {
	key wrapKey
	// acceptorSubkey is set when the AP-REP carried a subkey: both sides then use it and
	// every token carries the AcceptorSubkey flag.
	acceptorSubkey bool
	// seal makes Wrap produce sealed tokens and Unwrap refuse unsealed ones (auth-conf).
	seal bool

	sendMu  sync.Mutex
	sendSeq uint64

	recvMu  sync.Mutex
	recvSeq uint64
	failed  error
}

// Wrap appends a Wrap token for plain to dst.
func (l *gssLayer) Wrap(dst, plain []byte) ([]byte, error) {
	return l.wrap(dst, plain, l.seal)
}

func (l *gssLayer) wrap(dst, plain []byte, seal bool) ([]byte, error) {
	l.sendMu.Lock()
	defer l.sendMu.Unlock()
	h := wrapHeader{seq: l.sendSeq}
	if l.acceptorSubkey {
		h.flags |= flagAcceptorSubkey
	}
	out, err := l.key.appendWrap(dst, h, seal, usageInitiatorSeal, plain)
	if err != nil {
		return dst, err
	}
	l.sendSeq++
	return out, nil
}

// Unwrap verifies token and appends its payload to dst. Any failure is fatal for the layer;
// dst is then returned unchanged.
func (l *gssLayer) Unwrap(dst, token []byte) ([]byte, error) {
	return l.unwrap(dst, token, l.seal)
}

func (l *gssLayer) unwrap(dst, token []byte, requireSeal bool) ([]byte, error) {
	l.recvMu.Lock()
	defer l.recvMu.Unlock()
	if l.failed != nil {
		return dst, fmt.Errorf("%w: %w", ErrLayerFailed, l.failed)
	}
	out, h, err := l.key.openWrap(dst, token, usageAcceptorSeal)
	if err == nil {
		err = l.checkHeader(h, requireSeal)
	}
	if err != nil {
		l.failed = err
		clear(out[len(dst):])
		return dst, err
	}
	l.recvSeq++
	return out, nil
}

func (l *gssLayer) checkHeader(h wrapHeader, requireSeal bool) error {
	if h.flags&flagSentByAcceptor == 0 {
		return fmt.Errorf("%w: token not sent by the acceptor (reflected?)", ErrIntegrity)
	}
	if (h.flags&flagAcceptorSubkey != 0) != l.acceptorSubkey {
		return fmt.Errorf("%w: acceptor-subkey flag %v, expected %v", ErrBadToken, h.flags&flagAcceptorSubkey != 0, l.acceptorSubkey)
	}
	if requireSeal && h.flags&flagSealed == 0 {
		return fmt.Errorf("%w: unsealed token under privacy", hberr.ErrDowngrade)
	}
	if h.seq != l.recvSeq {
		return fmt.Errorf("%w: got %d, expected %d", ErrSequence, h.seq, l.recvSeq)
	}
	return nil
}

// String keeps the session key out of logs and %v output.
func (l *gssLayer) String() string {
	if l.seal {
		return "sasl.gssLayer{auth-conf}"
	}
	return "sasl.gssLayer{auth-int}"
}

// GoString keeps the session key out of %#v output.
func (l *gssLayer) GoString() string { return l.String() }
