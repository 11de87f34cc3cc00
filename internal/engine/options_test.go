package engine

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// The root package's NewClient and options, for this package's tests (which cannot import
// it): each option sets what hbase's does, without checking its argument (the root package's
// tests check the options).

type Option func(*Config) error

func NewClient(zkQuorum string, opts ...Option) (*Client, error) {
	cfg := DefaultConfig()
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			cfg.CloseHandshaker()
			return nil, Misconfigured(err)
		}
	}
	if err := cfg.Check(zkQuorum); err != nil {
		cfg.CloseHandshaker()
		return nil, err
	}
	return New(zkQuorum, cfg)
}

func set(f func(o *Config)) Option { return func(o *Config) error { f(o); return nil } }

func WithZNodeParent(p string) Option  { return set(func(o *Config) { o.ZKParent = p }) }
func WithLogger(l *slog.Logger) Option { return set(func(o *Config) { o.Logger = l }) }
func WithMaxAttempts(n int) Option     { return set(func(o *Config) { o.MaxAttempts = n }) }
func WithNoRetries() Option            { return WithMaxAttempts(1) }
func WithTLS(cfg *tls.Config) Option   { return set(func(o *Config) { o.TLS = cfg.Clone() }) }
func WithServerLatency(on bool) Option { return set(func(o *Config) { o.ServerLatency = on }) }
func WithMetaReplicaLookups() Option   { return set(func(o *Config) { o.MetaReplicaLookups = true }) }
func WithBackpressure(d time.Duration) Option {
	return set(func(o *Config) { o.BackpressureMax = d })
}
func WithOverloadPause(d time.Duration) Option { return set(func(o *Config) { o.OverloadPause = d }) }
func WithRegionLookupTimeout(d time.Duration) Option {
	return set(func(o *Config) { o.LookupTimeout = d })
}
func WithScannerLeaseRenewal(d time.Duration) Option {
	return set(func(o *Config) { o.ScanLeaseRenew = d })
}
func WithZKSessionTimeout(d time.Duration) Option {
	return set(func(o *Config) { o.ZKSessionTimeout = d })
}
func WithUser(u string) Option { return set(func(o *Config) { o.User = u }) }
func WithMaxBackoff(d time.Duration) Option {
	return set(func(o *Config) { o.MaxBackoff, o.MinBackoff = d, min(o.MinBackoff, d) })
}
func WithHooks(h *hbasetrace.Hooks) Option {
	return set(func(o *Config) { o.Hooks = append(o.Hooks, h) })
}
func WithBootstrapServers(servers ...string) Option {
	return func(o *Config) error {
		for _, s := range servers {
			if err := CheckServer(s, true); err != nil {
				return err
			}
		}
		o.Bootstrap = servers
		return nil
	}
}
func WithDialer(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return set(func(o *Config) { o.ConnOptions = append(o.ConnOptions, region.WithDialer(dialFunc(dial))) })
}
func WithHedgeDelay(d time.Duration) Option {
	return set(func(o *Config) { o.Hedge.Delay, o.Hedge.Adaptive = d, false })
}
func WithAdaptiveHedging(floor, ceiling time.Duration) Option {
	return set(func(o *Config) { o.Hedge.Adaptive, o.Hedge.Floor, o.Hedge.Ceiling = true, floor, ceiling })
}
func WithHedgeBudget(share float64) Option { return set(func(o *Config) { o.Hedge.Budget = share }) }
func WithConnectionAttribute(name string, value []byte) Option {
	return set(func(o *Config) { o.ConnAttrs = wire.SetAttribute(o.ConnAttrs, name, value) })
}
func withMetaLocator(fn func(ctx context.Context) (string, error)) Option {
	return set(func(o *Config) { o.LocateMeta = fn })
}

type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

func (f dialFunc) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, network, addr)
}
