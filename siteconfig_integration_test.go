package hbase

import (
	"bytes"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// A client made from an hbase-site.xml alone reaches the real cluster: the quorum's host and
// its clientPort come from separate keys, as in a Java deployment's files.
func TestIntegrationSiteConfig(t *testing.T) {
	cl := testCluster(t)
	table := createTable(t, []string{"f"}, nil)
	host, port, err := net.SplitHostPort(cl.ZKQuorum)
	if err != nil {
		t.Fatal(err)
	}
	c := siteClient(t,
		"hbase.zookeeper.quorum", host,
		"hbase.zookeeper.property.clientPort", port,
		"zookeeper.znode.parent", cl.ZNodeParent,
		"hbase.client.meta.operation.timeout", "20000")
	siteRoundTrip(t, c, table)
}

// siteClient returns a client made from an hbase-site.xml holding the given keys and values,
// closed when the test ends.
func siteClient(t *testing.T, kv ...string) *Client {
	t.Helper()
	cfg, err := LoadSiteConfig(writeSite(t, t.TempDir(), "hbase-site.xml", kv...))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClientFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// siteRoundTrip puts one cell through c and reads it back.
func siteRoundTrip(t *testing.T, c *Client, table string) {
	t.Helper()
	ctx := testContext(t, time.Minute)
	put, err := hrpc.NewPut([]byte(table), []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("from the site file")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatalf("Put: %v", err)
	}
	get, err := hrpc.NewGet([]byte(table), []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, get)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, []byte("from the site file")) {
		t.Fatalf("Get = %v; want the cell just put", res.Cells)
	}
}

// secureSiteConfig connects to a Kerberos cluster with privacy and AES through the files a
// Java client of that cluster would use, and shows that an explicit credentials option
// overrides the files' keytab without the files' login being tried.
func secureSiteConfig(t *testing.T, cl *hbasetest.Cluster) {
	dir := t.TempDir()
	host, port, err := net.SplitHostPort(cl.ZKQuorum)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5_CONFIG", cl.KRB5Conf)
	site := func(keytab string) *SiteConfig {
		cfg, err := LoadSiteConfig(
			writeSite(t, dir, "core-site.xml", "hadoop.security.authentication", "kerberos"),
			writeSite(t, dir, "hbase-site.xml",
				"hbase.zookeeper.quorum", host,
				"hbase.zookeeper.property.clientPort", port,
				"zookeeper.znode.parent", cl.ZNodeParent,
				"hbase.rpc.protection", "privacy",
				"hbase.rpc.crypto.encryption.aes.enabled", "true",
				"hbase.regionserver.kerberos.principal", cl.ServerPrincipal,
				"hbase.client.keytab.principal", cl.ClientPrincipal,
				"hbase.client.keytab.file", keytab))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	t.Run("keytab", func(t *testing.T) {
		c, err := NewClientFromConfig(site(cl.Keytab))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		secureDataOps(t, cl, c, "sec_site")
	})
	t.Run("explicit-credentials-override", func(t *testing.T) {
		c, err := NewClientFromConfig(site(filepath.Join(dir, "absent.keytab")),
			WithKerberosKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf))
		if err != nil {
			t.Fatalf("NewClientFromConfig with explicit credentials: %v", err)
		}
		defer c.Close()
		secureDataOps(t, cl, c, "sec_site_override")
	})
	t.Run("files-keytab-missing", func(t *testing.T) {
		var se *hberr.SiteConfigError
		if _, err := NewClientFromConfig(site(filepath.Join(dir, "absent.keytab"))); !errors.As(err, &se) || se.Key != "hbase.client.keytab.file" {
			t.Fatalf("err = %v; want a hberr.SiteConfigError for hbase.client.keytab.file", err)
		}
	})
}
