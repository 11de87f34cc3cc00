// Package connflags holds the connection and security flags that the commands of this module
// (hbase-bench, hbasectl) share: where the cluster is (ZooKeeper quorum, bootstrap servers or
// site files) and how to talk to it (Kerberos from a keytab or a credential cache, protection,
// AES, native TLS, proxy user). Defaults come from the environment that cmd/hbase-local
// ($HBASE_ZK...) and cmd/fakehbase ($HBASE_BOOTSTRAP) print.
package connflags

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/kerberos"
)

// Flags are the parsed connection and security flags.
type Flags struct {
	ZKQuorum    string // host:port[,host:port...]
	ZNodeParent string
	Bootstrap   string // host:port[,host:port...]: the connection registry instead of ZooKeeper
	Site        string // comma list of core-site.xml / hbase-site.xml files, read in order
	Security    Security

	set map[string]bool // the flags given on the command line (Check)
}

// Security are the Kerberos and TLS settings, passed through to the client's options.
type Security struct {
	Kerberos        bool
	Principal       string
	Keytab          string
	CCache          string // credential cache, instead of Principal and Keytab
	KRB5Conf        string
	ServerPrincipal string
	Protection      string // authentication, integrity or privacy
	AES             bool
	ProxyUser       string
	// TLS runs native TLS (HBase 2.6+) under the protection, with TLSConfig when set (a
	// caller that has one, as hbase-bench's local cluster), else one built from the PEM files.
	TLS       bool
	TLSCA     string
	TLSCert   string
	TLSKey    string
	TLSConfig *tls.Config
}

// Protections are the values hbase.rpc.protection knows, weakest first.
var Protections = []string{"authentication", "integrity", "privacy"}

// ClusterFlags name the flags that say where a cluster is; CredentialFlags those that carry
// credentials or certificates. A command that brings its own cluster refuses both.
var (
	ClusterFlags    = []string{"zk", "znode", "bootstrap", "site"}
	CredentialFlags = []string{"principal", "keytab", "ccache", "krb5conf", "server-principal", "proxy-user", "tls", "tls-ca", "tls-cert", "tls-key"}
)

// Register defines the flags on fs, with defaults from getenv ($HBASE_ZK, $HBASE_BOOTSTRAP, $HBASE_ZNODE,
// $HBASE_PRINCIPAL, $HBASE_KEYTAB, $KRB5_CONFIG, $KRB5CCNAME, $HBASE_SERVER_PRINCIPAL,
// $HBASE_TLS_CA, $HBASE_TLS_CERT, $HBASE_TLS_KEY).
func (f *Flags) Register(fs *flag.FlagSet, getenv func(string) string) {
	znode := getenv("HBASE_ZNODE")
	if znode == "" {
		znode = "/hbase"
	}
	s := &f.Security
	fs.StringVar(&f.ZKQuorum, "zk", getenv("HBASE_ZK"), "ZooKeeper quorum host:port[,host:port...] (default $HBASE_ZK)")
	fs.StringVar(&f.ZNodeParent, "znode", znode, "HBase's parent znode (from $HBASE_ZNODE when set)")
	fs.StringVar(&f.Bootstrap, "bootstrap", getenv("HBASE_BOOTSTRAP"), "find the cluster through these servers host:port[,host:port...] (HBase 2.5+ connection registry) instead of ZooKeeper (default $HBASE_BOOTSTRAP, unless -zk or -site is given)")
	fs.StringVar(&f.Site, "site", "", "comma list of core-site.xml and hbase-site.xml files to read the quorum, Kerberos, protection, AES and TLS from (flags given override them)")
	fs.BoolVar(&s.Kerberos, "kerberos", false, "authenticate with Kerberos (GSSAPI)")
	fs.StringVar(&s.Principal, "principal", getenv("HBASE_PRINCIPAL"), "client principal (default $HBASE_PRINCIPAL)")
	fs.StringVar(&s.Keytab, "keytab", getenv("HBASE_KEYTAB"), "client keytab (default $HBASE_KEYTAB)")
	fs.StringVar(&s.CCache, "ccache", "", "Kerberos credential cache to use instead of -principal and -keytab (e.g. /tmp/krb5cc_1000, after kinit)")
	fs.StringVar(&s.KRB5Conf, "krb5conf", getenv("KRB5_CONFIG"), "krb5.conf path (default $KRB5_CONFIG)")
	fs.StringVar(&s.ServerPrincipal, "server-principal", getenv("HBASE_SERVER_PRINCIPAL"), "server principal, _HOST is replaced by the server's host (default $HBASE_SERVER_PRINCIPAL or hbase/_HOST@<client realm>)")
	fs.StringVar(&s.Protection, "protection", "privacy", "quality of protection with -kerberos: "+strings.Join(Protections, ", "))
	fs.BoolVar(&s.AES, "aes", true, "with privacy, require HBase's AES transport encryption instead of GSS wrap")
	fs.StringVar(&s.ProxyUser, "proxy-user", "", "with -kerberos, act for this user (the server must allow the client principal to impersonate)")
	fs.BoolVar(&s.TLS, "tls", false, "native TLS (HBase 2.6+), alone or with -kerberos")
	fs.StringVar(&s.TLSCA, "tls-ca", getenv("HBASE_TLS_CA"), "PEM file of the CAs that sign the servers' certificates (default $HBASE_TLS_CA, else the system's)")
	fs.StringVar(&s.TLSCert, "tls-cert", getenv("HBASE_TLS_CERT"), "PEM client certificate for -tls (default $HBASE_TLS_CERT)")
	fs.StringVar(&s.TLSKey, "tls-key", getenv("HBASE_TLS_KEY"), "PEM key of -tls-cert (default $HBASE_TLS_KEY)")
}

// Check validates the flags against each other; set holds the names of the flags given on
// the command line. Its errors are the user's: the caller reports them as bad usage.
func (f *Flags) Check(set map[string]bool) error {
	f.set = set
	s := &f.Security
	if (set["zk"] || set["site"]) && !set["bootstrap"] {
		f.Bootstrap = "" // $HBASE_BOOTSTRAP is only a default
	}
	if f.Site == "" && f.Bootstrap == "" && f.ZKQuorum == "" {
		return errors.New("no cluster: give -zk host:port (or set $HBASE_ZK), -bootstrap host:port (or set $HBASE_BOOTSTRAP) or -site hbase-site.xml")
	}
	if set["zk"] && set["bootstrap"] {
		return errors.New("-zk and -bootstrap do not go together: the cluster is found through one of them")
	}
	if f.Site != "" && (set["zk"] || set["znode"]) {
		return errors.New("-zk and -znode do not go with -site: the files name the quorum")
	}
	if f.Bootstrap != "" {
		if err := hostPorts("-bootstrap", f.Bootstrap); err != nil {
			return err
		}
	} else if f.Site == "" {
		if err := hostPorts("-zk", f.ZKQuorum); err != nil {
			return err
		}
	}
	if !validProtection(s.Protection) {
		return fmt.Errorf("-protection: want one of %s, got %q", strings.Join(Protections, ", "), s.Protection)
	}
	if !s.Kerberos {
		for _, name := range []string{"protection", "aes", "ccache", "proxy-user"} {
			if set[name] {
				return fmt.Errorf("-%s needs -kerberos", name)
			}
		}
	} else if f.Site == "" || set["principal"] || set["keytab"] || set["ccache"] {
		// Without files, the flags must say who we are; with files, flags given override.
		if s.CCache == "" && (s.Principal == "" || s.Keytab == "") {
			return errors.New("-kerberos needs -principal and -keytab (or $HBASE_PRINCIPAL, $HBASE_KEYTAB), or -ccache")
		}
		if s.CCache != "" && (set["principal"] || set["keytab"]) {
			return errors.New("-ccache does not go with -principal and -keytab: the cache holds the principal's ticket")
		}
		if s.KRB5Conf == "" {
			return errors.New("-kerberos needs -krb5conf (or $KRB5_CONFIG)")
		}
	}
	if !s.TLS && (set["tls-ca"] || set["tls-cert"] || set["tls-key"]) {
		return errors.New("-tls-ca, -tls-cert and -tls-key need -tls")
	}
	if s.TLS && s.TLSConfig == nil && (s.TLSCert == "") != (s.TLSKey == "") {
		return errors.New("-tls-cert and -tls-key go together")
	}
	return nil
}

func hostPorts(flagName, list string) error {
	for _, hp := range strings.Split(list, ",") {
		if _, _, err := net.SplitHostPort(hp); err != nil {
			return fmt.Errorf("%s: %q is not host:port: %v", flagName, hp, err)
		}
	}
	return nil
}

func validProtection(p string) bool {
	for _, q := range Protections {
		if p == q {
			return true
		}
	}
	return false
}

// Where says in a few words where the cluster is, for messages.
func (f *Flags) Where() string {
	switch {
	case f.Bootstrap != "":
		return "bootstrap " + f.Bootstrap
	case f.Site != "":
		return "site " + f.Site
	}
	return "zk " + f.ZKQuorum
}

// NewClient returns a client for the cluster the flags name, with opts applied after the
// flags' own options. closeAll closes the client, which releases the Kerberos credentials it
// logged in with (stopping gokrb5's ticket renewal goroutine).
func (f *Flags) NewClient(opts ...hbase.Option) (client *hbase.Client, closeAll func() error, err error) {
	secOpts, err := f.Security.Options()
	if err != nil {
		return nil, nil, err
	}
	var all []hbase.Option
	if f.Bootstrap != "" {
		all = append(all, hbase.WithBootstrapServers(strings.Split(f.Bootstrap, ",")...))
	}
	if f.Site == "" || f.set["znode"] {
		all = append(all, hbase.WithZNodeParent(f.ZNodeParent))
	}
	all = append(append(all, secOpts...), opts...)
	if f.Site != "" {
		var cfg *hbase.SiteConfig
		if cfg, err = hbase.LoadSiteConfig(strings.Split(f.Site, ",")...); err == nil {
			client, err = hbase.NewClientFromConfig(cfg, all...)
		}
	} else {
		quorum := f.ZKQuorum
		if f.Bootstrap != "" {
			quorum = ""
		}
		client, err = hbase.NewClient(quorum, all...)
	}
	if err != nil {
		return nil, nil, err
	}
	return client, client.Close, nil
}

// Options turns the security flags into the client's security options: nothing for SIMPLE
// without TLS, else Kerberos from the keytab or the credential cache with the asked
// protection, and TLS. AES is required when asked for (WithAES(AESRequired)), so a server
// that does not hand out AES keys fails instead of silently falling back to GSS wrap. The
// Kerberos login happens when the client is made; the client owns the credentials.
func (s Security) Options() ([]hbase.Option, error) {
	var opts []hbase.Option
	if s.TLS {
		cfg := s.TLSConfig
		if cfg == nil {
			var err error
			if cfg, err = s.tlsConfig(); err != nil {
				return nil, err
			}
		}
		opts = append(opts, hbase.WithTLS(cfg))
	}
	if !s.Kerberos {
		return opts, nil
	}
	var prot kerberos.Protection
	if err := prot.UnmarshalText([]byte(s.Protection)); err != nil {
		return nil, err
	}
	if s.CCache != "" {
		opts = append(opts, kerberos.WithCCache(s.CCache, s.KRB5Conf))
	} else {
		opts = append(opts, kerberos.WithKeytab(s.Principal, s.Keytab, s.KRB5Conf))
	}
	aes := kerberos.AESOff
	if s.AES {
		aes = kerberos.AESRequired
	}
	opts = append(opts, kerberos.WithProtection(prot), kerberos.WithAES(aes))
	if s.ServerPrincipal != "" {
		opts = append(opts, kerberos.WithServicePrincipal(s.ServerPrincipal))
	}
	if s.ProxyUser != "" {
		opts = append(opts, kerberos.WithProxyUser(s.ProxyUser))
	}
	return opts, nil
}

// tlsConfig builds the TLS configuration from the PEM files: the CAs (else the system's
// roots) and the client certificate, when given.
func (s Security) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.TLSCA != "" {
		pemBytes, err := os.ReadFile(s.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("-tls-ca: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pemBytes) {
			return nil, fmt.Errorf("-tls-ca: no PEM certificate in %s", s.TLSCA)
		}
	}
	if s.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(s.TLSCert, s.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("-tls-cert, -tls-key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
