package region

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"

	"github.com/go-hbase/hbase/hberr"
)

// startTLS runs the client side of a TLS handshake on conn; on failure conn is closed. A
// server that answers the hello in plaintext, or closes the connection without answering
// it, is no TLS server: that error is also a configuration error (hberr.ErrConfiguration),
// since no retry makes it speak TLS.
func startTLS(ctx context.Context, conn net.Conn, host string, cfg *tls.Config) (net.Conn, error) {
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		cfg.ServerName = host
	}
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		_, plain := errors.AsType[tls.RecordHeaderError](err)
		switch {
		case plain:
			return nil, &mismatch{tls: true, cause: err, msg: fmt.Sprintf("%v: %v (the server answered in plaintext: it does not speak TLS; native TLS needs HBase 2.6 or later with hbase.server.netty.tls.enabled)", hberr.ErrTLS, err)}
		case closedEarly(err) && ctx.Err() == nil:
			return nil, &mismatch{tls: true, cause: err, msg: fmt.Sprintf("%v: %v (the server closed the connection without answering the TLS hello: it does not speak TLS, or the port is not an HBase RPC port)", hberr.ErrTLS, err)}
		}
		return nil, fmt.Errorf("%w: %w", hberr.ErrTLS, err)
	}
	return tc, nil
}
