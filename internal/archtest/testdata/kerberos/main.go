// Command kerberos is the plain service of ../plain with a Kerberos option: the dependency
// test's control (TestPlainProgramBuildsNoKerberos), which must find gokrb5 here.
package main

import (
	"log"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/kerberos"
)

func main() {
	client, err := hbase.NewClient("zk1:2181",
		kerberos.WithKeytab("app@EXAMPLE.COM", "/etc/security/app.keytab", "/etc/krb5.conf"))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}
