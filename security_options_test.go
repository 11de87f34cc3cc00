package hbase

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/pb"
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

// Protection options without Kerberos credentials fail the first connection with an error
// that says what is missing (rather than silently connecting with SIMPLE).
func TestSecurityOptionsNeedKerberos(t *testing.T) {
	o, err := applyOpts(WithProtection(ProtectionPrivacy), WithAES(true))
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := net.Pipe()
	defer c1.Close()
	defer c2.Close()
	_, err = o.handshaker.Handshake(context.Background(), c1, "h", &pb.ConnectionHeader{})
	if !errors.Is(err, errNoKerberos) {
		t.Fatalf("got %v, want errNoKerberos", err)
	}
}

// A client that authenticates with Kerberos from a keytab and encrypts every connection with
// AES (privacy); it refuses any server that would downgrade that.
func ExampleWithKerberosKeytab() {
	client, err := NewClient("zk1.example.com:2181,zk2.example.com:2181",
		WithKerberosKeytab("app@EXAMPLE.COM", "/etc/security/app.keytab", "/etc/krb5.conf"),
		WithServicePrincipal("hbase/_HOST"),
		WithProtection(ProtectionPrivacy),
		WithAES(true),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
}
