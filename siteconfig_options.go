package hbase

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// NewClientFromConfig returns a client for the cluster that cfg describes. Options given here
// override the files (they are applied after the files' settings). It reads these keys:
//
//	hbase.zookeeper.quorum, hbase.zookeeper.property.clientPort   the ZooKeeper quorum (port default 2181)
//	zookeeper.znode.parent                                        WithZNodeParent
//	zookeeper.session.timeout (ms)                                WithZKSessionTimeout
//	hbase.client.meta.operation.timeout (ms)                      WithRegionLookupTimeout
//	hbase.client.scanner.timeout.period (ms)                      WithScannerLeaseRenewal (half of it)
//	hbase.client.write.buffer (bytes)                             the default bound of bufwriter.Writers
//	hbase.client.primaryCallTimeout.get (µs)                      WithHedgeDelay
//	hbase.security.authentication (or hadoop.security.authentication): simple, or kerberos, which
//	                                                              needs an option of package kerberos (kerberos.WithSiteConfig
//	                                                              reads the files' Kerberos keys)
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
// JKS and PKCS#12 stores are refused (convert them to PEM) rather than connecting differently from the files. The
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
	site := func(o *config) error {
		o.Site = cfg.lookup
		return nil
	}
	return NewClient(quorum, append(append([]Option{site}, fromFiles...), opts...)...)
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
		opts = append(opts, c.checked("hbase.client.write.buffer", v, withDefaultWriteBuffer(n)))
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

// securityOptions returns the option that records whether the files ask for Kerberos: a
// client made from them then needs an option of package kerberos, which reads the files'
// other security keys (kerberos.WithSiteConfig).
func (c *SiteConfig) securityOptions() ([]Option, error) {
	authKey := "hbase.security.authentication"
	auth, ok, err := c.get(authKey)
	if err != nil {
		return nil, err
	}
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
	asks := fmt.Sprintf("%s=%s in %s", authKey, auth, c.fileOf(authKey))
	return []Option{func(o *config) error {
		o.SiteKerberos = asks
		return nil
	}}, nil
}

// lookup reads key for the options of other packages (engine.Config.Site).
func (c *SiteConfig) lookup(key string) (value, file string, ok bool, err error) {
	value, ok, err = c.get(key)
	return value, c.fileOf(key), ok, err
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
	return func(o *config) error {
		if err := opt(o); err != nil {
			return c.bad(key, value, err)
		}
		return nil
	}
}

// withDefaultWriteBuffer sets the bound of the client's bufwriter.Writers that set none of
// their own (hbase.client.write.buffer).
func withDefaultWriteBuffer(bytes int64) Option {
	return func(o *config) error {
		o.WriteBuffer = bytes
		return nil
	}
}
