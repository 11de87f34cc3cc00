package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// TestCLISecure runs hbasectl with the security flags against one secure cluster that takes
// Kerberos with privacy (AES) or authentication, in TLS or plaintext: a keytab login with
// privacy and AES, a credential cache, and TLS with client certificates. Opt-in like the
// other secure-cluster tests: GOHBASE_SECURE_CLUSTER=1.
func TestCLISecure(t *testing.T) {
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{Secure: true, Protection: "authentication,privacy", AES: true, TLS: true, TLSAllowPlaintext: true})
	table := fmt.Sprintf("ctl_secure_%d", time.Now().UnixNano()%1e6)
	if err := cl.CreateTable(t.Context(), table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	ccache := filepath.Join(t.TempDir(), "krb5cc")
	if _, err := cl.Kinit(t.Context(), ccache, hbasetest.KinitOptions{}); err != nil {
		t.Fatal(err)
	}
	// The environment cmd/hbase-local prints for a secure TLS cluster.
	getenv := env("HBASE_ZK", cl.ZKQuorum, "HBASE_ZNODE", cl.ZNodeParent, "HBASE_PRINCIPAL", cl.ClientPrincipal,
		"HBASE_KEYTAB", cl.Keytab, "KRB5_CONFIG", cl.KRB5Conf, "HBASE_SERVER_PRINCIPAL", cl.ServerPrincipal,
		"HBASE_TLS_CA", cl.TLS.CA, "HBASE_TLS_CERT", cl.TLS.ClientCert, "HBASE_TLS_KEY", cl.TLS.ClientKey)
	for i, mode := range [][]string{
		{"-kerberos", "-protection", "privacy", "-aes"},
		{"-kerberos", "-ccache", ccache, "-protection", "privacy", "-aes=false"},
		{"-kerberos", "-tls", "-protection", "authentication"},
	} {
		row := fmt.Sprintf("row%d", i)
		args := append(slices.Clone(mode), "-json", "put", table, row, "f:q", "secret")
		if code, _, stderr := runArgs(t, getenv, args...); code != 0 {
			t.Fatalf("%q: exit code %d, stderr %q", args, code, stderr)
		}
		args = append(slices.Clone(mode), "get", table, row)
		code, stdout, stderr := runArgs(t, getenv, args...)
		if code != 0 || !strings.Contains(stdout, row+"  f:q") || !strings.Contains(stdout, "secret") {
			t.Errorf("%q: exit code %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	// Without Kerberos the secure cluster refuses the connection: one line, exit status 2.
	code, stdout, stderr := runArgs(t, getenv, "-connect-timeout", "5s", "list")
	if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "cannot reach the cluster") {
		t.Errorf("SIMPLE against Kerberos: exit code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
