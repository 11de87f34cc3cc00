package kerberos

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/sasl"
)

// WithSiteConfig turns Kerberos on with the settings of the site files given to
// hbase.NewClientFromConfig, for files that ask for it (hbase.security.authentication, or
// hadoop.security.authentication, set to kerberos). It reads:
//
//	hbase.client.keytab.principal, hbase.client.keytab.file   WithKeytab; without them the credential cache
//	                                                          of $KRB5CCNAME or /tmp/krb5cc_<uid> (WithCCache)
//	hbase.regionserver.kerberos.principal                     WithServicePrincipal
//	hbase.rpc.protection                                      WithProtection (the first of a list; a list naming
//	                                                          weaker levels too adds WithAllowWeakerProtection)
//	hbase.rpc.crypto.encryption.aes.enabled                   true: WithAES(AESPreferred), as the Java client
//	                                                          falls back to SASL encryption; otherwise AESOff
//
// The Kerberos configuration is $KRB5_CONFIG, or /etc/krb5.conf. The files' settings apply
// whenever any option of this package is given to NewClientFromConfig; this one is for a
// client that gives no other. Options given in code override the files.
func WithSiteConfig() hbase.Option {
	return option(func(*security) error { return nil })
}

// siteDefaults fills the settings no option gave from the site files (site reads a key: its
// value, the file that set it, whether one did).
func (s *security) siteDefaults(site func(key string) (value, file string, ok bool, err error)) error {
	get := func(key string) (string, string, error) {
		v, file, _, err := site(key)
		return v, file, err
	}
	bad := func(key, value, file string, err error) error {
		return &hberr.SiteConfigError{File: file, Key: key, Value: value, Err: err}
	}
	if s.cfg.ServicePrincipal == "" {
		v, _, err := get("hbase.regionserver.kerberos.principal")
		if err != nil {
			return err
		}
		s.cfg.ServicePrincipal = v // the pattern's realm is the servers'; krb5.conf finds it
	}
	if s.cfg.Protection == 0 {
		v, file, err := get("hbase.rpc.protection")
		if err != nil {
			return err
		}
		if v != "" {
			levels, err := parseProtections(v)
			if err != nil {
				return bad("hbase.rpc.protection", v, file, err)
			}
			s.cfg.Protection = levels[0]
			for _, l := range levels[1:] {
				if l < levels[0] {
					s.cfg.AllowWeakerProtection = true
					break
				}
			}
		}
	}
	if !s.cfg.AESSet {
		v, file, err := get("hbase.rpc.crypto.encryption.aes.enabled")
		if err != nil {
			return err
		}
		switch strings.ToLower(v) {
		case "true":
			s.cfg.AES = AESPreferred
		case "false", "":
			s.cfg.AES = AESOff
		default:
			return bad("hbase.rpc.crypto.encryption.aes.enabled", v, file, errors.New("want true or false"))
		}
	}
	if s.cfg.Credentials != nil {
		return nil
	}
	creds, err := siteCredentials(get, bad)
	if err != nil {
		return err
	}
	s.setCredentials(creds, true)
	return nil
}

// siteCredentials logs in as the files say: with their keytab, or the user's credential cache.
func siteCredentials(get func(string) (string, string, error), bad func(key, value, file string, err error) error) (*sasl.Credentials, error) {
	krb5 := os.Getenv("KRB5_CONFIG")
	if krb5 == "" {
		krb5 = "/etc/krb5.conf"
	}
	principal, pfile, err := get("hbase.client.keytab.principal")
	if err != nil {
		return nil, err
	}
	keytab, kfile, err := get("hbase.client.keytab.file")
	if err != nil {
		return nil, err
	}
	switch {
	case principal != "" && keytab != "":
		creds, err := sasl.KeytabCredentials(principal, keytab, krb5)
		if err != nil {
			return nil, bad("hbase.client.keytab.file", keytab, kfile, err)
		}
		return creds, nil
	case principal != "" || keytab != "":
		return nil, bad("hbase.client.keytab.principal", principal, pfile,
			errors.New("hbase.client.keytab.principal and hbase.client.keytab.file go together"))
	}
	ccache := strings.TrimPrefix(os.Getenv("KRB5CCNAME"), "FILE:")
	if ccache == "" {
		ccache = fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid())
	}
	creds, err := sasl.CCacheCredentials(ccache, krb5)
	if err != nil {
		return nil, fmt.Errorf("kerberos: the site files ask for Kerberos without hbase.client.keytab.file: credential cache %s: %w (run kinit, or set KRB5CCNAME)", ccache, err)
	}
	return creds, nil
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
