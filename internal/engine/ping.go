package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
)

// Ping checks that the cluster can serve this client, as a readiness probe would: it asks the
// registry (ZooKeeper, or the bootstrap servers of WithBootstrapServers) where hbase:meta is,
// connects to that region server (with the client's TLS and Kerberos settings) and has it
// answer a read of hbase:meta that returns nothing. It makes one attempt, bounded by ctx,
// whatever WithMaxAttempts says; a connection it makes is kept for the calls that follow.
//
// The error says which step failed and wraps the cause, so errors.Is sees it: for example
// hberr.ErrConfiguration (a wrong parent znode, a TLS or Kerberos setting the cluster refuses),
// hberr.ErrBootstrapUnreachable, hberr.ErrConnection, context.DeadlineExceeded, or
// hberr.ErrClosed after Close.
func (c *Client) Ping(ctx context.Context) error {
	if c.IsClosed() {
		return fmt.Errorf("hbase: Ping: %w", hberr.ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("hbase: Ping: %w", context.Cause(ctx))
	}
	addr, err := c.Reg.LocateMeta(ctx)
	if err != nil {
		return pingError(ctx, "locating hbase:meta", c.configError(err))
	}
	conn, err := c.conn(ctx, addr)
	if err != nil {
		return pingError(ctx, "connecting to hbase:meta's server "+addr, c.configError(err))
	}
	if err := c.probe(ctx, c.meta, conn); err != nil {
		return pingError(ctx, "", c.configError(err)) // the probe's error names region and server
	}
	return nil
}

// pingError says which step of Ping failed; when ctx ended meanwhile, the error is ctx's,
// with the step's as the last failure.
func pingError(ctx context.Context, step string, err error) error {
	if ctx.Err() != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		err = CtxErr(ctx, err)
	}
	if step == "" {
		return fmt.Errorf("hbase: Ping: %w", err)
	}
	return fmt.Errorf("hbase: Ping: %s: %w", step, err)
}
