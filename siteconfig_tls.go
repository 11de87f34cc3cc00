package hbase

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"
)

// tlsOption returns WithTLS for files with hbase.client.netty.tls.enabled=true, or nil. The
// trust store and key store must be PEM files (hbase.rpc.tls.*.type PEM, as HBase 2.6 reads
// them): JKS and PKCS#12 stores are refused with the key to change.
func (c *SiteConfig) tlsOption() (Option, error) {
	on, _, err := c.bool("hbase.client.netty.tls.enabled")
	if err != nil || !on {
		return nil, err
	}
	// Both stores' types are checked before either file is read.
	trust, err := c.pemStore("truststore")
	if err != nil {
		return nil, err
	}
	keys, err := c.pemStore("keystore")
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if trust != "" {
		pemBytes, err := os.ReadFile(trust)
		if err != nil {
			return nil, c.bad("hbase.rpc.tls.truststore.location", trust, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pemBytes) {
			return nil, c.bad("hbase.rpc.tls.truststore.location", trust, errors.New("no PEM certificate in the file"))
		}
	}
	if keys != "" {
		pemBytes, err := os.ReadFile(keys)
		if err != nil {
			return nil, c.bad("hbase.rpc.tls.keystore.location", keys, err)
		}
		cert, err := tls.X509KeyPair(pemBytes, pemBytes)
		if err != nil {
			return nil, c.bad("hbase.rpc.tls.keystore.location", keys, fmt.Errorf("want the certificate and its key in one PEM file: %w", err))
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if verify, set, err := c.bool("hbase.client.netty.tls.verify.server.hostname"); err != nil {
		return nil, err
	} else if set && !verify {
		skipHostnameCheck(cfg)
	}
	return WithTLS(cfg), nil
}

// pemStore returns the location of the trust or key store, checking that it is PEM.
func (c *SiteConfig) pemStore(which string) (string, error) {
	locKey, typeKey := "hbase.rpc.tls."+which+".location", "hbase.rpc.tls."+which+".type"
	path, _, err := c.get(locKey)
	if err != nil || path == "" {
		return "", err
	}
	typ, _, err := c.get(typeKey)
	if err != nil {
		return "", err
	}
	if typ == "" && (strings.HasSuffix(path, ".pem") || strings.HasSuffix(path, ".crt")) {
		typ = "PEM"
	}
	if !strings.EqualFold(typ, "PEM") {
		return "", c.bad(typeKey, typ, fmt.Errorf("this client reads PEM %ss only; convert %s to PEM", which, path))
	}
	return path, nil
}

// skipHostnameCheck keeps the certificate chain check but not the host name check, as
// hbase.client.netty.tls.verify.server.hostname=false does for the Java client.
func skipHostnameCheck(cfg *tls.Config) {
	roots := cfg.RootCAs
	cfg.InsecureSkipVerify = true // replaced by VerifyConnection below, which checks the chain
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("server sent no certificate")
		}
		opts := x509.VerifyOptions{Roots: roots, Intermediates: x509.NewCertPool()}
		for _, ic := range cs.PeerCertificates[1:] {
			opts.Intermediates.AddCert(ic)
		}
		_, err := cs.PeerCertificates[0].Verify(opts)
		return err
	}
}
