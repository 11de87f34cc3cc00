package hbase

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/sasl"
)

// NewClientFromConfig returns a client for the cluster that cfg describes. Options given here
// override the files (they are applied after the files' settings). It reads these keys:
//
//	hbase.zookeeper.quorum, hbase.zookeeper.property.clientPort   the ZooKeeper quorum (port default 2181)
//	zookeeper.znode.parent                                        WithZNodeParent
//	zookeeper.session.timeout (ms)                                WithZKSessionTimeout
//	hbase.client.meta.operation.timeout (ms)                      WithRegionLookupTimeout
//	hbase.client.scanner.timeout.period (ms)                      WithScannerLeaseRenewal (half of it)
//	hbase.client.write.buffer (bytes)                             WithDefaultWriteBuffer (BufferedWriter's bound)
//	hbase.client.primaryCallTimeout.get (µs)                      WithHedgeDelay
//	hbase.security.authentication (or hadoop.security.authentication): simple or kerberos
//	hbase.client.keytab.principal, hbase.client.keytab.file       WithKerberosKeytab; without them the
//	                                                              credential cache of $KRB5CCNAME or /tmp/krb5cc_<uid>
//	hbase.regionserver.kerberos.principal                         WithServicePrincipal
//	hbase.rpc.protection                                          WithProtection (the first of a list; a list
//	                                                              naming weaker levels too adds WithAllowWeakerProtection)
//	hbase.rpc.crypto.encryption.aes.enabled                       true: WithAES(AESPreferred), as the Java client
//	                                                              falls back to SASL encryption; false: AESOff
//
//	hbase.client.pause.server.overloaded (ms; or the deprecated   WithOverloadPause
//	hbase.client.pause.cqtbe)
//	hbase.client.backpressure.enabled with                        WithBackpressure (max: hbase.client.exponential-backoff.max,
//	hbase.client.statistics.backoff-policy =                      default 5 min as in Java; other policies delay
//	...ExponentialClientBackoffPolicy                             nothing, as Java's default NoBackoffPolicy)
//
//	hbase.client.registry.impl, hbase.client.bootstrap.servers   WithBootstrapServers (RpcConnectionRegistry, or
//	                                                              bootstrap servers given): no quorum needed
//
//	hbase.client.netty.tls.enabled                                WithTLS, with hbase.rpc.tls.truststore.location
//	                                                              (PEM; default: the system's roots),
//	                                                              hbase.rpc.tls.keystore.location (PEM, certificate
//	                                                              and key) and hbase.client.netty.tls.verify.server.hostname
//
// The Kerberos configuration is $KRB5_CONFIG, or /etc/krb5.conf. JKS and PKCS#12 stores are
// refused (convert them to PEM) rather than connecting differently from the files. The
// per-call timeouts (hbase.rpc.timeout, hbase.client.operation.timeout) are not used: each
// call's context sets its deadline.
func NewClientFromConfig(cfg *SiteConfig, opts ...Option) (*Client, error) {
	if cfg == nil {
		return nil, fmt.Errorf("hbase: NewClientFromConfig: nil SiteConfig: %w", hberr.ErrConfiguration)
	}
	fromFiles, err := cfg.fileOptions()
	if err != nil {
		return nil, err
	}
	bootstrap, err := cfg.bootstrapServers()
	if err != nil {
		return nil, err
	}
	quorum := ""
	if len(bootstrap) == 0 {
		if quorum, err = cfg.ZKQuorum(); err != nil {
			return nil, err
		}
	}
	return NewClient(quorum, append(fromFiles, opts...)...)
}

// ZKQuorum returns the ZooKeeper quorum the files name, each host with its port
// ("zk1:2181,zk2:2181").
func (c *SiteConfig) ZKQuorum() (string, error) {
	const key = "hbase.zookeeper.quorum"
	hosts, ok, err := c.get(key)
	if err != nil {
		return "", err
	}
	if !ok || hosts == "" {
		return "", fmt.Errorf("hbase: configuration names no ZooKeeper quorum (%s): %w", key, hberr.ErrConfiguration)
	}
	port := "2181"
	if p, ok, err := c.get("hbase.zookeeper.property.clientPort"); err != nil {
		return "", err
	} else if ok {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return "", c.bad("hbase.zookeeper.property.clientPort", p, errors.New("not a port number"))
		}
		port = p
	}
	var out []string
	for h := range strings.SplitSeq(hosts, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(h, port)
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return "", c.bad(key, hosts, errors.New("no host"))
	}
	return strings.Join(out, ","), nil
}

// fileOptions returns the client options the files ask for (see NewClientFromConfig).
func (c *SiteConfig) fileOptions() ([]Option, error) {
	var opts []Option
	bootstrap, err := c.bootstrapServers()
	if err != nil {
		return nil, err
	}
	if len(bootstrap) > 0 {
		opts = append(opts, c.checked("hbase.client.bootstrap.servers", strings.Join(bootstrap, ","), WithBootstrapServers(bootstrap...)))
	}
	if opt, err := c.tlsOption(); err != nil {
		return nil, err
	} else if opt != nil {
		opts = append(opts, opt)
	}
	if v, ok, err := c.get("zookeeper.znode.parent"); err != nil {
		return nil, err
	} else if ok {
		opts = append(opts, c.checked("zookeeper.znode.parent", v, WithZNodeParent(v)))
	}
	for _, d := range []struct {
		key  string
		with func(time.Duration) Option
	}{
		{"zookeeper.session.timeout", WithZKSessionTimeout},
		{"hbase.client.meta.operation.timeout", WithRegionLookupTimeout},
		// The server ends a scanner idle for the period; renew at half of it.
		{"hbase.client.scanner.timeout.period", func(d time.Duration) Option { return WithScannerLeaseRenewal(d / 2) }},
	} {
		ms, ok, err := c.millis(d.key)
		if err != nil {
			return nil, err
		}
		if ok {
			opts = append(opts, c.checked(d.key, strconv.FormatInt(ms.Milliseconds(), 10), d.with(ms)))
		}
	}
	over, err := c.overloadOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, over...)
	if v, ok, err := c.get("hbase.client.write.buffer"); err != nil {
		return nil, err
	} else if ok && v != "" {
		n, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if perr != nil || n <= 0 {
			return nil, c.bad("hbase.client.write.buffer", v, errors.New("want a positive number of bytes"))
		}
		opts = append(opts, c.checked("hbase.client.write.buffer", v, WithDefaultWriteBuffer(n)))
	}
	if v, ok, err := c.get("hbase.client.primaryCallTimeout.get"); err != nil {
		return nil, err
	} else if ok {
		us, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil || us < 0 {
			return nil, c.bad("hbase.client.primaryCallTimeout.get", v, errors.New("want a number of microseconds, 0 or more"))
		}
		opts = append(opts, c.checked("hbase.client.primaryCallTimeout.get", v, WithHedgeDelay(time.Duration(us)*time.Microsecond)))
	}
	sec, err := c.securityOptions()
	if err != nil {
		return nil, err
	}
	return append(opts, sec...), nil
}

func (c *SiteConfig) securityOptions() ([]Option, error) {
	auth, ok, err := c.get("hbase.security.authentication")
	if err != nil {
		return nil, err
	}
	authKey := "hbase.security.authentication"
	if !ok {
		authKey = "hadoop.security.authentication"
		if auth, _, err = c.get(authKey); err != nil {
			return nil, err
		}
	}
	switch strings.ToLower(auth) {
	case "", "simple":
		return nil, nil
	case "kerberos":
	default:
		return nil, c.bad(authKey, auth, errors.New("want simple or kerberos"))
	}
	krb5 := os.Getenv("KRB5_CONFIG")
	if krb5 == "" {
		krb5 = "/etc/krb5.conf"
	}
	opts := []Option{withDefaultCredentials(c.credentials(krb5))}
	if v, ok, err := c.get("hbase.regionserver.kerberos.principal"); err != nil {
		return nil, err
	} else if ok && v != "" {
		// The pattern's realm is the servers'; the client finds it through krb5.conf.
		opts = append(opts, WithServicePrincipal(v))
	}
	if v, ok, err := c.get("hbase.rpc.protection"); err != nil {
		return nil, err
	} else if ok && v != "" {
		levels, err := parseProtections(v)
		if err != nil {
			return nil, c.bad("hbase.rpc.protection", v, err)
		}
		opts = append(opts, WithProtection(levels[0]))
		for _, l := range levels[1:] {
			if l < levels[0] {
				opts = append(opts, WithAllowWeakerProtection())
				break
			}
		}
	}
	if v, ok, err := c.bool("hbase.rpc.crypto.encryption.aes.enabled"); err != nil {
		return nil, err
	} else if ok && v {
		opts = append(opts, WithAES(AESPreferred))
	} else {
		opts = append(opts, WithAES(AESOff))
	}
	return opts, nil
}

// credentials returns how the Kerberos login is made when no explicit option gives
// credentials: the files' keytab, or the user's credential cache.
func (c *SiteConfig) credentials(krb5 string) func() (*sasl.Credentials, error) {
	principal, _, perr := c.get("hbase.client.keytab.principal")
	keytab, _, kerr := c.get("hbase.client.keytab.file")
	return func() (*sasl.Credentials, error) {
		if err := errors.Join(perr, kerr); err != nil {
			return nil, err
		}
		switch {
		case principal != "" && keytab != "":
			creds, err := sasl.KeytabCredentials(principal, keytab, krb5)
			if err != nil {
				return nil, c.bad("hbase.client.keytab.file", keytab, err)
			}
			return creds, nil
		case principal != "" || keytab != "":
			return nil, c.bad("hbase.client.keytab.principal", principal, errors.New("hbase.client.keytab.principal and hbase.client.keytab.file go together"))
		}
		ccache := strings.TrimPrefix(os.Getenv("KRB5CCNAME"), "FILE:")
		if ccache == "" {
			ccache = fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid())
		}
		creds, err := sasl.CCacheCredentials(ccache, krb5)
		if err != nil {
			return nil, fmt.Errorf("hbase: Kerberos configured without hbase.client.keytab.file: credential cache %s: %w (run kinit, or set KRB5CCNAME)", ccache, err)
		}
		return creds, nil
	}
}

// bootstrapServers returns the servers of the connection registry when the files choose it
// (hbase.client.registry.impl RpcConnectionRegistry, or bootstrap servers without another
// registry), else nil for ZooKeeper.
func (c *SiteConfig) bootstrapServers() ([]string, error) {
	impl, _, err := c.get("hbase.client.registry.impl")
	if err != nil {
		return nil, err
	}
	list, _, err := c.get("hbase.client.bootstrap.servers")
	if err != nil {
		return nil, err
	}
	var servers []string
	for s := range strings.SplitSeq(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			servers = append(servers, s)
		}
	}
	switch {
	case impl == "" || strings.HasSuffix(impl, ".RpcConnectionRegistry"):
		if impl != "" && len(servers) == 0 {
			return nil, c.bad("hbase.client.registry.impl", impl, errors.New("needs hbase.client.bootstrap.servers"))
		}
		return servers, nil
	case strings.HasSuffix(impl, ".ZKConnectionRegistry"):
		return nil, nil
	}
	return nil, c.bad("hbase.client.registry.impl", impl, errors.New("want ZKConnectionRegistry or RpcConnectionRegistry"))
}

func parseProtections(v string) ([]Protection, error) {
	var out []Protection
	for name := range strings.SplitSeq(v, ",") {
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "authentication":
			out = append(out, ProtectionAuthentication)
		case "integrity":
			out = append(out, ProtectionIntegrity)
		case "privacy":
			out = append(out, ProtectionPrivacy)
		default:
			return nil, fmt.Errorf("unknown protection %q (want authentication, integrity or privacy)", name)
		}
	}
	return out, nil
}

func (c *SiteConfig) bool(key string) (value, set bool, err error) {
	v, ok, err := c.get(key)
	if err != nil || !ok {
		return false, false, err
	}
	switch strings.ToLower(v) {
	case "true":
		return true, true, nil
	case "false":
		return false, true, nil
	}
	return false, true, c.bad(key, v, errors.New("want true or false"))
}

func (c *SiteConfig) millis(key string) (time.Duration, bool, error) {
	v, ok, err := c.get(key)
	if err != nil || !ok {
		return 0, false, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, true, c.bad(key, v, errors.New("want a positive number of milliseconds"))
	}
	return time.Duration(n) * time.Millisecond, true, nil
}

func (c *SiteConfig) bad(key, value string, err error) error {
	return &hberr.SiteConfigError{File: c.fileOf(key), Key: key, Value: value, Err: err}
}

// checked makes an option's own error name the key and file it came from.
func (c *SiteConfig) checked(key, value string, opt Option) Option {
	return func(o *options) error {
		if err := opt(o); err != nil {
			return c.bad(key, value, err)
		}
		return nil
	}
}
