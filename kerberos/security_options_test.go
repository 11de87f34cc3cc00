package kerberos

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/sasl"
)

func TestSecurityOptionsValidate(t *testing.T) {
	for name, tc := range map[string]struct {
		opts []hbase.Option
		want string
	}{
		"bad protection":     {[]hbase.Option{WithProtection(Protection(9))}, "unknown protection"},
		"empty principal":    {[]hbase.Option{WithServicePrincipal("")}, "empty pattern"},
		"missing keytab":     {[]hbase.Option{WithKeytab("c@EXAMPLE.COM", "/nonexistent/keytab", "/nonexistent/krb5.conf")}, "krb5.conf"},
		"handshaker clash":   {[]hbase.Option{withHandshaker(nopHandshaker{}), WithProtection(ProtectionPrivacy)}, "cannot be combined"},
		"missing ccache":     {[]hbase.Option{WithCCache("/nonexistent/cc", "/nonexistent/krb5.conf")}, "krb5.conf"},
		"missing conf (pwd)": {[]hbase.Option{WithPassword("c", "secret-password", "/nonexistent/krb5.conf")}, "krb5.conf"},
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
	_, err := hbase.NewClient("zk:2181", WithProtection(ProtectionPrivacy), WithAES(AESRequired))
	if !errors.Is(err, errNoCredentials) {
		t.Fatalf("got %v, want errNoCredentials", err)
	}
	if _, err := hbase.NewClient("zk:2181", WithAES(AESMode(7))); err == nil || !strings.Contains(err.Error(), "unknown AES mode") {
		t.Fatalf("WithAES(7): got %v", err)
	}
	if _, err := hbase.NewClient(" , "); err == nil {
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
