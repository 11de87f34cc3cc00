package main

import (
	"fmt"
	"log/slog"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/sasl"
)

// securityOptions turns the security flags into client options: nothing for SIMPLE, else a
// Kerberos handshaker logged in from the keytab. AES is required when asked for, so a server
// that does not offer it fails the run instead of silently measuring GSS wrap.
func securityOptions(sec securityFlags, log *slog.Logger) ([]hbase.Option, error) {
	if !sec.Kerberos {
		return nil, nil
	}
	prot, err := sasl.ParseProtection(sec.Protection)
	if err != nil {
		return nil, err
	}
	creds, err := sasl.KeytabCredentials(sec.Principal, sec.Keytab, sec.KRB5Conf)
	if err != nil {
		return nil, fmt.Errorf("kerberos login of %s: %w", sec.Principal, err)
	}
	aes := sasl.AESOff
	if sec.AES {
		aes = sasl.AESRequired
	}
	h, err := sasl.NewHandshaker(sasl.Config{
		Credentials:      creds,
		ServicePrincipal: sec.ServerPrincipal, // "" means sasl.DefaultServicePrincipal
		Protection:       prot,
		AES:              aes,
		Logger:           log.With("component", "sasl"),
	})
	if err != nil {
		return nil, err
	}
	return []hbase.Option{hbase.WithHandshaker(h)}, nil
}
