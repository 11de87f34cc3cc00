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
	if tlsRecordStart(b[:]) && cfg.TLS == nil {
		return &mismatch{tls: true, cause: cause, msg: "the server answered with a TLS record: " +
			"the cluster requires TLS; connect with hbase.WithTLS (hbase.client.netty.tls.enabled)"}
	}
	return &mismatch{cause: cause, msg: fmt.Sprintf(
		"not an HBase RPC server: its first bytes were %q, no HBase response (is the port a master's or region server's RPC port?)", b[:])}
}

// speaksTLS reports whether the server at addr answers a TLS ClientHello with a TLS record (a
// ServerHello, or an alert refusing this client), on a connection of its own, closed at once.
// The hello is crypto/tls's, certificate checks on; only the header of the first record of
// the answer is read, and the handshake ends there: no certificate is received, no key agreed,
// nothing trusted, and nothing but the hello is sent. ctx bounds it.
func speaksTLS(ctx context.Context, dialer Dialer, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, tlsProbeTimeout)
	defer cancel()
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	defer conn.Close()
	if d, ok := ctx.Deadline(); ok {
		conn.SetDeadline(d) //nolint:errcheck // ctx ends the handshake anyway
	}
	host, _, _ := net.SplitHostPort(addr)
	if host == "" {
		host = "localhost" // only the hello's server name: the handshake stops before any check
	}
	first := &firstRecord{Conn: conn}
	tls.Client(first, &tls.Config{ServerName: host}).HandshakeContext(ctx) //nolint:errcheck // ends at the first record, by design
	return tlsRecordHeader(first.header[:first.n])
}

// errFirstRecord ends the probe's handshake once the header of the answer's first record is in.
var errFirstRecord = errors.New("region: TLS probe: first record header read")

// firstRecord is the probe's connection. Its first Read keeps the first 5 bytes the server
// sends (a TLS record header if the server speaks TLS) and fails, so crypto/tls goes no
// further than its hello.
type firstRecord struct {
	net.Conn
	header [5]byte
	n      int
}

func (f *firstRecord) Read([]byte) (int, error) {
	if f.n < len(f.header) {
		n, err := io.ReadFull(f.Conn, f.header[f.n:])
		f.n += n
		if err != nil {
			return 0, err
		}
	}
	return 0, errFirstRecord
}

// maxTLSRecord is the largest record length a TLS peer may send (TLS 1.2's 2^14 + 2048).
const maxTLSRecord = 1<<14 + 2048

// tlsRecordStart reports whether b begins as a TLS record: a handshake (0x16) or an alert
// (0x15), record version 3.0 to 3.4.
func tlsRecordStart(b []byte) bool {
	return len(b) >= 3 && (b[0] == 0x16 || b[0] == 0x15) && b[1] == 0x03 && b[2] <= 0x04
}

// tlsRecordHeader reports whether h is the header of a TLS server's first record: a handshake
// record of a plausible length, or an alert (2 bytes in the clear, before any key).
func tlsRecordHeader(h []byte) bool {
	if len(h) != 5 || !tlsRecordStart(h) {
		return false
	}
	n := int(binary.BigEndian.Uint16(h[3:]))
	if h[0] == 0x15 {
		return n == 2
	}
	return n >= 4 && n <= maxTLSRecord
}
