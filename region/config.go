package region

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/go-hbase/hbase/internal/pb"
)

// Option configures a connection made by Dial. Like every option of the module it checks its
// argument, and Dial returns the first bad one. WithService is required.
type Option func(*config) error

// config is what the options set; zero values mean the defaults.
type config struct {
	// Service is the RPC service the connection is for: "ClientService", "MasterService" or
	// "AdminService" (sent in the ConnectionHeader).
	Service string
	// User is the effective user sent in the ConnectionHeader (SIMPLE authentication); empty
	// means the OS user.
	User string
	// Handshaker, when set, replaces the plain SIMPLE connection setup: it writes the preamble,
	// runs SASL, sends the connection header and negotiates a cipher. nil means SIMPLE.
	Handshaker Handshaker
	// Logger receives connection life-cycle events; nil discards them.
	Logger *slog.Logger

	// MaxFrameSize caps the size of one response frame, one request frame and one security
	// layer token (default DefaultMaxFrameSize). A larger frame from the server kills the
	// connection with an error wrapping ErrFrameTooLarge.
	MaxFrameSize int
	// ReadBufferSize is the size of the reader's bufio.Reader (default 64 KiB).
	ReadBufferSize int
	// WriteTimeout bounds one write to the socket (default 30s, negative: none). A server that
	// stops reading for that long kills the connection. Writes are shared by coalesced calls,
	// so they are not bounded by any one call's context.
	WriteTimeout time.Duration
	// MaxWrapSize is the largest plaintext passed to one Layer.Wrap (default 64 KiB); larger
	// coalesced writes are split into several tokens (the peer reads them as a stream).
	MaxWrapSize int
	// Dialer dials the TCP connection; nil means a zero net.Dialer.
	Dialer Dialer
	// TLS, when set, runs TLS on the connection before anything else (HBase 2.6+ native TLS);
	// a server that does not speak TLS fails the dial. Its ServerName defaults to the host dialled.
	TLS *tls.Config
	// TraceContext sends the trace context of each call's context (ContextWithTraceInfo) in
	// its RequestHeader (WithTraceContext).
	TraceContext bool
	// Attributes are the ConnectionHeader's attributes (WithConnectionAttributes).
	Attributes []*pb.NameBytesPair

	// netConnIO keeps net.Conn's own reads and writes instead of rawConn's: the reference
	// TestRawIOAgainstRealHBase measures rawConn against.
	netConnIO bool
	// idleWatch replaces idleWatchDelay (lone.go) when set: tests that need a connection
	// nobody watches.
	idleWatch time.Duration
}

// Default limits.
const (
	DefaultMaxFrameSize   = 256 << 20
	defaultReadBufferSize = 64 << 10
	defaultWriteTimeout   = 30 * time.Second
	defaultMaxWrapSize    = 64 << 10
)

// KeyValueCodec is the cellblock codec announced in the ConnectionHeader.
const KeyValueCodec = "org.apache.hadoop.hbase.codec.KeyValueCodec"

// Priorities understood by HBase (HConstants): requests above NormalPriority are served by the
// server's priority handlers (meta lookups use HighPriority).
const (
	NormalPriority = 0
	HighPriority   = 200
)

// Handshaker is the security hook, implemented by package sasl (which uses package cipher for
// AES).
type Handshaker interface {
	// Handshake runs on a freshly dialled connection: preamble (auth code 81/82), the SASL
	// exchange, the ConnectionHeader hdr (wrapped when the QoP is not auth, with
	// rpc_crypto_cipher_transformation set when AES is wanted) and the optional
	// ConnectionHeaderResponse. It returns the Layer that frames every later byte each way
	// (int32 length + Wrap(bytes)), or nil for plaintext after authentication. It must not read
	// past the end of the handshake: region reads everything after it.
	Handshake(ctx context.Context, conn net.Conn, serverHost string, hdr *pb.ConnectionHeader) (Layer, error)
}

// Layer is a SASL security layer (GSS Wrap) or CryptoAES. region frames it: each write of
// plaintext p goes out as be32(len(t)) || t with t = Wrap(p); reads unwrap frames into a stream.
// Wrap is only called by one goroutine at a time, and so is Unwrap (they may run concurrently
// with each other).
type Layer interface {
	Wrap(dst, plain []byte) ([]byte, error)   // appends the token to dst
	Unwrap(dst, token []byte) ([]byte, error) // appends the plaintext to dst
}

// SplitLayer is a Layer whose Wrap splits in two, so that the writer keeps only the
// stream-ordered part under its lock and each caller computes its own token's MAC in parallel
// with the others (CryptoAES). With a SplitLayer each call's frame is wrapped on its own instead
// of together with the calls it is written with.
type SplitLayer interface {
	Layer
	// WrapOrdered appends the token for plain with its MAC field (the bytes right after the
	// ciphertext of plain) not yet complete; seq names the token for Seal. Tokens are sent in
	// the order of their WrapOrdered calls.
	WrapOrdered(dst, plain []byte) (token []byte, seq uint32)
	// Seal appends the bytes to XOR into token seq's MAC field. Any goroutine, any order.
	Seal(dst []byte, seq uint32, plain []byte) []byte
}

// WithService sets the RPC service the connection is for: "ClientService", "MasterService" or
// "AdminService" (sent in the ConnectionHeader). Required.
func WithService(name string) Option {
	return func(c *config) error {
		if name == "" {
			return errors.New("region: empty service name")
		}
		c.Service = name
		return nil
	}
}

// WithUser sets the effective user sent in the ConnectionHeader (SIMPLE authentication). The
// default is the OS user.
func WithUser(user string) Option {
	return func(c *config) error {
		if user == "" {
			return errors.New("region: empty user")
		}
		c.User = user
		return nil
	}
}

// WithHandshaker replaces the plain SIMPLE connection setup with h (package sasl's Kerberos
// handshake): it writes the preamble, runs SASL, sends the connection header and negotiates a
// cipher.
func WithHandshaker(h Handshaker) Option {
	return func(c *config) error {
		if h == nil {
			return errors.New("region: nil Handshaker")
		}
		c.Handshaker = h
		return nil
	}
}

// WithLogger sets the logger of connection life-cycle events. The default discards them.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("region: nil logger")
		}
		c.Logger = l
		return nil
	}
}

// WithMaxFrameSize caps the size of one response frame, one request frame and one security
// layer token (default DefaultMaxFrameSize). A larger frame from the server kills the
// connection with an error wrapping ErrFrameTooLarge.
func WithMaxFrameSize(n int) Option {
	return func(c *config) error {
		if n < 1024 {
			return fmt.Errorf("region: max frame size %d below 1 KiB", n)
		}
		c.MaxFrameSize = n
		return nil
	}
}

// WithReadBufferSize sets the size of the reader's buffer (default 64 KiB).
func WithReadBufferSize(n int) Option {
	return func(c *config) error {
		if n < 16 {
			return fmt.Errorf("region: read buffer size %d below 16 bytes", n)
		}
		c.ReadBufferSize = n
		return nil
	}
}

// WithWriteTimeout bounds one write to the socket (default 30 s; negative: none). A server that
// stops reading for that long kills the connection. Writes are shared by coalesced calls, so
// they are not bounded by any one call's context.
func WithWriteTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d == 0 {
			return errors.New("region: zero write timeout (negative means none)")
		}
		c.WriteTimeout = d
		return nil
	}
}

// WithMaxWrapSize sets the largest plaintext passed to one Layer.Wrap (default 64 KiB); larger
// coalesced writes are split into several tokens (the peer reads them as a stream).
func WithMaxWrapSize(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("region: max wrap size %d is not positive", n)
		}
		c.MaxWrapSize = n
		return nil
	}
}

// Dialer dials the TCP connection of a region connection (a *net.Dialer does).
type Dialer interface {
	DialContext(ctx context.Context, network, addr string) (net.Conn, error)
}

// WithDialer sets the dialer of the TCP connection. The default is a zero net.Dialer.
func WithDialer(d Dialer) Option {
	return func(c *config) error {
		if d == nil {
			return errors.New("region: nil Dialer")
		}
		c.Dialer = d
		return nil
	}
}

// WithConnectionAttributes sends attrs in the ConnectionHeader (HBase 2.6+ connection
// attributes, which server-side code reads from the RPC call: RpcCall.getConnectionAttributes).
// Each needs a name.
func WithConnectionAttributes(attrs []*pb.NameBytesPair) Option {
	return func(c *config) error {
		for _, a := range attrs {
			if a == nil || a.GetName() == "" {
				return errors.New("region: connection attribute without a name")
			}
		}
		c.Attributes = append(c.Attributes, attrs...)
		return nil
	}
}

// withNetConnIO keeps net.Conn's own reads and writes (tests measure rawConn against it).
func withNetConnIO() Option {
	return func(c *config) error {
		c.netConnIO = true
		return nil
	}
}

// withIdleWatch sets how long a connection with lone reading stays unwatched (lone.go).
func withIdleWatch(d time.Duration) Option {
	return func(c *config) error {
		c.idleWatch = d
		return nil
	}
}

// CheckOptions reports the first bad option without dialling, so that a client can check the
// options of connections it will make later when it is created.
func CheckOptions(opts ...Option) error {
	_, err := newConfig(append([]Option{WithService("ClientService")}, opts...))
	return err
}

func newConfig(opts []Option) (config, error) {
	var c config
	for _, o := range opts {
		if o == nil {
			return c, errors.New("region: nil Option")
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	if c.Service == "" {
		return c, errors.New("region: no WithService")
	}
	return c.withDefaults(), nil
}

func (c config) withDefaults() config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.MaxFrameSize <= 0 {
		c.MaxFrameSize = DefaultMaxFrameSize
	}
	if c.ReadBufferSize <= 0 {
		c.ReadBufferSize = defaultReadBufferSize
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = defaultWriteTimeout
	}
	if c.MaxWrapSize <= 0 {
		c.MaxWrapSize = defaultMaxWrapSize
	}
	if c.Dialer == nil {
		c.Dialer = &net.Dialer{}
	}
	return c
}

// WithTLS runs TLS over the connection (HBase 2.6+ native TLS, hbase.server.netty.tls.enabled)
// before the preamble; SASL, if any, runs inside it. cfg is cloned; an empty ServerName is set
// to the host dialled. A server that does not answer TLS fails the dial with hberr.ErrTLS.
func WithTLS(cfg *tls.Config) Option {
	return func(c *config) error {
		if cfg == nil {
			return errors.New("region: nil TLS config")
		}
		c.TLS = cfg.Clone()
		return nil
	}
}
