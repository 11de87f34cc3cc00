package region

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/go-hbase/hbase/hberr"
)

// startTLS runs the client side of a TLS handshake on conn; on failure conn is closed.
func startTLS(ctx context.Context, conn net.Conn, host string, cfg *tls.Config) (net.Conn, error) {
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		cfg.ServerName = host
	}
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		var hint string
		if _, ok := errors.AsType[tls.RecordHeaderError](err); ok || errors.Is(err, io.EOF) {
			hint = " (the server does not speak TLS: native TLS needs HBase 2.6 or later with hbase.server.netty.tls.enabled)"
		}
		return nil, fmt.Errorf("%w: %w%s", hberr.ErrTLS, err, hint)
	}
	return tc, nil
}
