package hbase

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/testkit"
)

func TestSiteConfigQuorumAndOverrides(t *testing.T) {
	dir := t.TempDir()
	core := testkit.WriteSite(t, dir, "core-site.xml",
		"hbase.zookeeper.property.clientPort!", "2222",
		"zookeeper.znode.parent", "/from-core",
		"app.root", "/apps")
	site := testkit.WriteSite(t, dir, "hbase-site.xml",
		"hbase.zookeeper.quorum", "zk1, zk2:2999,zk3",
		"hbase.zookeeper.property.clientPort", "3333", // core-site's is final
		"zookeeper.znode.parent", "${app.root}/hbase",
		"zookeeper.session.timeout", "5000",
		"hbase.client.scanner.timeout.period", "30000",
		"hbase.client.write.buffer", "4194304",
		"some.unknown.key", "ignored")
	cfg, err := LoadSiteConfig(core, site)
	if err != nil {
		t.Fatal(err)
	}
	q, err := cfg.ZKQuorum()
	if err != nil {
		t.Fatal(err)
	}
	if want := "zk1:2222,zk2:2999,zk3:2222"; q != want {
		t.Fatalf("ZKQuorum = %q; want %q", q, want)
	}
	opts, err := cfg.fileOptions()
	if err != nil {
		t.Fatal(err)
	}
	o := engine.DefaultConfig()
	for _, opt := range append(opts, WithZKSessionTimeout(7*time.Second)) {
		if err := opt(&o); err != nil {
			t.Fatal(err)
		}
	}
	if o.ZKParent != "/apps/hbase" {
		t.Errorf("znode parent = %q; want /apps/hbase (the later file, expanded)", o.ZKParent)
	}
	if o.ZKSessionTimeout != 7*time.Second {
		t.Errorf("session timeout = %v; want 7s (an explicit option overrides the file)", o.ZKSessionTimeout)
	}
	if o.ScanLeaseRenew != 15*time.Second {
		t.Errorf("scanner lease renewal = %v; want half of the 30 s scanner timeout", o.ScanLeaseRenew)
	}
	if o.Handshaker != nil {
		t.Errorf("simple authentication made a handshaker %T", o.Handshaker)
	}
	if o.WriteBuffer != 4<<20 {
		t.Errorf("write buffer = %d; want 4 MiB", o.WriteBuffer)
	}
}

func TestSiteConfigExpansion(t *testing.T) {
	t.Setenv("GOHBASE_TEST_ZK", "envhost")
	dir := t.TempDir()
	cfg, err := LoadSiteConfig(testkit.WriteSite(t, dir, "hbase-site.xml",
		"hbase.zookeeper.quorum", "${env.GOHBASE_TEST_ZK},${missing}",
		"loop", "${loop}x"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cfg.Get("hbase.zookeeper.quorum"); v != "envhost,${missing}" {
		t.Errorf("Get = %q; want envhost,${missing} (an unset reference stays as written)", v)
	}
	if _, _, err := cfg.get("loop"); !errors.Is(err, errExpansion) {
		t.Errorf("self-reference: err = %v; want errExpansion", err)
	}
}

// Every bad value is an error that names the key and the file, and is hberr.ErrConfiguration.
func TestSiteConfigBadValues(t *testing.T) {
	for _, c := range []struct {
		key, value string
	}{
		{"hbase.security.authentication", "ntlm"},
		{"zookeeper.session.timeout", "soon"},
		{"hbase.client.meta.operation.timeout", "-5"},
		{"hbase.client.primaryCallTimeout.get", "-1"},
		{"hbase.client.primaryCallTimeout.get", "10ms"},
		{"hbase.zookeeper.property.clientPort", "70000"},
		{"zookeeper.znode.parent", "hbase"}, // must start with '/'
		{"hbase.client.netty.tls.enabled", "maybe"},
		{"hbase.client.bootstrap.servers", "rs1"},                                              // no port
		{"hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry"}, // no servers
		{"hbase.client.registry.impl", "com.example.MyRegistry"},
		{"hbase.client.write.buffer", "2MB"},
	} {
		t.Run(c.key, func(t *testing.T) {
			dir := t.TempDir()
			kv := []string{"hbase.zookeeper.quorum", "zk1", c.key, c.value}
			file := testkit.WriteSite(t, dir, "hbase-site.xml", kv...)
			cfg, err := LoadSiteConfig(file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewClientFromConfig(cfg)
			var se *hberr.SiteConfigError
			if !errors.As(err, &se) || se.Key != c.key || se.File != file {
				t.Fatalf("err = %v; want a *hberr.SiteConfigError for %s in %s", err, c.key, file)
			}
			if !errors.Is(err, hberr.ErrConfiguration) {
				t.Errorf("err = %v; want errors.Is hberr.ErrConfiguration", err)
			}
			if !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), file) {
				t.Errorf("message %q does not name the key and the file", err)
			}
		})
	}
}

func TestSiteConfigFiles(t *testing.T) {
	if _, err := LoadSiteConfig(); !errors.Is(err, hberr.ErrConfiguration) {
		t.Errorf("no file: err = %v; want hberr.ErrConfiguration", err)
	}
	if _, err := LoadSiteConfig(filepath.Join(t.TempDir(), "absent.xml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v; want os.ErrNotExist", err)
	}
	bad := filepath.Join(t.TempDir(), "hbase-site.xml")
	os.WriteFile(bad, []byte("<configuration><property>"), 0o600)
	if _, err := LoadSiteConfig(bad); !errors.Is(err, hberr.ErrConfiguration) || !strings.Contains(err.Error(), bad) {
		t.Errorf("broken XML: err = %v; want hberr.ErrConfiguration naming the file", err)
	}
	cfg, err := LoadSiteConfig(testkit.WriteSite(t, t.TempDir(), "hbase-site.xml", "zookeeper.znode.parent", "/hbase"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewClientFromConfig(cfg); !errors.Is(err, hberr.ErrConfiguration) || !strings.Contains(err.Error(), "hbase.zookeeper.quorum") {
		t.Errorf("no quorum: err = %v; want hberr.ErrConfiguration naming hbase.zookeeper.quorum", err)
	}
}

// Native TLS from the files: a JKS store is refused naming the key to change; a missing PEM
// file names the location key.
func TestSiteConfigTLSStores(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ key, value, wantKey string }{
		{"hbase.rpc.tls.truststore.type", "JKS", "hbase.rpc.tls.truststore.type"},
		{"hbase.rpc.tls.keystore.type", "PKCS12", "hbase.rpc.tls.keystore.type"},
		{"hbase.rpc.tls.truststore.type", "PEM", "hbase.rpc.tls.truststore.location"}, // file absent
	} {
		file := testkit.WriteSite(t, dir, "hbase-site.xml",
			"hbase.zookeeper.quorum", "zk1",
			"hbase.client.netty.tls.enabled", "true",
			"hbase.rpc.tls.truststore.location", filepath.Join(dir, "absent.pem"),
			"hbase.rpc.tls.keystore.location", filepath.Join(dir, "absent-key.pem"),
			c.key, c.value)
		cfg, err := LoadSiteConfig(file)
		if err != nil {
			t.Fatal(err)
		}
		var se *hberr.SiteConfigError
		if _, err := NewClientFromConfig(cfg); !errors.As(err, &se) || se.Key != c.wantKey {
			t.Errorf("%s=%s: err = %v; want a hberr.SiteConfigError for %s", c.key, c.value, err, c.wantKey)
		}
	}
}

// hbase.client.primaryCallTimeout.get, in microseconds as Java reads it, is the hedge delay.
func TestSiteConfigHedgeDelay(t *testing.T) {
	file := testkit.WriteSite(t, t.TempDir(), "hbase-site.xml", "hbase.zookeeper.quorum", "zk1",
		"hbase.client.primaryCallTimeout.get", "2500")
	cfg, err := LoadSiteConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClientFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if d := engine.Of(c).Config().Hedge.Delay; d != 2500*time.Microsecond {
		t.Fatalf("hedge delay %v, want 2.5ms", d)
	}
}

// Site files that ask for Kerberos fail NewClientFromConfig without an option of package
// kerberos, naming the key, the file and the option to add, rather than connecting without
// Kerberos.
func TestSiteConfigKerberosNeedsPackage(t *testing.T) {
	file := testkit.WriteSite(t, t.TempDir(), "hbase-site.xml",
		"hbase.zookeeper.quorum", "zk1", "hbase.security.authentication", "kerberos")
	cfg, err := LoadSiteConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewClientFromConfig(cfg)
	if !errors.Is(err, hberr.ErrConfiguration) || !strings.Contains(err.Error(), "kerberos.WithSiteConfig()") ||
		!strings.Contains(err.Error(), "hbase.security.authentication=kerberos in "+file) {
		t.Fatalf("err = %v; want hberr.ErrConfiguration naming the key, %s and kerberos.WithSiteConfig()", err, file)
	}
}
