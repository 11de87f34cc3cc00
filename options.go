package hbase

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// Option configures a Client. Options are checked by NewClient, which reports the first bad
// one with an error wrapping hberr.ErrConfiguration. Package kerberos holds the Kerberos
// options, so that a program that does not use Kerberos does not build it.
type Option func(*config) error

// Defaults of the Timeline reads' hedging (WithHedgeDelay, WithHedgeBudget).
const (
	// DefaultHedgeDelay is the fixed hedge delay: Java's hbase.client.primaryCallTimeout.get.
	DefaultHedgeDelay = engine.DefaultHedgeDelay
	// DefaultHedgeBudget is the default share of Timeline reads that may send hedges.
	DefaultHedgeBudget = engine.DefaultHedgeBudget
)

// config is every setting of a client (the options of this package and of package kerberos
// write it).
type config = engine.Config

// WithZNodeParent sets the znode under which HBase keeps its state (zookeeper.znode.parent).
// The default is "/hbase".
func WithZNodeParent(parent string) Option {
	return func(o *config) error {
		if len(parent) == 0 || parent[0] != '/' {
			return fmt.Errorf("hbase: znode parent %q must start with '/'", parent)
		}
		o.ZKParent = parent
		return nil
	}
}

// WithZKSessionTimeout sets the ZooKeeper session timeout. The default is 30 s.
func WithZKSessionTimeout(d time.Duration) Option {
	return func(o *config) error {
		if d <= 0 {
			return fmt.Errorf("hbase: ZooKeeper session timeout %v must be positive", d)
		}
		o.ZKSessionTimeout = d
		return nil
	}
}

// WithUser sets the effective user sent to the servers with SIMPLE authentication. The
// default is "go-hbase".
func WithUser(user string) Option {
	return func(o *config) error {
		if user == "" {
			return errors.New("hbase: user must not be empty")
		}
		o.User = user
		return nil
	}
}

// WithLogger sets the logger. The default discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(o *config) error {
		if l == nil {
			return errors.New("hbase: logger must not be nil")
		}
		o.Logger = l
		return nil
	}
}

// WithMaxBackoff caps the pause between two retries of a call that failed with a transient
// error (and between two re-lookups of a region that is not served yet). Pauses start at
// 10 ms and double, with full jitter. The default cap is 1 s.
func WithMaxBackoff(d time.Duration) Option {
	return func(o *config) error {
		if d < time.Millisecond {
			return fmt.Errorf("hbase: max backoff %v is below 1ms", d)
		}
		o.MaxBackoff = d
		if o.MinBackoff > d {
			o.MinBackoff = d
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
	return func(o *config) error {
		if n < 1 {
			return fmt.Errorf("hbase: max attempts %d is below 1", n)
		}
		o.MaxAttempts = n
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
	return func(o *config) error {
		if d <= 0 {
			return fmt.Errorf("hbase: region lookup timeout %v must be positive", d)
		}
		o.LookupTimeout = d
		return nil
	}
}

// WithScannerLeaseRenewal sets how long a Scanner may sit idle between two Next calls before
// it renews its server-side lease (the server's hbase.client.scanner.timeout.period defaults
// to 60 s). The default is 20 s.
func WithScannerLeaseRenewal(d time.Duration) Option {
	return func(o *config) error {
		if d <= 0 {
			return fmt.Errorf("hbase: scanner lease renewal period %v must be positive", d)
		}
		o.ScanLeaseRenew = d
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
	return func(o *config) error {
		if dial == nil {
			return errors.New("hbase: WithDialer: nil dial function")
		}
		o.ConnOptions = append(o.ConnOptions, region.WithDialer(dialFunc(dial)))
		return nil
	}
}

// dialFunc adapts a dial function to region.Dialer.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

func (f dialFunc) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, network, addr)
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
	return func(o *config) error {
		if len(servers) == 0 {
			return errors.New("hbase: WithBootstrapServers: no server")
		}
		for _, s := range servers {
			if err := engine.CheckServer(s, true); err != nil {
				return fmt.Errorf("hbase: WithBootstrapServers: %w", err)
			}
		}
		o.Bootstrap = slices.Clone(servers)
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
	return func(o *config) error {
		if cfg == nil {
			return errors.New("hbase: WithTLS: nil config")
		}
		o.TLS = cfg.Clone()
		return nil
	}
}

// WithServerLatency turns the latency histograms per region server and operation
// (Client.ServerLatency) on or off. They are on by default: recording one RPC costs two clock
// reads and an uncontended mutex, and no allocation.
func WithServerLatency(on bool) Option {
	return func(o *config) error {
		o.ServerLatency = on
		return nil
	}
}

// WithHedgeDelay sets how long a Timeline read waits for the region's primary replica before
// it asks the secondary replicas too (Java's hbase.client.primaryCallTimeout.get). Default
// DefaultHedgeDelay, 10 ms. 0 asks every replica at once. It replaces WithAdaptiveHedging.
func WithHedgeDelay(d time.Duration) Option {
	return func(o *config) error {
		if d < 0 {
			return fmt.Errorf("hbase: WithHedgeDelay(%v): negative delay", d)
		}
		o.Hedge.Delay, o.Hedge.Adaptive = d, false
		return nil
	}
}

// WithAdaptiveHedging makes the hedge delay of a Timeline read follow its primary server:
// the 95th percentile of that server's latency for the client's recent Timeline Gets (the
// last 5 to 10 seconds), kept between floor and ceiling. Until a server has answered 50
// such reads, the fixed delay (WithHedgeDelay, 10 ms by default) applies.
//
// Why the 95th percentile: a hedge sent at the pth percentile goes out for about (100-p)%
// of reads; at 95 that is 5%, half the default budget, and it cuts the tail above it to
// about the delay plus one round trip to a secondary. A lower percentile sends more hedges
// for less gain (the body of the distribution is not slow); a higher one hedges too late to
// help the 99th percentile. The floor keeps ordinary jitter (a GC pause of the client, a
// busy core) from counting as slowness, the ceiling bounds the wait when a server is slow
// for every read.
func WithAdaptiveHedging(floor, ceiling time.Duration) Option {
	return func(o *config) error {
		if floor < 0 || ceiling <= 0 || floor > ceiling {
			return fmt.Errorf("hbase: WithAdaptiveHedging(%v, %v): want 0 <= floor <= ceiling, ceiling > 0", floor, ceiling)
		}
		o.Hedge.Adaptive, o.Hedge.Floor, o.Hedge.Ceiling = true, floor, ceiling
		return nil
	}
}

// WithHedgeBudget caps the share of Timeline reads that may send hedges to secondary
// replicas while their primary server answers (default DefaultHedgeBudget, 10%; bursts of
// up to 10 hedges pass). Reads whose primary is down, failed, or silent (no answer to any
// Timeline read for twice the hedge delay, at least 5 ms and 3 times its recent 99th
// percentile: a partition) are hedged outside the budget, and so are the reads of a primary
// server that lags the others the client reads from (its recent 95th percentile past the
// hedge delay and at least 4 times the middle one of theirs): hedging them moves reads from
// one slow server to healthy ones, while a cluster mostly slow stays within the budget.
// 1 hedges every slow read; 0 hedges only those.
func WithHedgeBudget(share float64) Option {
	return func(o *config) error {
		if !(share >= 0 && share <= 1) {
			return fmt.Errorf("hbase: WithHedgeBudget(%v): want a share from 0 to 1", share)
		}
		o.Hedge.Budget = share
		return nil
	}
}

// WithHooks adds hooks that receive the client's events. Several WithHooks combine: each
// event goes to every hook that wants it, in the order given, and each CallStart gets the
// context the one before it returned.
func WithHooks(h *hbasetrace.Hooks) Option {
	return func(o *config) error {
		if h == nil {
			return errors.New("hbase: WithHooks: nil hbasetrace.Hooks")
		}
		o.Hooks = append(o.Hooks, h)
		return nil
	}
}

// WithBackpressure makes the client delay writes to regions whose servers report load
// (the Java client's hbase.client.backpressure.enabled with
// hbase.client.statistics.backoff-policy = ExponentialClientBackoffPolicy; max is its
// hbase.client.exponential-backoff.max). The delay of a write to a region is
// max × p⁴, where p is the highest of the region's memstore load (its memstore against its
// flush size), its server's heap occupancy scaled from 0.1 at 95 % to 1 at 98 %, and its
// compaction pressure, each between 0 and 1: a region half way to a flush delays writes by
// max/16. It applies to batches holding mutations (SendBatch: the longest delay of the
// regions of each server's MultiRequest) and to single mutations, with the figures the
// latest response of the region's server gave (at most 5 s old). The servers send figures
// only when their own hbase.client.backpressure.enabled is true; reads are never delayed.
// Each delay is bounded by the call's context, counted in Stats (BackpressureDelays,
// BackpressureTime) and reported to the Backoff hook (BackoffInfo.Backpressure). max must be
// positive. The default is off, as in the Java client (whose default policy, even with
// statistics enabled, does not delay).
func WithBackpressure(max time.Duration) Option {
	return func(o *config) error {
		if max <= 0 {
			return fmt.Errorf("hbase: backpressure max delay %v must be positive", max)
		}
		o.BackpressureMax = max
		return nil
	}
}

// WithMetaReplicaLookups spreads region lookups over hbase:meta's primary and its secondary
// replicas, round robin, when the cluster has some. Their locations come from the registry,
// read again every 30 s or after a failure: ZooKeeper's meta-region-server-N znodes, or with
// WithBootstrapServers the servers' connection registry (one GetMetaRegionLocations answer
// lists every replica). A lookup that fails on a replica is sent to the primary at once; the
// lookups that follow a failed call (its region moved, split or closed) go to the primary,
// which a replica may lag behind. Off by default, as in Java.
func WithMetaReplicaLookups() Option {
	return func(o *config) error {
		o.MetaReplicaLookups = true
		return nil
	}
}

// WithOverloadPause sets the first pause before a call refused by an overloaded server is
// sent again (hbase.client.pause.server.overloaded; the Java client's default, 100 ms, is
// ours). A server is overloaded when it refuses a call with a CallQueueTooBigException or a
// CallDroppedException or flags its exception so (hberr.IsOverloaded): its queue is full,
// and retrying as soon as after other transient errors (10 ms, see WithMaxBackoff) would only
// refill it. Each further refusal of the same call doubles the pause, up to 10 times d (or
// WithMaxBackoff if that is longer); each pause is drawn between half and all of that, so
// that clients refused together do not come back together. Refused attempts count toward
// WithMaxAttempts like any failed attempt, and the call's context bounds every pause. d must
// be at least 1 ms.
func WithOverloadPause(d time.Duration) Option {
	return func(o *config) error {
		if d < time.Millisecond {
			return fmt.Errorf("hbase: overload pause %v is below 1ms", d)
		}
		o.OverloadPause = d
		return nil
	}
}

// WithConnectionAttribute sends the attribute name=value in the header of every connection
// the client opens (HBase 2.6+ connection attributes, ConnectionHeader.attribute; the Java
// client's ConnectionFactory.createConnection(conf, pool, user, connectionAttributes)):
// server-side code reads them from each call (RpcCall.getConnectionAttributes). Give it once
// per attribute; a later one with the same name replaces the value. Servers before 2.6
// ignore them. Per-request attributes are hrpc.RequestAttribute.
func WithConnectionAttribute(name string, value []byte) Option {
	return func(o *config) error {
		if name == "" {
			return errors.New("hbase: connection attribute name must not be empty")
		}
		o.ConnAttrs = wire.SetAttribute(o.ConnAttrs, name, value)
		return nil
	}
}
