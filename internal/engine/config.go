package engine

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

// Config is every setting of a client: the root package's options (hbase.Option) and the
// opt-in packages' (kerberos) write it, NewClient checks it (Check) and the engine reads it.
type Config struct {
	ZKParent         string
	ZKSessionTimeout time.Duration
	User             string
	Logger           *slog.Logger
	MinBackoff       time.Duration
	MaxBackoff       time.Duration
	LookupTimeout    time.Duration
	// MaxAttempts caps the attempts of one call (WithMaxAttempts); 0: only the context does.
	MaxAttempts int
	// WriteBuffer is the default bound of bufwriter.Writers (the site key
	// hbase.client.write.buffer); 0: bufwriter.DefaultWriteBuffer.
	WriteBuffer int64
	// SuspectTimeout is how long a server whose call got no answer in its caller's time has
	// to answer a probe before its connection is dropped (Client.suspect).
	SuspectTimeout time.Duration
	ScanLeaseRenew time.Duration
	Handshaker     region.Handshaker
	// ConnOptions are added to the options of every region server connection (WithDialer's
	// dialer).
	ConnOptions []region.Option
	// Bootstrap are the servers of the connection registry (WithBootstrapServers); when set,
	// ZooKeeper is not used.
	Bootstrap []string
	// TLS, when set, runs TLS on every connection (WithTLS).
	TLS *tls.Config
	// LocateMeta replaces the ZooKeeper lookup of hbase:meta (tests).
	LocateMeta func(ctx context.Context) (string, error)
	// Hooks receive the client's events (WithHooks).
	Hooks []*hbasetrace.Hooks
	// ServerLatency keeps latency histograms per region server (WithServerLatency).
	ServerLatency bool
	// OverloadPause is the first pause after an overloaded server's refusal (WithOverloadPause).
	OverloadPause time.Duration
	// BackpressureMax is the longest delay of a write to a loaded server; 0: backpressure off
	// (WithBackpressure).
	BackpressureMax time.Duration
	// ConnAttrs are sent in every connection's header (WithConnectionAttribute).
	ConnAttrs []*pb.NameBytesPair
	// Hedge is how Timeline reads are hedged (hedge.go).
	Hedge HedgeConfig
	// MetaReplicaLookups spreads lookups over hbase:meta's replicas (WithMetaReplicaLookups).
	MetaReplicaLookups bool

	// Site reads a key of the site files hbase.NewClientFromConfig was given (nil for
	// NewClient): its value with substitutions, the file that set it, whether one did.
	Site func(key string) (value, file string, ok bool, err error)
	// SiteKerberos, when not empty, says how the site files ask for Kerberos
	// ("hbase.security.authentication=kerberos in /etc/hbase/hbase-site.xml"): a client made
	// from them needs an option of package kerberos.
	SiteKerberos string
}

// DefaultConfig is a client's settings before any option.
func DefaultConfig() Config {
	return Config{
		ZKParent:         "/hbase",
		ZKSessionTimeout: 30 * time.Second,
		User:             "go-hbase",
		Logger:           slog.New(slog.DiscardHandler),
		MinBackoff:       10 * time.Millisecond,
		MaxBackoff:       time.Second,
		LookupTimeout:    10 * time.Second,
		SuspectTimeout:   3 * time.Second,
		ScanLeaseRenew:   20 * time.Second,
		ServerLatency:    true,
		OverloadPause:    defaultOverloadPause,
		Hedge:            DefaultHedgeConfig(),
	}
}

// A Builder is a handshaker that must be set up once all options are known (the Kerberos
// options: their settings combine, and logging in happens when the client is made, not at its
// first connection).
type Builder interface {
	Build(cfg *Config) error
}

// Check checks the settings once every option has run, with zkQuorum, the quorum NewClient was
// given. Every error it returns is a configuration error (hberr.ErrConfiguration).
func (o *Config) Check(zkQuorum string) error {
	err := o.check(zkQuorum)
	if err != nil && !errors.Is(err, hberr.ErrConfiguration) {
		err = Misconfigured(err)
	}
	return err
}

func (o *Config) check(zkQuorum string) error {
	switch {
	case len(o.Bootstrap) > 0 && strings.TrimSpace(zkQuorum) != "":
		return errors.New("hbase: both a ZooKeeper quorum and WithBootstrapServers: give one (the quorum argument empty with WithBootstrapServers)")
	case o.LocateMeta == nil && len(o.Bootstrap) == 0:
		if err := checkQuorum(zkQuorum); err != nil {
			return err
		}
	}
	if err := region.CheckOptions(o.ConnOptions...); err != nil {
		return fmt.Errorf("hbase: connection options: %w", err)
	}
	if o.SiteKerberos != "" && o.Handshaker == nil {
		return fmt.Errorf("hbase: the site files ask for Kerberos (%s), and no option of package github.com/go-hbase/hbase/kerberos was given: add kerberos.WithSiteConfig() to NewClientFromConfig's options", o.SiteKerberos)
	}
	if b, ok := o.Handshaker.(Builder); ok {
		// Security options are checked together here, not at the first connection.
		if err := b.Build(o); err != nil {
			return err
		}
	}
	return nil
}

// CloseHandshaker releases what the security options own (credentials and their ticket
// renewal goroutine); a handshaker given in tests that is an io.Closer is closed too.
func (o *Config) CloseHandshaker() {
	if c, ok := o.Handshaker.(io.Closer); ok {
		c.Close()
	}
}
