package region

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// A server that closes a new connection before answering anything, or whose first bytes are
// no HBase response, is usually the wrong kind of server for this client: a TLS-only HBase
// (hbase.server.netty.tls.enabled, no supportplaintext) closes a plaintext connection without a
// word, and an HTTP server answers "HTTP/1.1 400". Retrying cannot help, and telling the
// user "connection closed" sends them looking at the network. These functions find out
// which it is and say so.

// tlsProbeTimeout bounds the extra connection that asks a server whether it speaks TLS; the
// context of the call that needs the answer bounds it too, so that no call returns late for
// it (a partitioned server's probe would otherwise hold its caller for the whole second).
const tlsProbeTimeout = time.Second

// ErrNoAnswer is wrapped by the error of a new connection the server closed (or reset)
// before answering anything, when the server is not found to speak TLS either.
var ErrNoAnswer = errors.New("server closed the connection before answering anything")

// mismatch is a server of the wrong kind for the client's settings: a configuration error
// (hberr.ErrConfiguration), about TLS (hberr.ErrTLS) when tls is set.
type mismatch struct {
	msg   string
	tls   bool
	cause error
}

func (e *mismatch) Error() string { return e.msg }

func (e *mismatch) Unwrap() []error {
	errs := []error{hberr.ErrConfiguration}
	if e.tls {
		errs = append(errs, hberr.ErrTLS)
	}
	if e.cause != nil {
		errs = append(errs, e.cause)
	}
	return errs
}

// closedEarly reports whether err is a server closing or resetting a connection.
func closedEarly(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

// unanswered is explainUnanswered for an established connection c, whose reader and writer
// may both find it closed: the server is probed once, in a goroutine of its own, and each
// caller waits for the verdict within its ctx (a lone caller reading, which must not return
// late); one whose ctx ends first gets ErrNoAnswer.
func (c *Client) unanswered(ctx context.Context, cause error) error {
	c.explainOnce.Do(func() {
		c.explainDone = make(chan struct{})
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			c.explained = explainUnanswered(context.Background(), &c.cfg, c.addr, cause)
			close(c.explainDone)
		}()
	})
	select {
	case <-c.explainDone:
		return c.explained
	case <-ctx.Done():
		return fmt.Errorf("%w (%w)", ErrNoAnswer, cause)
	}
}

// explainUnanswered returns the error of a plaintext connection to addr that the server closed
// (cause) before sending a byte: a mismatch when the server speaks TLS, else ErrNoAnswer.
func explainUnanswered(ctx context.Context, cfg *config, addr string, cause error) error {
	if cfg.TLS == nil && speaksTLS(ctx, cfg.Dialer, addr) {
		return &mismatch{tls: true, cause: cause, msg: "the server speaks TLS and closed this plaintext connection: " +
			"the cluster requires TLS; connect with hbase.WithTLS (hbase.client.netty.tls.enabled)"}
	}
	return fmt.Errorf("%w (%w)", ErrNoAnswer, cause)
}

// explainForeign returns the error of a connection whose first bytes from the server (first,
// the frame length prefix as read) are no HBase response: a TLS record, or something else.
func explainForeign(cfg *config, first uint32, cause error) error {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], first)
	if (b[0] == 0x15 || b[0] == 0x16) && b[1] == 0x03 && cfg.TLS == nil {
		return &mismatch{tls: true, cause: cause, msg: "the server answered with a TLS record: " +
			"the cluster requires TLS; connect with hbase.WithTLS (hbase.client.netty.tls.enabled)"}
	}
	return &mismatch{cause: cause, msg: fmt.Sprintf(
		"not an HBase RPC server: its first bytes were %q, no HBase response (is the port a master's or region server's RPC port?)", b[:])}
}

// speaksTLS reports whether the server at addr answers a TLS ClientHello in TLS (a hello, or
// an alert refusing this client), on a connection of its own, closed at once. Nothing but the
// handshake is sent: the certificate is not checked, because no data follows. ctx bounds it.
func speaksTLS(ctx context.Context, dialer Dialer, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, tlsProbeTimeout)
	defer cancel()
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	defer conn.Close()
	host, _, _ := net.SplitHostPort(addr)
	tc := tls.Client(conn, &tls.Config{InsecureSkipVerify: true, ServerName: host}) //nolint:gosec // a probe: no data is sent
	err = tc.HandshakeContext(ctx)
	if err == nil {
		return true
	}
	op, ok := errors.AsType[*net.OpError](err)
	return ok && op.Op == "remote error" // an alert: the server talks TLS, and refused us
}
