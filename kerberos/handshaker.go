package kerberos

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/sasl"
)

// security collects this package's options; it becomes the client's region.Handshaker.
// hbase.NewClient builds the sasl.Handshaker once all options are known (Build, the engine's
// Builder), so that a bad combination fails there rather than at the first connection.
type security struct {
	cfg   settings
	owned bool // credentials were made by an option and are closed with the client
	hs    *sasl.Handshaker
	// closed guards Close, which the client calls once and a failed NewClient may call too.
	closed sync.Once
}

var errNoCredentials = errors.New("kerberos: no credentials: give WithKeytab, WithPassword or WithCCache (or WithSiteConfig with site files that ask for Kerberos)")

// of returns the security settings in cfg, creating them on first use.
func of(cfg *engine.Config) (*security, error) {
	if cfg.Handshaker == nil {
		s := &security{}
		cfg.Handshaker = s
		return s, nil
	}
	s, ok := cfg.Handshaker.(*security)
	if !ok {
		return nil, errors.New("kerberos: options cannot be combined with a handshaker of a test")
	}
	return s, nil
}

// option returns an hbase.Option running fn on the security settings.
func option(fn func(s *security) error) hbase.Option {
	return func(cfg *engine.Config) error {
		s, err := of(cfg)
		if err != nil {
			return err
		}
		return fn(s)
	}
}

// settings are the options given so far; a zero field was not given (the site files' value
// or sasl's default applies).
type settings struct {
	Credentials           *sasl.Credentials
	ServicePrincipal      string
	Protection            Protection // 0: sasl's default (privacy)
	AES                   AESMode
	AESSet                bool // AES was given (AESRequired is the zero value)
	NegotiateCipher       bool
	AllowFallbackToSimple bool
	AllowWeakerProtection bool
	ProxyUser             string
}

// Build checks the options together, fills what they left unset from the site files (when
// the client is made by hbase.NewClientFromConfig: the files describe the cluster, whatever
// they say of authentication) and makes the sasl.Handshaker.
func (s *security) Build(cfg *engine.Config) error {
	if cfg.Site != nil {
		if err := s.siteDefaults(cfg.Site); err != nil {
			return err
		}
	}
	set := s.cfg
	if set.Credentials == nil {
		return errNoCredentials
	}
	opts := []sasl.Option{sasl.WithCredentials(set.Credentials), sasl.WithLogger(cfg.Logger), sasl.WithAES(set.AES.sasl())}
	if set.ServicePrincipal != "" {
		opts = append(opts, sasl.WithServicePrincipal(set.ServicePrincipal))
	}
	if set.Protection != 0 {
		opts = append(opts, sasl.WithProtection(set.Protection.sasl()))
	}
	if set.NegotiateCipher {
		opts = append(opts, sasl.WithNegotiatedCipher())
	}
	if set.AllowFallbackToSimple {
		opts = append(opts, sasl.WithAllowFallbackToSimple())
	}
	if set.AllowWeakerProtection {
		opts = append(opts, sasl.WithAllowWeakerProtection())
	}
	if set.ProxyUser != "" {
		opts = append(opts, sasl.WithProxyUser(set.ProxyUser))
	}
	hs, err := sasl.NewHandshaker(opts...)
	if err != nil {
		return fmt.Errorf("kerberos: %w", err)
	}
	s.hs = hs
	return nil
}

// setCredentials replaces the credentials, closing ones an earlier option made (a second
// credentials option would otherwise leave the first login's ticket renewal running).
func (s *security) setCredentials(creds *sasl.Credentials, owned bool) {
	if s.owned && s.cfg.Credentials != nil && s.cfg.Credentials != creds {
		s.cfg.Credentials.Close()
	}
	s.cfg.Credentials, s.owned = creds, owned
}

// Handshake implements region.Handshaker.
func (s *security) Handshake(ctx context.Context, conn net.Conn, host string, hdr *pb.ConnectionHeader) (region.Layer, error) {
	if s.hs == nil {
		return nil, errNoCredentials // not built: NewClient refuses such a client
	}
	return s.hs.Handshake(ctx, conn, host, hdr)
}

// Close releases credentials an option created (stops their ticket renewal).
func (s *security) Close() error {
	s.closed.Do(func() {
		if s.owned && s.cfg.Credentials != nil {
			s.cfg.Credentials.Close()
		}
	})
	return nil
}

// PermanentFailure reports the Kerberos failures no retry mends (the engine's
// PermanentFailure): the client fails the calls waiting for such a connection at once.
func (s *security) PermanentFailure(err error) bool { return sasl.Permanent(err) }
