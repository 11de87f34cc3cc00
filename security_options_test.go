package hbase

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/sasl"
)

type nopHandshaker struct{}

func (nopHandshaker) Handshake(context.Context, net.Conn, string, *pb.ConnectionHeader) (region.Layer, error) {
	return nil, nil
}

func applyOpts(opts ...Option) (options, error) {
	o := defaultOptions()
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

func TestSecurityOptionsValidate(t *testing.T) {
	for name, tc := range map[string]struct {
		opts []Option
		want string
	}{
		"bad protection":     {[]Option{WithProtection(Protection(9))}, "unknown protection"},
		"empty principal":    {[]Option{WithServicePrincipal("")}, "empty pattern"},
		"missing keytab":     {[]Option{WithKerberosKeytab("c@EXAMPLE.COM", "/nonexistent/keytab", "/nonexistent/krb5.conf")}, "krb5.conf"},
		"handshaker clash":   {[]Option{withHandshaker(nopHandshaker{}), WithProtection(ProtectionPrivacy)}, "cannot be combined"},
		"missing ccache":     {[]Option{WithKerberosCCache("/nonexistent/cc", "/nonexistent/krb5.conf")}, "krb5.conf"},
		"missing conf (pwd)": {[]Option{WithKerberosPassword("c", "secret-password", "/nonexistent/krb5.conf")}, "krb5.conf"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := applyOpts(tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret-password") {
				t.Fatalf("password in error: %v", err)
			}
		})
	}
}

// Protection options without Kerberos credentials fail NewClient with an error that says what
// is missing (rather than silently connecting with SIMPLE, or failing only at the first
// connection).
func TestSecurityOptionsNeedKerberos(t *testing.T) {
	_, err := NewClient("zk:2181", WithProtection(ProtectionPrivacy), WithAES(AESRequired))
	if !errors.Is(err, errNoKerberos) {
		t.Fatalf("got %v, want errNoKerberos", err)
	}
	if _, err := NewClient("zk:2181", WithAES(AESMode(7))); err == nil || !strings.Contains(err.Error(), "unknown AES mode") {
		t.Fatalf("WithAES(7): got %v", err)
	}
	if _, err := NewClient(" , "); err == nil {
		t.Fatal("NewClient with a quorum of no servers succeeded")
	}
}

// The root's Protection and AESMode are types of their own, turned into sasl's when the client
// builds its handshaker; each level and mode becomes the one of the same meaning.
func TestProtectionAndAESModeToSASL(t *testing.T) {
	for p, want := range map[Protection]sasl.Protection{
		ProtectionAuthentication: sasl.Authentication,
		ProtectionIntegrity:      sasl.Integrity,
		ProtectionPrivacy:        sasl.Privacy,
	} {
		if got := p.sasl(); got != want {
			t.Errorf("%v.sasl() = %v; want %v", p, got, want)
		}
		if p.String() != want.String() {
			t.Errorf("%v.String() = %q; want sasl's %q", p, p.String(), want.String())
		}
		var back Protection
		if err := back.UnmarshalText([]byte(p.String())); err != nil || back != p {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", p.String(), back, err, p)
		}
		if err := back.UnmarshalText([]byte(want.QoP())); err != nil || back != p {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", want.QoP(), back, err, p)
		}
	}
	var p Protection
	if err := p.UnmarshalText([]byte("none")); err == nil {
		t.Error("UnmarshalText(none) accepted")
	}
	for m, want := range map[AESMode]sasl.AESMode{AESRequired: sasl.AESRequired, AESPreferred: sasl.AESPreferred, AESOff: sasl.AESOff} {
		if got := m.sasl(); got != want {
			t.Errorf("AESMode(%d).sasl() = %d; want %d", m, got, want)
		}
	}
}
