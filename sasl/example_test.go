package sasl_test

import (
	"context"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/sasl"
)

// A region server connection authenticated with Kerberos from a keytab, encrypted with AES
// (privacy). The root package's WithKerberosKeytab does the same for every connection.
func ExampleNewHandshaker() {
	creds, err := sasl.KeytabCredentials("client@EXAMPLE.COM", "/etc/security/client.keytab", "/etc/krb5.conf")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer creds.Close()
	h, err := sasl.NewHandshaker(sasl.WithCredentials(creds), sasl.WithServicePrincipal("hbase/_HOST"), sasl.WithProtection(sasl.Privacy))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := region.Dial(ctx, "rs1.example.com:16020", region.WithService("ClientService"), region.WithHandshaker(h))
	if err != nil {
		// errors.Is(err, hberr.ErrDowngrade), hberr.ErrBadCredentials, ... tell the causes apart.
		fmt.Println(err)
		return
	}
	defer conn.Close()
}

func ExampleParseProtection() {
	p, err := sasl.ParseProtection("auth-conf")
	fmt.Println(p, p.QoP(), err)
	// Output: privacy auth-conf <nil>
}
