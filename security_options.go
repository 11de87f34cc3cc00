package hbase

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/sasl"
)

// Protection is the SASL quality of protection of Kerberos connections
// (HBase's hbase.rpc.protection).
type Protection uint8

// Protection levels.
const (
	// ProtectionAuthentication authenticates with Kerberos; traffic stays in plaintext.
	ProtectionAuthentication Protection = 1 + iota
	// ProtectionIntegrity adds a checksum to every frame.
	ProtectionIntegrity
	// ProtectionPrivacy encrypts every frame (with AES when the server offers it).
	ProtectionPrivacy
)

// String returns HBase's name of p: "authentication", "integrity" or "privacy".
func (p Protection) String() string {
	if p < ProtectionAuthentication || p > ProtectionPrivacy {
		return fmt.Sprintf("Protection(%d)", uint8(p))
	}
	return p.sasl().String()
}

// UnmarshalText sets p from HBase's name of a level (hbase.rpc.protection: "authentication",
// "integrity", "privacy") or its SASL name ("auth", "auth-int", "auth-conf"), so that a
// Protection can be a flag (flag.TextVar) or a field of a configuration file.
func (p *Protection) UnmarshalText(text []byte) error {
	sp, err := sasl.ParseProtection(string(text))
	if err != nil {
		return fmt.Errorf("hbase: unknown protection %q (want authentication, integrity or privacy)", text)
	}
	for q := ProtectionAuthentication; q <= ProtectionPrivacy; q++ {
		if q.sasl() == sp {
			*p = q
		}
	}
	return nil
}

// sasl is p as package sasl names it.
func (p Protection) sasl() sasl.Protection {
	switch p {
	case ProtectionAuthentication:
		return sasl.Authentication
	case ProtectionIntegrity:
		return sasl.Integrity
	}
	return sasl.Privacy
}

// AESMode says whether Kerberos connections with privacy switch to HBase's AES transport
// encryption (WithAES).
type AESMode uint8

// AES modes.
const (
	// AESRequired asks for AES and fails a connection whose server does not hand out AES keys
	// (the default).
	AESRequired AESMode = iota
	// AESPreferred asks for AES but stays on GSS Wrap when the server sends no keys (for
	// clusters where only some servers enable hbase.rpc.crypto.encryption.aes.enabled).
	AESPreferred
	// AESOff never asks: every frame stays sealed by GSS Wrap.
	AESOff
)

// sasl is m as package sasl names it.
func (m AESMode) sasl() sasl.AESMode {
	switch m {
	case AESPreferred:
		return sasl.AESPreferred
	case AESOff:
		return sasl.AESOff
	}
	return sasl.AESRequired
}

// security collects the security options; it becomes the client's region.Handshaker. NewClient
// builds the sasl.Handshaker once all options are known (build), so that a bad combination
// fails there rather than at the first connection.
type security struct {
	cfg   securitySettings
	owned bool // credentials were made by an option and are closed with the client
	// defaultCreds logs in when no option gave credentials (a SiteConfig's keytab or
	// credential cache): lazily, so that an explicit credentials option overrides the files
	// without the files' login being attempted.
	defaultCreds func() (*sasl.Credentials, error)
	hs           *sasl.Handshaker
	closed       sync.Once
}

var errNoKerberos = errors.New("hbase: security option needs WithKerberosKeytab, WithKerberosPassword or WithKerberosCCache")

// securityOf returns the security settings in o, creating them on first use.
func securityOf(o *options) (*security, error) {
	if o.handshaker == nil {
		s := &security{}
		o.handshaker = s
		return s, nil
	}
	s, ok := o.handshaker.(*security)
	if !ok {
		return nil, errors.New("hbase: security options cannot be combined with a handshaker of a test")
	}
	return s, nil
}

func withSecurity(fn func(s *security) error) Option {
	return func(o *options) error {
		s, err := securityOf(o)
		if err != nil {
			return err
		}
		return fn(s)
	}
}

// securitySettings are the security options given so far; build turns them into sasl options.
type securitySettings struct {
	Credentials           *sasl.Credentials
	ServicePrincipal      string
	Protection            Protection // 0: sasl's default (privacy)
	AES                   AESMode
	NegotiateCipher       bool
	AllowFallbackToSimple bool
	AllowWeakerProtection bool
	ProxyUser             string
}

// build checks the security options together and makes the sasl.Handshaker (NewClient).
func (s *security) build(logger *slog.Logger) error {
	if s.cfg.Credentials == nil && s.defaultCreds != nil {
		creds, err := s.defaultCreds()
		if err != nil {
			return err
		}
		s.setCredentials(creds, true)
	}
	cfg := s.cfg
	if cfg.Credentials == nil {
		return errNoKerberos
	}
	opts := []sasl.Option{sasl.WithCredentials(cfg.Credentials), sasl.WithLogger(logger), sasl.WithAES(cfg.AES.sasl())}
	if cfg.ServicePrincipal != "" {
		opts = append(opts, sasl.WithServicePrincipal(cfg.ServicePrincipal))
	}
	if cfg.Protection != 0 {
		opts = append(opts, sasl.WithProtection(cfg.Protection.sasl()))
	}
	if cfg.NegotiateCipher {
		opts = append(opts, sasl.WithNegotiatedCipher())
	}
	if cfg.AllowFallbackToSimple {
		opts = append(opts, sasl.WithAllowFallbackToSimple())
	}
	if cfg.AllowWeakerProtection {
		opts = append(opts, sasl.WithAllowWeakerProtection())
	}
	if cfg.ProxyUser != "" {
		opts = append(opts, sasl.WithProxyUser(cfg.ProxyUser))
	}
	hs, err := sasl.NewHandshaker(opts...)
	if err != nil {
		return fmt.Errorf("hbase: security options: %w", err)
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

// withDefaultCredentials sets how to log in when no option gives credentials (SiteConfig).
func withDefaultCredentials(login func() (*sasl.Credentials, error)) Option {
	return withSecurity(func(s *security) error {
		s.defaultCreds = login
		return nil
	})
}

// Handshake implements region.Handshaker.
func (s *security) Handshake(ctx context.Context, conn net.Conn, host string, hdr *pb.ConnectionHeader) (region.Layer, error) {
	if s.hs == nil {
		return nil, errNoKerberos // not built: NewClient refuses such a client
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

// WithKerberosKeytab authenticates every connection with Kerberos (SASL GSSAPI) as principal
// ("user@REALM") with the keys in keytabPath, using the Kerberos configuration at
// krb5ConfPath. Tickets are renewed before they expire. The default protection is privacy
// with AES; see WithProtection and WithAES. The login happens in NewClient, which fails when
// it does; the client releases the credentials when it is closed.
func WithKerberosKeytab(principal, keytabPath, krb5ConfPath string) Option {
	return withSecurity(func(s *security) error {
		creds, err := sasl.KeytabCredentials(principal, keytabPath, krb5ConfPath)
		if err != nil {
			return fmt.Errorf("hbase: WithKerberosKeytab: %w", err)
		}
		s.setCredentials(creds, true)
		return nil
	})
}

// WithKerberosPassword authenticates as principal with a password (kept in memory to log in
// again when the ticket cannot be renewed; never logged).
func WithKerberosPassword(principal, password, krb5ConfPath string) Option {
	return withSecurity(func(s *security) error {
		creds, err := sasl.PasswordCredentials(principal, password, krb5ConfPath)
		if err != nil {
			return fmt.Errorf("hbase: WithKerberosPassword: %w", err)
		}
		s.setCredentials(creds, true)
		return nil
	})
}

// WithKerberosCCache authenticates with the tickets in an existing credential cache (as made
// by kinit). New connections fail once its TGT expires.
func WithKerberosCCache(ccachePath, krb5ConfPath string) Option {
	return withSecurity(func(s *security) error {
		creds, err := sasl.CCacheCredentials(ccachePath, krb5ConfPath)
		if err != nil {
			return fmt.Errorf("hbase: WithKerberosCCache: %w", err)
		}
		s.setCredentials(creds, true)
		return nil
	})
}

// WithServicePrincipal sets the servers' principal pattern (default "hbase/_HOST"; _HOST is
// replaced by each server's host name).
func WithServicePrincipal(pattern string) Option {
	return withSecurity(func(s *security) error {
		if pattern == "" {
			return errors.New("hbase: WithServicePrincipal: empty pattern")
		}
		s.cfg.ServicePrincipal = pattern
		return nil
	})
}

// WithProtection sets the protection Kerberos connections insist on (default privacy). A
// server offering less fails the connection unless WithAllowWeakerProtection is given.
func WithProtection(p Protection) Option {
	return withSecurity(func(s *security) error {
		if p < ProtectionAuthentication || p > ProtectionPrivacy {
			return fmt.Errorf("hbase: WithProtection: unknown protection %d", p)
		}
		s.cfg.Protection = p
		return nil
	})
}

// WithAES sets whether Kerberos connections with privacy use HBase's AES transport
// encryption: AESRequired (the default: a server that does not hand out AES keys fails the
// connection), AESPreferred (fall back to GSS Wrap when it does not) or AESOff (frames stay
// sealed by GSS Wrap).
func WithAES(mode AESMode) Option {
	return withSecurity(func(s *security) error {
		if mode > AESOff {
			return fmt.Errorf("hbase: WithAES: unknown AES mode %d", mode)
		}
		s.cfg.AES = mode
		return nil
	})
}

// WithNegotiatedCipher uses the USE_NEGOTIATED_CIPHER (-89) exchange of HBASE-16633 instead
// of the upstream AES negotiation. Only servers carrying that patch speak it.
func WithNegotiatedCipher() Option {
	return withSecurity(func(s *security) error {
		s.cfg.NegotiateCipher = true
		return nil
	})
}

// WithAllowFallbackToSimple accepts a server that answers Kerberos with
// SWITCH_TO_SIMPLE_AUTH: such connections are unauthenticated and in plaintext. Without this
// option they fail: the server offered a downgrade the client was not allowed to take.
func WithAllowFallbackToSimple() Option {
	return withSecurity(func(s *security) error {
		s.cfg.AllowFallbackToSimple = true
		return nil
	})
}

// WithAllowWeakerProtection accepts a server that offers less protection than WithProtection
// asked for. Without this option such connections fail: the server offered a downgrade the
// client was not allowed to take.
func WithAllowWeakerProtection() Option {
	return withSecurity(func(s *security) error {
		s.cfg.AllowWeakerProtection = true
		return nil
	})
}

// WithProxyUser makes the client act for user (doAs) on Kerberos connections: the servers
// authenticate the client's principal, then check their hadoop.proxyuser.<principal>.* rules
// before serving it as user. A refused user fails calls at once with hberr.ErrDoNotRetry (the
// server's AccessDeniedException). For services that act for their end users; create one
// client per proxied user.
func WithProxyUser(user string) Option {
	return withSecurity(func(s *security) error {
		if user == "" {
			return errors.New("hbase: WithProxyUser: empty user")
		}
		s.cfg.ProxyUser = user
		return nil
	})
}
