package kerberos

import (
	"errors"
	"net"
	"path/filepath"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/testkit"
)

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
	site := func(keytab string) *hbase.SiteConfig {
		cfg, err := hbase.LoadSiteConfig(
			testkit.WriteSite(t, dir, "core-site.xml", "hadoop.security.authentication", "kerberos"),
			testkit.WriteSite(t, dir, "hbase-site.xml",
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
		c, err := hbase.NewClientFromConfig(site(cl.Keytab), WithSiteConfig())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		secureDataOps(t, cl, c, "sec_site")
	})
	t.Run("explicit-credentials-override", func(t *testing.T) {
		c, err := hbase.NewClientFromConfig(site(filepath.Join(dir, "absent.keytab")),
			WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf))
		if err != nil {
			t.Fatalf("NewClientFromConfig with explicit credentials: %v", err)
		}
		defer c.Close()
		secureDataOps(t, cl, c, "sec_site_override")
	})
	t.Run("files-keytab-missing", func(t *testing.T) {
		var se *hberr.SiteConfigError
		if _, err := hbase.NewClientFromConfig(site(filepath.Join(dir, "absent.keytab")), WithSiteConfig()); !errors.As(err, &se) || se.Key != "hbase.client.keytab.file" {
			t.Fatalf("err = %v; want a hberr.SiteConfigError for hbase.client.keytab.file", err)
		}
	})
}
