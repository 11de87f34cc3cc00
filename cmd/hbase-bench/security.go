package main

import (
	"fmt"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/sasl"
)

// securityOptions turns the security flags into the client's security options: nothing for
// SIMPLE, else Kerberos from the keytab with the asked protection. AES is required when asked
// for (WithAES(AESRequired)), so a server that does not hand out AES keys fails the run instead of
// silently measuring GSS wrap.
//
// The credentials are ours (hbase.WithKerberos), and the caller closes them after the client:
// closing them stops gokrb5's ticket renewal goroutine.
func securityOptions(sec securityFlags) ([]hbase.Option, *sasl.Credentials, error) {
	if !sec.Kerberos {
		return nil, nil, nil
	}
	prot, err := sasl.ParseProtection(sec.Protection)
	if err != nil {
		return nil, nil, err
	}
	creds, err := sasl.KeytabCredentials(sec.Principal, sec.Keytab, sec.KRB5Conf)
	if err != nil {
		return nil, nil, fmt.Errorf("kerberos login of %s: %w", sec.Principal, err)
	}
	aes := hbase.AESOff
	if sec.AES {
		aes = hbase.AESRequired
	}
	opts := []hbase.Option{
		hbase.WithKerberos(creds),
		hbase.WithProtection(prot),
		hbase.WithAES(aes),
	}
	if sec.ServerPrincipal != "" {
		opts = append(opts, hbase.WithServicePrincipal(sec.ServerPrincipal))
	}
	if sec.TLS {
		opts = append(opts, hbase.WithTLS(sec.TLSConfig))
	}
	return opts, creds, nil
}
