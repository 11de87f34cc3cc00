package kerberos_test

import (
	"fmt"
	"log"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/kerberos"
)

// A client that authenticates with Kerberos from a keytab and encrypts every connection with
// AES (privacy); it refuses any server that would downgrade that.
func ExampleWithKeytab() {
	client, err := hbase.NewClient("zk1.example.com:2181,zk2.example.com:2181",
		kerberos.WithKeytab("app@EXAMPLE.COM", "/etc/security/app.keytab", "/etc/krb5.conf"),
		kerberos.WithServicePrincipal("hbase/_HOST"),
		kerberos.WithProtection(kerberos.ProtectionPrivacy),
		kerberos.WithAES(kerberos.AESRequired),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
}

// A service authenticated as its own principal acting for one of its users; the servers'
// hadoop.proxyuser rules decide.
func ExampleWithProxyUser() {
	client, err := hbase.NewClient("zk1:2181",
		kerberos.WithKeytab("svc@EXAMPLE.COM", "/etc/svc.keytab", "/etc/krb5.conf"),
		kerberos.WithProxyUser("alice"))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}
