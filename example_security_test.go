package hbase_test

import (
	"fmt"

	"github.com/go-hbase/hbase"
)

// A client that authenticates with Kerberos from a keytab and encrypts every connection with
// AES (privacy); it refuses any server that would downgrade that.
func ExampleWithKerberosKeytab() {
	client, err := hbase.NewClient("zk1.example.com:2181,zk2.example.com:2181",
		hbase.WithKerberosKeytab("app@EXAMPLE.COM", "/etc/security/app.keytab", "/etc/krb5.conf"),
		hbase.WithServicePrincipal("hbase/_HOST"),
		hbase.WithProtection(hbase.ProtectionPrivacy),
		hbase.WithAES(hbase.AESRequired),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
}
