package hbase

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

// Option configures a Client. Options are checked by NewClient, which reports the first bad
// one with an error wrapping hberr.ErrConfiguration.
type Option func(*options) error

type options struct {
	zkParent         string
	zkSessionTimeout time.Duration
	user             string
	logger           *slog.Logger
	minBackoff       time.Duration
	maxBackoff       time.Duration
	lookupTimeout    time.Duration
	// maxAttempts caps the attempts of one call (WithMaxAttempts); 0: only the context does.
	maxAttempts int
	// writeBuffer is the default bound of BufferedWriters (WithDefaultWriteBuffer); 0: 2 MiB.
	writeBuffer int64
	// suspectTimeout is how long a server whose call got no answer in its caller's time has
	// to answer a probe before its connection is dropped (Client.suspect).
	suspectTimeout time.Duration
	scanLeaseRenew time.Duration
	handshaker     region.Handshaker
	// connOptions are added to the options of every region server connection (WithDialer's
	// dialer).
	connOptions []region.Option
	// bootstrap are the servers of the connection registry (WithBootstrapServers); when set,
	// ZooKeeper is not used.
	bootstrap []string
	// tls, when set, runs TLS on every connection (WithTLS).
	tls *tls.Config
	// locateMeta replaces the ZooKeeper lookup of hbase:meta (tests).
	locateMeta func(ctx context.Context) (string, error)
	// hooks receive the client's events (WithHooks).
	hooks []*hbasetrace.Hooks
	// serverLatency keeps latency histograms per region server (WithServerLatency).
	serverLatency bool
	// overloadPause is the first pause after an overloaded server's refusal (WithOverloadPause).
	overloadPause time.Duration
	// backpressureMax is the longest delay of a write to a loaded server; 0: backpressure off
	// (WithBackpressure).
	backpressureMax time.Duration
	// connAttrs are sent in every connection's header (WithConnectionAttribute).
	connAttrs []*pb.NameBytesPair
	// hedge is how Timeline reads are hedged (hedge.go).
	hedge hedgeOptions
	// metaReplicaLookups spreads lookups over hbase:meta's replicas (WithMetaReplicaLookups).
	metaReplicaLookups bool
}

func defaultOptions() options {
	return options{
		zkParent:         "/hbase",
		zkSessionTimeout: 30 * time.Second,
		user:             "go-hbase",
		logger:           slog.New(slog.DiscardHandler),
		minBackoff:       10 * time.Millisecond,
		maxBackoff:       time.Second,
		lookupTimeout:    10 * time.Second,
		suspectTimeout:   3 * time.Second,
		scanLeaseRenew:   20 * time.Second,
		serverLatency:    true,
		overloadPause:    defaultOverloadPause,
		hedge:            defaultHedgeOptions(),
	}
}

// WithZNodeParent sets the znode under which HBase keeps its state (zookeeper.znode.parent).
// The default is "/hbase".
func WithZNodeParent(parent string) Option {
	return func(o *options) error {
		if len(parent) == 0 || parent[0] != '/' {
			return fmt.Errorf("hbase: znode parent %q must start with '/'", parent)
		}
		o.zkParent = parent
		return nil
	}
}

// WithZKSessionTimeout sets the ZooKeeper session timeout. The default is 30 s.
func WithZKSessionTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("hbase: ZooKeeper session timeout %v must be positive", d)
		}
		o.zkSessionTimeout = d
		return nil
	}
}

// WithUser sets the effective user sent to the servers with SIMPLE authentication. The
// default is "go-hbase".
func WithUser(user string) Option {
	return func(o *options) error {
		if user == "" {
			return errors.New("hbase: user must not be empty")
		}
		o.user = user
		return nil
	}
}

// WithLogger sets the logger. The default discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("hbase: logger must not be nil")
		}
		o.logger = l
		return nil
	}
}

// WithMaxBackoff caps the pause between two retries of a call that failed with a transient
// error (and between two re-lookups of a region that is not served yet). Pauses start at
// 10 ms and double, with full jitter. The default cap is 1 s.
func WithMaxBackoff(d time.Duration) Option {
	return func(o *options) error {
		if d < time.Millisecond {
			return fmt.Errorf("hbase: max backoff %v is below 1ms", d)
		}
		o.maxBackoff = d
		if o.minBackoff > d {
			o.minBackoff = d
		}
		return nil
	}
}

// WithMaxAttempts caps how many times a call is sent before it fails with an *hberr.AttemptsError
// (wrapping hberr.ErrAttemptsExhausted and the last failure), besides its context: whichever ends
// first ends the call. An attempt is one failed try: an RPC to the region (or, for a batch, to
// the action's region) or a failed lookup of the region. Final errors (a missing table, a
// closed client) end the call at the first attempt anyway. Waiting while the client itself
// relocates a region is not an attempt; the context bounds it. n must be at least 1; 1 is the
// same as WithNoRetries. The request option hrpc.MaxAttempts overrides it for one request. The
// default is no cap: retry until the context ends.
func WithMaxAttempts(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("hbase: max attempts %d is below 1", n)
		}
		o.maxAttempts = n
		return nil
	}
}

// WithNoRetries makes every call fail at its first failure, with an *hberr.AttemptsError wrapping
// it (WithMaxAttempts(1)). The client still learns from the failure: a moved region is looked
// up again for the next call. hrpc.MaxAttempts overrides it for one request.
func WithNoRetries() Option { return WithMaxAttempts(1) }

// WithRegionLookupTimeout bounds one attempt to locate a region (hbase:meta lookup, dial,
// probe) made by the client's background goroutines, which have no caller context. Callers
// waiting for the region still stop waiting when their own context ends. The default is 10 s.
func WithRegionLookupTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("hbase: region lookup timeout %v must be positive", d)
		}
		o.lookupTimeout = d
		return nil
	}
}

// WithScannerLeaseRenewal sets how long a Scanner may sit idle between two Next calls before
// it renews its server-side lease (the server's hbase.client.scanner.timeout.period defaults
// to 60 s). The default is 20 s.
func WithScannerLeaseRenewal(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("hbase: scanner lease renewal period %v must be positive", d)
		}
		o.scanLeaseRenew = d
		return nil
	}
}

// withHandshaker sets the connection security hook used for every region server connection
// instead of the Kerberos security options (tests: a handshaker of their own).
func withHandshaker(h region.Handshaker) Option {
	return func(o *options) error {
		if _, ok := o.handshaker.(*security); ok {
			return errors.New("hbase: a handshaker cannot be combined with the Kerberos security options")
		}
		o.handshaker = h
		return nil
	}
}

// WithDialer makes the client open its connections to the cluster's servers (region servers
// and the bootstrap servers of WithBootstrapServers; not ZooKeeper) with dial instead of a
// zero net.Dialer. dial gets the address as the cluster names the server ("host:port") and
// must honour ctx. The connection it returns may be any net.Conn: a wrapper (package
// hbasetest/faultnet injects network faults this way, for tests of an application's own
// behaviour under partitions and slow or reset connections) works as well as a *net.TCPConn,
// at the cost of the client's raw socket I/O, which only a *net.TCPConn gets.
func WithDialer(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(o *options) error {
		if dial == nil {
			return errors.New("hbase: WithDialer: nil dial function")
		}
		o.connOptions = append(o.connOptions, region.WithDialer(dialFunc(dial)))
		return nil
	}
}

// dialFunc adapts a dial function to region.Dialer.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

func (f dialFunc) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, network, addr)
}

// withMetaLocator replaces the ZooKeeper lookup of hbase:meta (unit tests against fakes).
func withMetaLocator(fn func(ctx context.Context) (string, error)) Option {
	return func(o *options) error {
		o.locateMeta = fn
		return nil
	}
}

// apply runs opts over o in order and checks the result.
func (o *options) apply(zkQuorum string, opts []Option) error {
	err := o.applyOptions(zkQuorum, opts)
	if err != nil && !errors.Is(err, hberr.ErrConfiguration) {
		err = misconfigured{err}
	}
	return err
}

// applyOptions is apply; every error it returns is a configuration error.
func (o *options) applyOptions(zkQuorum string, opts []Option) error {
	for _, opt := range opts {
		if opt == nil {
			return errors.New("hbase: nil Option")
		}
		if err := opt(o); err != nil {
			return err
		}
	}
	switch {
	case len(o.bootstrap) > 0 && strings.TrimSpace(zkQuorum) != "":
		return errors.New("hbase: both a ZooKeeper quorum and WithBootstrapServers: give one (the quorum argument empty with WithBootstrapServers)")
	case o.locateMeta == nil && len(o.bootstrap) == 0:
		if err := checkQuorum(zkQuorum); err != nil {
			return err
		}
	}
	if err := region.CheckOptions(o.connOptions...); err != nil {
		return fmt.Errorf("hbase: connection options: %w", err)
	}
	if s, ok := o.handshaker.(*security); ok {
		// Security options are checked together here, not at the first connection.
		if err := s.build(o.logger); err != nil {
			return err
		}
	}
	return nil
}

// closeHandshaker releases what the security options own (credentials and their ticket
// renewal goroutine); a handshaker given with withHandshaker that is an io.Closer is closed too.
func (o *options) closeHandshaker() {
	if c, ok := o.handshaker.(io.Closer); ok {
		c.Close()
	}
}

// WithBootstrapServers finds hbase:meta through the connection registry that HBase 2.5+
// masters and region servers serve (ClientMetaService, as the Java client's
// RpcConnectionRegistry and hbase.client.bootstrap.servers) instead of ZooKeeper, for sites
// that firewall ZooKeeper off from applications. Pass the quorum argument of NewClient empty.
// Each server is "host:port" of a master or region server RPC port; the client tries them in
// turn and later also the servers they report. Masters serve the registry from HBase 2.3
// (before 2.5 without the list of servers to report, so the client keeps the given ones);
// region servers from 2.5. When none of the given servers serves it, calls fail at once with
// an error wrapping hberr.ErrBootstrapUnreachable and hberr.ErrConfiguration that names
// those versions; when none answers at all, lookups fail naming hberr.ErrBootstrapUnreachable
// and each server's error (a silent one: "no answer in <d>"; each server gets a share of the
// lookup's time), and so does a call whose deadline comes first, with its context's error.
// Each address must be host:port; NewClient refuses another with an error wrapping
// hberr.ErrConfiguration.
func WithBootstrapServers(servers ...string) Option {
	return func(o *options) error {
		if len(servers) == 0 {
			return errors.New("hbase: WithBootstrapServers: no server")
		}
		for _, s := range servers {
			if err := checkServer(s, true); err != nil {
				return fmt.Errorf("hbase: WithBootstrapServers: %w", err)
			}
		}
		o.bootstrap = slices.Clone(servers)
		return nil
	}
}

// WithTLS runs HBase 2.6+ native TLS (hbase.server.netty.tls.enabled) on every connection to
// the cluster: region servers, masters and bootstrap servers. cfg sets the trusted roots
// (RootCAs; nil means the system's), a client certificate for servers that require one
// (Certificates) and the server name (ServerName; empty means each server's host name). A
// server that does not speak TLS fails the connection with hberr.ErrTLS instead of being
// talked to in plaintext. With Kerberos on top, ProtectionAuthentication is enough: TLS
// already encrypts, and SASL wrapping would encrypt twice.
func WithTLS(cfg *tls.Config) Option {
	return func(o *options) error {
		if cfg == nil {
			return errors.New("hbase: WithTLS: nil config")
		}
		o.tls = cfg.Clone()
		return nil
	}
}

// WithServerLatency turns the latency histograms per region server and operation
// (Client.ServerLatency) on or off. They are on by default: recording one RPC costs two clock
// reads and an uncontended mutex, and no allocation.
func WithServerLatency(on bool) Option {
	return func(o *options) error {
		o.serverLatency = on
		return nil
	}
}
