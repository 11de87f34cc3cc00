package kerberos

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase"
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
		return fmt.Errorf("kerberos: unknown protection %q (want authentication, integrity or privacy)", text)
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

// WithKeytab authenticates every connection with Kerberos (SASL GSSAPI) as principal
// ("user@REALM") with the keys in keytabPath, using the Kerberos configuration at
// krb5ConfPath. Tickets are renewed before they expire. The default protection is privacy
// with AES; see WithProtection and WithAES. The login happens in NewClient, which fails when
// it does; the client releases the credentials when it is closed.
func WithKeytab(principal, keytabPath, krb5ConfPath string) hbase.Option {
	return option(func(s *security) error {
		creds, err := sasl.KeytabCredentials(principal, keytabPath, krb5ConfPath)
		if err != nil {
			return fmt.Errorf("kerberos: WithKeytab: %w", err)
		}
		s.setCredentials(creds, true)
		return nil
	})
}

// WithPassword authenticates as principal with a password (kept in memory to log in
// again when the ticket cannot be renewed; never logged).
func WithPassword(principal, password, krb5ConfPath string) hbase.Option {
	return option(func(s *security) error {
		creds, err := sasl.PasswordCredentials(principal, password, krb5ConfPath)
		if err != nil {
			return fmt.Errorf("kerberos: WithPassword: %w", err)
		}
		s.setCredentials(creds, true)
		return nil
	})
}

// WithCCache authenticates with the tickets in an existing credential cache (as made
// by kinit). New connections fail once its TGT expires.
func WithCCache(ccachePath, krb5ConfPath string) hbase.Option {
	return option(func(s *security) error {
		creds, err := sasl.CCacheCredentials(ccachePath, krb5ConfPath)
		if err != nil {
			return fmt.Errorf("kerberos: WithCCache: %w", err)
		}
		s.setCredentials(creds, true)
		return nil
	})
}

// WithServicePrincipal sets the servers' principal pattern (default "hbase/_HOST"; _HOST is
// replaced by each server's host name).
func WithServicePrincipal(pattern string) hbase.Option {
	return option(func(s *security) error {
		if pattern == "" {
			return errors.New("kerberos: WithServicePrincipal: empty pattern")
		}
		s.cfg.ServicePrincipal = pattern
		return nil
	})
}

// WithProtection sets the protection Kerberos connections insist on (default privacy). A
// server offering less fails the connection unless WithAllowWeakerProtection is given.
func WithProtection(p Protection) hbase.Option {
	return option(func(s *security) error {
		if p < ProtectionAuthentication || p > ProtectionPrivacy {
			return fmt.Errorf("kerberos: WithProtection: unknown protection %d", p)
		}
		s.cfg.Protection = p
		return nil
	})
}

// WithAES sets whether Kerberos connections with privacy use HBase's AES transport
// encryption: AESRequired (the default: a server that does not hand out AES keys fails the
// connection), AESPreferred (fall back to GSS Wrap when it does not) or AESOff (frames stay
// sealed by GSS Wrap).
func WithAES(mode AESMode) hbase.Option {
	return option(func(s *security) error {
		if mode > AESOff {
			return fmt.Errorf("kerberos: WithAES: unknown AES mode %d", mode)
		}
		s.cfg.AES, s.cfg.AESSet = mode, true
		return nil
	})
}

// WithNegotiatedCipher uses the USE_NEGOTIATED_CIPHER (-89) exchange of HBASE-16633 instead
// of the upstream AES negotiation. Only servers carrying that patch speak it.
func WithNegotiatedCipher() hbase.Option {
	return option(func(s *security) error {
		s.cfg.NegotiateCipher = true
		return nil
	})
}

// WithAllowFallbackToSimple accepts a server that answers Kerberos with
// SWITCH_TO_SIMPLE_AUTH: such connections are unauthenticated and in plaintext. Without this
// option they fail: the server offered a downgrade the client was not allowed to take.
func WithAllowFallbackToSimple() hbase.Option {
	return option(func(s *security) error {
		s.cfg.AllowFallbackToSimple = true
		return nil
	})
}

// WithAllowWeakerProtection accepts a server that offers less protection than WithProtection
// asked for. Without this option such connections fail: the server offered a downgrade the
// client was not allowed to take.
func WithAllowWeakerProtection() hbase.Option {
	return option(func(s *security) error {
		s.cfg.AllowWeakerProtection = true
		return nil
	})
}

// WithProxyUser makes the client act for user (doAs) on Kerberos connections: the servers
// authenticate the client's principal, then check their hadoop.proxyuser.<principal>.* rules
// before serving it as user. A refused user fails calls at once with hberr.ErrDoNotRetry (the
// server's AccessDeniedException). For services that act for their end users; create one
// client per proxied user.
func WithProxyUser(user string) hbase.Option {
	return option(func(s *security) error {
		if user == "" {
			return errors.New("kerberos: WithProxyUser: empty user")
		}
		s.cfg.ProxyUser = user
		return nil
	})
}
