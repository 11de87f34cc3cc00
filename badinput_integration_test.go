package hbase_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/kerberos"
)

// The bad-input table against real clusters (docs/errors.md): one test per kind of cluster.
// The Kerberos and TLS ones start a cluster of their own and come first in the file, so that
// `go test -run TestBadInput` has one JVM at a time: the shared plain cluster starts after.

// clusterEnv is the environment of a real cluster, with its servers' addresses named.
func clusterEnv(t *testing.T, cl *hbasetest.Cluster) *badEnv {
	t.Helper()
	e := newBadEnv(t)
	e.zk, e.parent = cl.ZKQuorum, cl.ZNodeParent
	e.name(cl.ZKQuorum, "<zk>")
	e.name(cl.MasterAddr, "<master>")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range st.RegionServers {
		e.name(rs.Addr, "<rs>")
	}
	if err := cl.CreateTable(ctx, e.table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, e.table)
		_ = cl.DropTable(ctx, e.table)
	})
	return e
}

// TestBadInputKerberos: Kerberos settings the KDC or the cluster refuses fail at once, each
// saying why, instead of being retried until the deadline.
func TestBadInputKerberos(t *testing.T) {
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{Secure: true, Protection: hbasetest.ProtectionPrivacy, AES: true})
	e := clusterEnv(t, cl)
	e.name(cl.KRB5Conf, "<krb5.conf>")
	zk := func(opts ...hbase.Option) func(*badEnv) (string, []hbase.Option) {
		return func(e *badEnv) (string, []hbase.Option) {
			return e.zk, append([]hbase.Option{hbase.WithZNodeParent(e.parent)}, opts...)
		}
	}
	keytab := kerberos.WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
	login := "region: dial <rs>: region: handshake: sasl: kerberos: "
	rows := runBad(t, e, []badCase{
		{name: "Kerberos: valid keytab (control)", client: zk(keytab), conns: 1},
		{name: "Kerberos: principal the KDC does not know", client: zk(kerberos.WithPassword("nobody", "secret", cl.KRB5Conf)),
			is: []error{hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": ` + login + `principal unknown: login as nobody@EXAMPLE.COM: could not get valid TGT for client's realm: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database`},
		{name: "Kerberos: wrong password", client: zk(kerberos.WithPassword(cl.ClientPrincipal, "wrong", cl.KRB5Conf)),
			is: []error{hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `re:hbase: Get "<table>"/"r": ` + login + `bad credentials: login as client@EXAMPLE.COM: could not get valid TGT for client's realm: \(\d+\) \w+ .*`},
		{name: "Kerberos: keytab without the principal", client: zk(kerberos.WithKeytab("nobody", cl.Keytab, cl.KRB5Conf)),
			is: []error{hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `re:hbase: Get "<table>"/"r": ` + login + `(principal unknown|bad credentials): login as nobody@EXAMPLE.COM: .*`},
		{name: "Kerberos: service principal the KDC does not know", client: zk(keytab, kerberos.WithServicePrincipal("nosuch/_HOST")),
			is: []error{hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": ` + login + `principal unknown: service ticket for nosuch/localhost: (7) KDC_ERR_S_PRINCIPAL_UNKNOWN Server not found in Kerberos database`},
		{name: "Kerberos: unknown principal, bootstrap registry", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(cl.MasterAddr), kerberos.WithPassword("nobody", "secret", cl.KRB5Conf)}
		}, is: []error{hberr.ErrConfiguration, hberr.ErrBootstrapUnreachable}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": locating hbase:meta: no bootstrap server answered (<master>): <master>: region: dial <master>: region: handshake: sasl: kerberos: principal unknown: login as nobody@EXAMPLE.COM: could not get valid TGT for client's realm: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database`},
		{name: "Kerberos cluster, client without Kerberos", client: zk(),
			is: []error{hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": probing region "hbase:meta,,1" on <rs>: connection failed (<rs>): org.apache.hadoop.hbase.security.AccessDeniedException: Authentication is required`},
	}, false)
	t.Log(badTable(rows))
}

// TestBadInputTLS: a plaintext client against a TLS-only cluster, through either registry,
// fails at once with ErrTLS saying so, and does not reconnect call after call; certificates
// the client or the cluster refuse fail at once too.
func TestBadInputTLS(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{TLS: true})
	if !cl.AtLeast(2, 6) {
		t.Skip("native TLS needs HBase 2.6")
	}
	e := clusterEnv(t, cl)
	good, err := cl.TLS.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	zk := func(opts ...hbase.Option) func(*badEnv) (string, []hbase.Option) {
		return func(e *badEnv) (string, []hbase.Option) {
			return e.zk, append([]hbase.Option{hbase.WithZNodeParent(e.parent)}, opts...)
		}
	}
	speaksTLS := "the server speaks TLS and closed this plaintext connection: the cluster requires TLS; connect with hbase.WithTLS (hbase.client.netty.tls.enabled)"
	untrusted := good.Clone()
	untrusted.RootCAs = x509.NewCertPool()
	noCert := good.Clone()
	noCert.Certificates = nil
	rows := runBad(t, e, []badCase{
		{name: "TLS: client with the cluster's certificates (control)", client: zk(hbase.WithTLS(good)), conns: 1},
		{name: "plaintext client, TLS-only cluster (ZooKeeper)", client: zk(),
			is: []error{hberr.ErrTLS, hberr.ErrConfiguration}, fast: true, conns: 2,
			want: `re:hbase: Get "<table>"/"r": probing region "hbase:meta,,1" on <rs>: ` + notSent + `connection failed \(<rs>\): ` + regexp.QuoteMeta(speaksTLS)},
		{name: "plaintext client, TLS-only cluster (ZooKeeper), 20 calls", client: zk(),
			call: func(ctx context.Context, c *hbase.Client, e *badEnv) error {
				var err error
				for range 20 {
					get, _ := hrpc.NewGet(e.table, []byte("r"))
					_, err = c.Get(ctx, get)
				}
				return err
			}, is: []error{hberr.ErrTLS, hberr.ErrConfiguration}, fast: true, conns: 6,
			want: `re:hbase: Get "<table>"/"r": (probing region "hbase:meta,,1" on <rs>: )?` + notSent + `connection failed \(<rs>\): ` + regexp.QuoteMeta(speaksTLS)},
		{name: "plaintext client, TLS-only cluster (bootstrap)", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(cl.MasterAddr)}
		}, is: []error{hberr.ErrTLS, hberr.ErrConfiguration, hberr.ErrBootstrapUnreachable}, fast: true, conns: 2,
			want: `re:hbase: Get "<table>"/"r": locating hbase:meta: no bootstrap server answered \(<master>\): <master>: ` + notSent + `connection failed \(<master>\): ` + regexp.QuoteMeta(speaksTLS)},
		{name: "TLS client not trusting the cluster's CA", client: zk(hbase.WithTLS(untrusted)),
			is: []error{hberr.ErrTLS, hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": region: dial <rs>: TLS handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority`},
		{name: "TLS client without the client certificate the cluster requires", client: zk(hbase.WithTLS(noCert)),
			is: []error{hberr.ErrTLS, hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `re:hbase: Get "<table>"/"r": .*tls: .*certificate.*`},
	}, false)
	t.Log(badTable(rows))
}

// TestBadInputPlain: the rows of the table that need a plain cluster: wrong addresses and
// servers, TLS against a plaintext cluster, missing table and family, rows and values the
// client or the server refuse. hbase:meta and the table's region may be on two of the
// cluster's three servers: two connections.
func TestBadInputPlain(t *testing.T) {
	cl := hbase.SharedTestCluster(t)
	e := clusterEnv(t, cl)
	host, port, err := net.SplitHostPort(cl.MasterAddr)
	if err != nil {
		t.Fatal(err)
	}
	if host == "localhost" {
		// go-zookeeper tries each address of a name: ::1, where the master does not listen, too.
		e.name(net.JoinHostPort("127.0.0.1", port), "<master>")
	}
	masterIPv4 := net.JoinHostPort("127.0.0.1", port)
	zk := func(opts ...hbase.Option) func(*badEnv) (string, []hbase.Option) {
		return func(e *badEnv) (string, []hbase.Option) {
			return e.zk, append([]hbase.Option{hbase.WithZNodeParent(e.parent)}, opts...)
		}
	}
	put := func(value []byte, family string) func(context.Context, *hbase.Client, *badEnv) error {
		return func(ctx context.Context, c *hbase.Client, e *badEnv) error {
			p, err := hrpc.NewPut(e.table, []byte("r"), hrpc.Value([]byte(family), []byte("q"), value))
			if err != nil {
				return err
			}
			_, err = c.Put(ctx, p)
			return err
		}
	}
	huge := make([]byte, 300<<20)
	notPlain := "(the server answered in plaintext: it does not speak TLS; native TLS needs HBase 2.6 or later with hbase.server.netty.tls.enabled)"
	rows := runBad(t, e, []badCase{
		{name: "unresolvable ZooKeeper host, WithNoRetries", client: func(*badEnv) (string, []hbase.Option) {
			return "nosuchhost.invalid:2181", []hbase.Option{hbase.WithNoRetries()}
		}, is: []error{hberr.ErrAttemptsExhausted, hberr.ErrConnection}, fast: true, conns: 0,
			want: `re:hbase: Get "<table>"/"r": attempts exhausted after 1 attempt: locating hbase:meta: zk: ZooKeeper unreachable \(nosuchhost\.invalid:2181\): lookup nosuchhost\.invalid.*`},
		{name: "ZooKeeper quorum at HBase's RPC port, WithNoRetries", client: func(*badEnv) (string, []hbase.Option) {
			return masterIPv4, []hbase.Option{hbase.WithNoRetries()}
		}, is: []error{hberr.ErrConfiguration}, fast: true, conns: 0,
			want: `re:hbase: Get "<table>"/"r": locating hbase:meta: zk: <master> is not a ZooKeeper server: it answered ZooKeeper's connect request with ".*"(\.\.\.)? \(is the port ZooKeeper's client port, 2181 by default\?\)`},
		{name: "wrong parent znode", client: func(e *badEnv) (string, []hbase.Option) {
			return e.zk, []hbase.Option{hbase.WithZNodeParent("/wrong")}
		}, is: []error{hberr.ErrConfiguration}, fast: true, conns: 0,
			want: `hbase: Get "<table>"/"r": locating hbase:meta: zk: znode /wrong/meta-region-server does not exist, nor does its parent /wrong: is the parent znode right? It must be HBase's zookeeper.znode.parent (default /hbase; set with WithZNodeParent)`},
		{name: "TLS client, plaintext cluster (ZooKeeper)", client: zk(hbase.WithTLS(&tls.Config{})),
			is: []error{hberr.ErrTLS, hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": region: dial <rs>: TLS handshake failed: tls: first record does not look like a TLS handshake ` + notPlain},
		{name: "TLS client, plaintext cluster (bootstrap)", client: func(*badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(cl.MasterAddr), hbase.WithTLS(&tls.Config{})}
		}, is: []error{hberr.ErrTLS, hberr.ErrConfiguration, hberr.ErrBootstrapUnreachable}, fast: true, conns: 1,
			want: `hbase: Get "<table>"/"r": locating hbase:meta: no bootstrap server answered (<master>): <master>: region: dial <master>: TLS handshake failed: tls: first record does not look like a TLS handshake ` + notPlain},
		{name: "missing table", call: func(ctx context.Context, c *hbase.Client, _ *badEnv) error {
			get, _ := hrpc.NewGet("nosuchtable", []byte("r"))
			_, err := c.Get(ctx, get)
			return err
		}, is: []error{hberr.ErrTableNotFound}, fast: true, conns: 2,
			want: `hbase: Get "nosuchtable"/"r": table not found`},
		{name: "wrong family (Get)", call: func(ctx context.Context, c *hbase.Client, e *badEnv) error {
			get, _ := hrpc.NewGet(e.table, []byte("r"), hrpc.Families([]byte("nofam")))
			_, err := c.Get(ctx, get)
			return err
		}, is: []error{hberr.ErrNoSuchFamily}, fast: true, conns: 2,
			want: `hbase: Get "<table>"/"r": org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family nofam does not exist in region <region> in table '<table>'`},
		{name: "wrong family (Put)", call: put([]byte("v"), "nofam"), is: []error{hberr.ErrNoSuchFamily}, fast: true, conns: 2,
			want: `hbase: Put "<table>"/"r": org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family nofam does not exist in region <region> in table '<table>'`},
		{name: "empty value (allowed: HBase stores it)", call: put(nil, "f"), conns: 2},
		{name: "value over the server's 10 MB KeyValue limit", call: put(make([]byte, 11<<20), "f"),
			is: []error{hberr.ErrDoNotRetry}, fast: true, conns: 2,
			want: `re:hbase: Put "<table>"/"r": org\.apache\.hadoop\.hbase\.DoNotRetryIOException: Cell\[r/f:q/LATEST_TIMESTAMP/Put/vlen=11534336/seqid=0\] with size \d+ exceeds limit of 10485760 bytes`},
		{name: "300 MB Put (over the 256 MB a request may carry)", call: put(huge, "f"),
			is: []error{hberr.ErrBadRequest}, fast: true, conns: 0,
			want: `re:hrpc: bad request: cells of 3145728\d\d bytes, over the 268435456 bytes one request may carry`},
	}, false)
	t.Log(badTable(rows))
}
