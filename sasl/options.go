package sasl

import (
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Option configures a Handshaker. Like every option of the module it checks its argument, and
// NewHandshaker returns the first bad one.
type Option func(*handshakeConfig) error

// WithCredentials authenticates with Kerberos (SASL GSSAPI) as creds.
func WithCredentials(creds *Credentials) Option {
	return func(c *handshakeConfig) error {
		if creds == nil {
			return errors.New("sasl: nil Credentials")
		}
		c.Credentials = creds
		return nil
	}
}

// WithServicePrincipal sets the servers' principal pattern (default DefaultServicePrincipal).
// "_HOST" is replaced by the server's host name (lower case); an "@REALM" suffix is ignored
// (the realm comes from krb5.conf's domain_realm or the client's realm).
func WithServicePrincipal(pattern string) Option {
	return func(c *handshakeConfig) error {
		if pattern == "" {
			return errors.New("sasl: empty service principal pattern")
		}
		c.ServicePrincipal = pattern
		return nil
	}
}

// WithProtection sets the quality of protection to insist on (default Privacy).
func WithProtection(p Protection) Option {
	return func(c *handshakeConfig) error {
		if p < Authentication || p > Privacy {
			return fmt.Errorf("sasl: unknown protection %d", p)
		}
		c.Protection = p
		return nil
	}
}

// WithAES sets whether to switch to CryptoAES under privacy (default AESRequired; ignored
// under other protections).
func WithAES(mode AESMode) Option {
	return func(c *handshakeConfig) error {
		if mode > AESOff {
			return fmt.Errorf("sasl: unknown AES mode %d", mode)
		}
		c.AES = mode
		return nil
	}
}

// WithAESWait bounds the wait for the server's AES reply (default DefaultAESWait): then
// AESRequired fails and AESPreferred stays on GSS Wrap.
func WithAESWait(d time.Duration) Option {
	return func(c *handshakeConfig) error {
		if d <= 0 {
			return fmt.Errorf("sasl: AES wait %v is not positive", d)
		}
		c.AESWait = d
		return nil
	}
}

// WithNegotiatedCipher uses the USE_NEGOTIATED_CIPHER (-89) exchange of HBASE-16633 instead of
// the upstream ConnectionHeader field. Only servers carrying that patch speak it.
func WithNegotiatedCipher() Option {
	return func(c *handshakeConfig) error {
		c.NegotiateCipher = true
		return nil
	}
}

// WithAllowFallbackToSimple accepts a server's SWITCH_TO_SIMPLE_AUTH: the connection then runs
// unauthenticated and in plaintext. Off by default: it is a downgrade.
func WithAllowFallbackToSimple() Option {
	return func(c *handshakeConfig) error {
		c.AllowFallbackToSimple = true
		return nil
	}
}

// WithAllowWeakerProtection accepts a security-layer offer weaker than WithProtection asked.
func WithAllowWeakerProtection() Option {
	return func(c *handshakeConfig) error {
		c.AllowWeakerProtection = true
		return nil
	}
}

// WithMaxTokenSize bounds each server message of the exchange (default DefaultMaxTokenSize).
func WithMaxTokenSize(n int) Option {
	return func(c *handshakeConfig) error {
		if n < 1024 {
			return fmt.Errorf("sasl: max token size %d below 1 KiB", n)
		}
		c.MaxTokenSize = n
		return nil
	}
}

// WithLogger sets the logger: one debug line per handshake and warnings for accepted
// fallbacks. The default discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(c *handshakeConfig) error {
		if l == nil {
			return errors.New("sasl: nil logger")
		}
		c.Logger = l
		return nil
	}
}

// WithProxyUser makes every connection act for user (doAs, as Java's
// UserGroupInformation.createProxyUser): the servers authenticate the Kerberos principal and
// then check that their hadoop.proxyuser rules let it act for user; if not, calls fail with
// the server's AccessDeniedException.
func WithProxyUser(user string) Option {
	return func(c *handshakeConfig) error {
		if user == "" {
			return errors.New("sasl: empty proxy user")
		}
		c.ProxyUser = user
		return nil
	}
}
