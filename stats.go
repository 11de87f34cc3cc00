package hbase

import "github.com/go-hbase/hbase/hbasetrace"

// Stats returns the client's connections, calls in flight per server, cached regions and
// counters. It takes the locks of the connection pool and the cache briefly; call it as
// often as a metrics scrape, not per call.
func (c *Client) Stats() hbasetrace.Stats {
	return c.e.Stats()
}

// ServerLatency returns the latency of every RPC the client sent to region servers, per
// server and kind of operation, sorted by server then operation: a server slower than the
// others stands out. Each attempt is one RPC: a call retried on another server counts on
// both. It is nil when latency is not kept (WithServerLatency(false)).
func (c *Client) ServerLatency() []hbasetrace.ServerLatency {
	return c.e.ServerLatency()
}

// ResetServerLatency empties the latency histograms, to measure a new period (a benchmark
// after its warm-up).
func (c *Client) ResetServerLatency() {
	c.e.ResetServerLatency()
}
