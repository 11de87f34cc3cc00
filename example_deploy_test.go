package hbase_test

import (
	"crypto/tls"
	"crypto/x509"
	"log"
	"os"

	"github.com/go-hbase/hbase"
)

// Native TLS (HBase 2.6+) with a client certificate; these examples compile but do not run:
// they need a real deployment.
func ExampleWithTLS() {
	caPEM, err := os.ReadFile("/etc/hbase/tls/ca.pem")
	if err != nil {
		log.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	cert, err := tls.LoadX509KeyPair("/etc/hbase/tls/client.pem", "/etc/hbase/tls/client-key.pem")
	if err != nil {
		log.Fatal(err)
	}
	client, err := hbase.NewClient("zk1:2181,zk2:2181,zk3:2181",
		hbase.WithTLS(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// No ZooKeeper: the client asks the servers' connection registry (HBase 2.5+) where
// hbase:meta is.
func ExampleWithBootstrapServers() {
	client, err := hbase.NewClient("", hbase.WithBootstrapServers("rs1:16020", "rs2:16020", "master1:16000"))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}
