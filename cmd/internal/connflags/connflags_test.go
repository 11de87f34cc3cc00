package connflags

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-hbase/hbase"
)

func parse(t *testing.T, env map[string]string, args ...string) (*Flags, error) {
	t.Helper()
	var f Flags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.Register(fs, func(k string) string { return env[k] })
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	return &f, f.Check(set)
}

func TestDefaultsFromEnvironment(t *testing.T) {
	f, err := parse(t, map[string]string{"HBASE_ZK": "127.0.0.1:2181", "HBASE_ZNODE": "/hb", "HBASE_PRINCIPAL": "c@R",
		"HBASE_KEYTAB": "/k", "KRB5_CONFIG": "/krb5.conf", "HBASE_TLS_CA": "/ca.pem"}, "-kerberos")
	if err != nil {
		t.Fatal(err)
	}
	s := f.Security
	if f.ZKQuorum != "127.0.0.1:2181" || f.ZNodeParent != "/hb" || s.Principal != "c@R" || s.Keytab != "/k" || s.KRB5Conf != "/krb5.conf" || s.TLSCA != "/ca.pem" {
		t.Errorf("flags %+v", f)
	}
	if s.Protection != "privacy" || !s.AES || s.TLS {
		t.Errorf("protection %q aes %v tls %v; want privacy, true, false", s.Protection, s.AES, s.TLS)
	}
	if got := f.Where(); got != "zk 127.0.0.1:2181" {
		t.Errorf("Where() = %q", got)
	}
}

func TestCheck(t *testing.T) {
	zk := map[string]string{"HBASE_ZK": "127.0.0.1:2181"}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string // "" for no error
	}{
		{nil, nil, "no cluster"},
		{zk, nil, ""},
		{nil, []string{"-bootstrap", "127.0.0.1:16020,127.0.0.1:16021"}, ""},
		{zk, []string{"-bootstrap", "127.0.0.1:16020"}, ""}, // $HBASE_ZK is only a default
		{nil, []string{"-zk", "a:1", "-bootstrap", "b:2"}, "-zk and -bootstrap do not go together"},
		{nil, []string{"-zk", "nohost"}, `-zk: "nohost" is not host:port`},
		{nil, []string{"-site", "/h.xml", "-zk", "a:1"}, "do not go with -site"},
		{nil, []string{"-site", "/h.xml", "-kerberos"}, ""}, // the files say who we are
		{zk, []string{"-protection", "privacy"}, "-protection needs -kerberos"},
		{zk, []string{"-protection", "loud"}, "-protection: want one of"},
		{zk, []string{"-ccache", "/tmp/cc"}, "-ccache needs -kerberos"},
		{zk, []string{"-kerberos"}, "-kerberos needs -principal and -keytab"},
		{zk, []string{"-kerberos", "-ccache", "/tmp/cc"}, "-kerberos needs -krb5conf"},
		{zk, []string{"-kerberos", "-ccache", "/tmp/cc", "-krb5conf", "/k"}, ""},
		{zk, []string{"-kerberos", "-ccache", "/tmp/cc", "-krb5conf", "/k", "-keytab", "/kt", "-principal", "p"}, "-ccache does not go with"},
		{zk, []string{"-tls-ca", "/ca"}, "need -tls"},
		{zk, []string{"-tls", "-tls-cert", "/c"}, "go together"},
		{zk, []string{"-tls"}, ""},
		{map[string]string{"HBASE_BOOTSTRAP": "127.0.0.1:16020"}, nil, ""},
		{map[string]string{"HBASE_BOOTSTRAP": "nohost"}, nil, `-bootstrap: "nohost" is not host:port`},
		{map[string]string{"HBASE_BOOTSTRAP": "nohost"}, []string{"-zk", "a:1"}, ""}, // only a default
	} {
		_, err := parse(t, tc.env, tc.args...)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// $HBASE_BOOTSTRAP (cmd/fakehbase's line) is where the cluster is unless a flag says otherwise;
// it wins over $HBASE_ZK, as -bootstrap does.
func TestBootstrapFromEnvironment(t *testing.T) {
	env := map[string]string{"HBASE_BOOTSTRAP": "127.0.0.1:16020", "HBASE_ZK": "127.0.0.1:2181"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "bootstrap 127.0.0.1:16020"},
		{[]string{"-zk", "a:1"}, "zk a:1"},
		{[]string{"-site", "/h.xml"}, "site /h.xml"},
		{[]string{"-bootstrap", "b:2"}, "bootstrap b:2"},
	} {
		f, err := parse(t, env, tc.args...)
		if err != nil || f.Where() != tc.want {
			t.Errorf("%q: Where() = %q, %v; want %q", tc.args, f.Where(), err, tc.want)
		}
	}
}

func TestOptionsReportBadFiles(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pem")
	if _, err := (Security{TLS: true, TLSCA: missing}).Options(); err == nil || !strings.Contains(err.Error(), "-tls-ca") {
		t.Errorf("missing CA file: error %v, want one naming -tls-ca", err)
	}
	if _, err := (Security{Kerberos: true, Protection: "top secret"}).Options(); err == nil || !strings.Contains(err.Error(), "unknown protection") {
		t.Errorf("bad protection: error %v, want one naming the protection", err)
	}
	opts, err := (Security{Kerberos: true, Protection: "privacy", Principal: "p@R", Keytab: missing, KRB5Conf: missing}).Options()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hbase.NewClient("zk:2181", opts...); err == nil || !strings.Contains(err.Error(), "WithKeytab") {
		t.Errorf("missing keytab: NewClient error %v, want one naming the keytab login", err)
	}
	opts, err = (Security{}).Options()
	if len(opts) != 0 || err != nil {
		t.Errorf("SIMPLE: %d options, error %v; want none", len(opts), err)
	}
	opts, err = (Security{TLS: true}).Options()
	if len(opts) != 1 || err != nil {
		t.Errorf("TLS with the system's roots: %d options, error %v; want 1", len(opts), err)
	}
}
