package hbase

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
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
		"nil credentials":    {[]Option{WithKerberos(nil)}, "nil credentials"},
		"empty principal":    {[]Option{WithServicePrincipal("")}, "empty pattern"},
		"missing keytab":     {[]Option{WithKerberosKeytab("c@EXAMPLE.COM", "/nonexistent/keytab", "/nonexistent/krb5.conf")}, "krb5.conf"},
		"handshaker clash":   {[]Option{WithHandshaker(nopHandshaker{}), WithProtection(ProtectionPrivacy)}, "cannot be combined"},
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
