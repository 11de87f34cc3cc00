package hbase

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Native TLS (HBase 2.6) against a cluster whose servers require TLS with client certificates:
// calls work with the cluster's certificates, and every way of getting it wrong fails with an
// error that says what is wrong, never a plaintext connection.
func TestIntegrationTLS(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1, TLS: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if !cl.AtLeast(2, 6) {
		// Before 2.6 the servers ignore the TLS settings: a TLS client must say so.
		c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent), WithTLS(&tls.Config{}))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.Get(ctx, mustGet(t, "any", []byte("row")))
		if !errors.Is(err, hberr.ErrTLS) || !strings.Contains(err.Error(), "HBase 2.6 or later") {
			t.Fatalf("HBase %s: err = %v; want hberr.ErrTLS naming HBase 2.6", cl.Version(), err)
		}
		return
	}
	if err := cl.CreateTable(ctx, "tls", []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	good, err := cl.TLS.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	newClient := func(t *testing.T, opts ...Option) *Client {
		c, err := NewClient(cl.ZKQuorum, append([]Option{WithZNodeParent(cl.ZNodeParent), WithRegionLookupTimeout(2 * time.Second)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	failGet := func(t *testing.T, c *Client) error {
		t.Helper()
		short, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		defer cancel()
		_, err := c.Get(short, mustGet(t, "tls", []byte("row")))
		if err == nil {
			t.Fatal("Get succeeded")
		}
		return err
	}
	// A certificate problem is a configuration error: the call fails at once.
	failFast := func(t *testing.T, c *Client) error {
		t.Helper()
		start := time.Now()
		err := failGet(t, c)
		if took := time.Since(start); took > 2*time.Second || !errors.Is(err, hberr.ErrConfiguration) {
			t.Errorf("failed after %v with %v; want hberr.ErrConfiguration at once", took, err)
		}
		return err
	}

	t.Run("mutual-tls", func(t *testing.T) {
		siteRoundTrip(t, newClient(t, WithTLS(good)), "tls")
	})
	t.Run("site-config", func(t *testing.T) {
		dir := t.TempDir()
		keystore := filepath.Join(dir, "client-keystore.pem")
		var pemBytes []byte
		for _, f := range []string{cl.TLS.ClientCert, cl.TLS.ClientKey} {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pemBytes = append(pemBytes, b...)
		}
		if err := os.WriteFile(keystore, pemBytes, 0o600); err != nil {
			t.Fatal(err)
		}
		host, port, _ := net.SplitHostPort(cl.ZKQuorum)
		c := siteClient(t,
			"hbase.zookeeper.quorum", host, "hbase.zookeeper.property.clientPort", port,
			"zookeeper.znode.parent", cl.ZNodeParent,
			"hbase.client.netty.tls.enabled", "true",
			"hbase.rpc.tls.truststore.location", cl.TLS.CA, "hbase.rpc.tls.truststore.type", "PEM",
			"hbase.rpc.tls.keystore.location", keystore, "hbase.rpc.tls.keystore.type", "PEM")
		siteRoundTrip(t, c, "tls")
	})
	t.Run("bootstrap-over-tls", func(t *testing.T) {
		c, err := NewClient("", WithBootstrapServers(cl.MasterAddr), WithTLS(good))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		siteRoundTrip(t, c, "tls")
	})
	t.Run("plaintext-client", func(t *testing.T) {
		err := failFast(t, newClient(t))
		if !errors.Is(err, hberr.ErrTLS) || !strings.Contains(err.Error(), "the server speaks TLS and closed this plaintext connection") {
			t.Fatalf("err = %v; want ErrTLS saying the server requires TLS", err)
		}
	})
	t.Run("untrusted-server", func(t *testing.T) {
		cfg := good.Clone()
		cfg.RootCAs = x509.NewCertPool() // trusts nothing
		err := failFast(t, newClient(t, WithTLS(cfg)))
		if !errors.Is(err, hberr.ErrTLS) || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("err = %v; want hberr.ErrTLS about the server's certificate", err)
		}
	})
	t.Run("expired-client-certificate", func(t *testing.T) {
		dir := t.TempDir()
		certPath, keyPath := filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
		now := time.Now()
		if err := cl.TLS.IssueClientCert(certPath, keyPath, now.Add(-48*time.Hour), now.Add(-24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		cert, err := tls.LoadX509KeyPair(certPath, keyPath)
		if err != nil {
			t.Fatal(err)
		}
		cfg := good.Clone()
		cfg.Certificates = []tls.Certificate{cert}
		err = failFast(t, newClient(t, WithTLS(cfg)))
		if !errors.Is(err, hberr.ErrTLS) {
			t.Fatalf("err = %v; want hberr.ErrTLS (the server refuses an expired client certificate)", err)
		}
		t.Logf("expired client certificate: %v", err)
	})
}

// A TLS client against a plaintext server fails the dial with hberr.ErrTLS and a hint,
// instead of falling back to plaintext.
func TestIntegrationTLSClientPlainServer(t *testing.T) {
	newTestClient(t) // the shared plain cluster
	cl := testCluster(t)
	c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent), WithTLS(&tls.Config{}), WithRegionLookupTimeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get, err := hrpc.NewGet("any", []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.Get(ctx, get)
	if took := time.Since(start); took > 2*time.Second || !errors.Is(err, hberr.ErrConfiguration) {
		t.Errorf("failed after %v with %v; want hberr.ErrConfiguration at once", took, err)
	}
	if !errors.Is(err, hberr.ErrTLS) || !strings.Contains(err.Error(), "does not speak TLS") {
		t.Fatalf("err = %v; want hberr.ErrTLS saying the server does not speak TLS", err)
	}
}
