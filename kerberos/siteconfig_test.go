package kerberos

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/testkit"
)

// Kerberos from the files (WithSiteConfig): a missing credential cache fails NewClient with
// what to do, the files' protection list and AES switch become the settings, and a keytab key
// without its principal is named.
func TestSiteConfigKerberosCredentials(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KRB5CCNAME", "FILE:"+filepath.Join(dir, "no-cache"))
	cfg, err := hbase.LoadSiteConfig(testkit.WriteSite(t, dir, "hbase-site.xml",
		"hbase.zookeeper.quorum", "zk1",
		"hbase.security.authentication", "kerberos",
		"hbase.rpc.protection", "privacy,authentication"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = hbase.NewClientFromConfig(cfg, WithSiteConfig())
	if err == nil || !strings.Contains(err.Error(), "kinit") || !strings.Contains(err.Error(), "no-cache") {
		t.Fatalf("err = %v; want the credential cache named and kinit suggested", err)
	}
	if !errors.Is(err, hberr.ErrConfiguration) {
		t.Errorf("err = %v; want hberr.ErrConfiguration", err)
	}

	// The settings the files give, read as NewClientFromConfig gives them to Build.
	s := &security{}
	site := func(key string) (string, string, bool, error) {
		v, ok := cfg.Get(key)
		return v, "hbase-site.xml", ok, nil
	}
	s.setCredentials(nil, false)
	if err := s.siteDefaults(site); err == nil {
		t.Fatal("siteDefaults without a credential cache succeeded")
	}
	if s.cfg.Protection != ProtectionPrivacy || !s.cfg.AllowWeakerProtection || s.cfg.AES != AESOff {
		t.Errorf("settings = %+v; want privacy first, weaker allowed by the list, AES off (not enabled in the file)", s.cfg)
	}

	cfg, err = hbase.LoadSiteConfig(testkit.WriteSite(t, dir, "hbase-site.xml",
		"hbase.zookeeper.quorum", "zk1",
		"hbase.security.authentication", "kerberos",
		"hbase.client.keytab.file", "/etc/app.keytab"))
	if err != nil {
		t.Fatal(err)
	}
	var se *hberr.SiteConfigError
	if _, err := hbase.NewClientFromConfig(cfg, WithSiteConfig()); !errors.As(err, &se) || se.Key != "hbase.client.keytab.principal" {
		t.Errorf("keytab without principal: err = %v; want a hberr.SiteConfigError for hbase.client.keytab.principal", err)
	}
}

// Options given in code override the files': a protection given explicitly stays, whatever
// hbase.rpc.protection says.
func TestSiteConfigExplicitOptionsWin(t *testing.T) {
	o := engine.DefaultConfig()
	for _, opt := range []hbase.Option{WithProtection(ProtectionIntegrity), WithAES(AESRequired)} {
		if err := opt(&o); err != nil {
			t.Fatal(err)
		}
	}
	s := o.Handshaker.(*security)
	site := func(key string) (string, string, bool, error) {
		switch key {
		case "hbase.rpc.protection":
			return "privacy", "f.xml", true, nil
		case "hbase.rpc.crypto.encryption.aes.enabled":
			return "false", "f.xml", true, nil
		}
		return "", "", false, nil
	}
	_ = s.siteDefaults(site) // fails at the login; the settings are what is checked
	if s.cfg.Protection != ProtectionIntegrity || s.cfg.AES != AESRequired {
		t.Errorf("settings = %+v; want the explicit integrity and AES required", s.cfg)
	}
}

// A bad value of a Kerberos key of the site files is an error that names the key and the
// file, and is hberr.ErrConfiguration (the root package's TestSiteConfigBadValues for the
// other keys).
func TestSiteConfigBadValues(t *testing.T) {
	for _, c := range []struct{ key, value string }{
		{"hbase.rpc.protection", "secret"},
		{"hbase.rpc.crypto.encryption.aes.enabled", "yes"},
	} {
		t.Run(c.key, func(t *testing.T) {
			file := testkit.WriteSite(t, t.TempDir(), "hbase-site.xml", "hbase.zookeeper.quorum", "zk1",
				"hbase.security.authentication", "kerberos", c.key, c.value)
			cfg, err := hbase.LoadSiteConfig(file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = hbase.NewClientFromConfig(cfg, WithSiteConfig())
			var se *hberr.SiteConfigError
			if !errors.As(err, &se) || se.Key != c.key || se.File != file {
				t.Fatalf("err = %v; want a *hberr.SiteConfigError for %s in %s", err, c.key, file)
			}
			if !errors.Is(err, hberr.ErrConfiguration) {
				t.Errorf("err = %v; want errors.Is hberr.ErrConfiguration", err)
			}
		})
	}
}
