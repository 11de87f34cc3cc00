package hbasetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// TLSFiles are the PEM files of a TLS cluster (Options.TLS), made fresh for each cluster: a CA,
// the servers' certificate (for localhost and 127.0.0.1, also used by the servers as clients
// of each other) and a client certificate, each key beside its certificate.
type TLSFiles struct {
	CA, CAKey         string // the CA's certificate and key (to mint other certificates in tests)
	ClientCert        string
	ClientKey         string
	server, serverKey string
}

// TLSConfig returns a client configuration for the cluster: it trusts the cluster's CA and
// presents the client certificate (the servers require one).
func (f *TLSFiles) TLSConfig() (*tls.Config, error) {
	if f == nil {
		return nil, errors.New("hbasetest: not a TLS cluster")
	}
	ca, err := os.ReadFile(f.CA)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("hbasetest: no certificate in %s", f.CA)
	}
	cert, err := tls.LoadX509KeyPair(f.ClientCert, f.ClientKey)
	if err != nil {
		return nil, err
	}
	return &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// makeTLSFiles writes a CA and the server and client certificates into dir.
func makeTLSFiles(dir string) (*TLSFiles, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f := &TLSFiles{
		CA: filepath.Join(dir, "ca.pem"), CAKey: filepath.Join(dir, "ca-key.pem"),
		ClientCert: filepath.Join(dir, "client.pem"), ClientKey: filepath.Join(dir, "client-key.pem"),
		server: filepath.Join(dir, "server.pem"), serverKey: filepath.Join(dir, "server-key.pem"),
	}
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hbasetest CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(10 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	if err := writePEM(f.CA, "CERTIFICATE", caDER); err != nil {
		return nil, err
	}
	if err := writeKey(f.CAKey, caKey); err != nil {
		return nil, err
	}
	both := []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
	if err := issue(f.server, f.serverKey, ca, caKey, 2, "localhost", both, now.Add(-time.Hour), now.Add(10*24*time.Hour)); err != nil {
		return nil, err
	}
	if err := issue(f.ClientCert, f.ClientKey, ca, caKey, 3, "client", both, now.Add(-time.Hour), now.Add(10*24*time.Hour)); err != nil {
		return nil, err
	}
	// The servers read key and certificate from one PEM file.
	key, err := os.ReadFile(f.serverKey)
	if err != nil {
		return nil, err
	}
	cert, err := os.ReadFile(f.server)
	if err != nil {
		return nil, err
	}
	return f, os.WriteFile(filepath.Join(dir, "server-keystore.pem"), append(key, cert...), 0o600)
}

// IssueClientCert writes a client certificate and key signed by the cluster's CA, valid from
// notBefore to notAfter (an expired one, for tests of refusals).
func (f *TLSFiles) IssueClientCert(certPath, keyPath string, notBefore, notAfter time.Time) error {
	pair, err := tls.LoadX509KeyPair(f.CA, f.CAKey)
	if err != nil {
		return err
	}
	ca, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return err
	}
	key, ok := pair.PrivateKey.(*ecdsa.PrivateKey)
	if !ok {
		return errors.New("hbasetest: CA key is not ECDSA")
	}
	return issue(certPath, keyPath, ca, key, time.Now().UnixNano(), "client", []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, notBefore, notAfter)
}

func issue(certPath, keyPath string, ca *x509.Certificate, caKey *ecdsa.PrivateKey, serial int64, cn string, usage []x509.ExtKeyUsage, notBefore, notAfter time.Time) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
		NotBefore: notBefore, NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: usage,
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	if err := writePEM(certPath, "CERTIFICATE", der); err != nil {
		return err
	}
	return writeKey(keyPath, key)
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "PRIVATE KEY", der)
}

func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}
