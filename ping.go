package hbase

import "context"

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
	return c.e.Ping(ctx)
}
