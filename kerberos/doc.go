// Package kerberos authenticates a client of package hbase with Kerberos (SASL GSSAPI) and
// protects its connections: authentication, integrity, or privacy, by default with HBase's AES
// transport encryption. Its options are hbase.Options:
//
//	client, err := hbase.NewClient("zk1:2181,zk2:2181",
//		kerberos.WithKeytab("app@EXAMPLE.COM", "/etc/security/app.keytab", "/etc/krb5.conf"))
//	if err != nil {
//		return err // a bad keytab or principal fails here, not at the first call
//	}
//	defer client.Close()
//
// It is a package of its own so that a program that does not use Kerberos does not build the
// Kerberos stack (gokrb5): package hbase does not import this one. A client that asked for a
// protection never accepts less from a server (no downgrade) unless WithAllowWeakerProtection
// or WithAllowFallbackToSimple says so. Site files that ask for Kerberos
// (hbase.security.authentication=kerberos) need an option of this package:
// hbase.NewClientFromConfig refuses them without one, and WithSiteConfig reads their keys.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package kerberos
