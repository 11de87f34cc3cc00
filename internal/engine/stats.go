package engine

import (
	"cmp"
	"slices"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
)

// Stats returns the client's connections, calls in flight per server, cached regions and
// counters. It takes the locks of the connection pool and the cache briefly; call it as
// often as a metrics scrape, not per call.
func (c *Client) Stats() hbasetrace.Stats {
	s := hbasetrace.Stats{
		CacheMisses: c.stats.cacheMisses.Load(), Lookups: c.stats.lookups.Load(),
		LookupErrors: c.stats.lookupErrors.Load(), Retries: c.stats.retries.Load(),
		Dials: c.stats.dials.Load(), DialErrors: c.stats.dialErrors.Load(),
		BytesWritten: c.stats.closedWritten.Load(), BytesRead: c.stats.closedRead.Load(),
		OverloadErrors: c.stats.overloadErrors.Load(), OverloadPauses: c.stats.overloadPauses.Load(),
		OverloadPauseTime:  time.Duration(c.stats.overloadPauseNanos.Load()),
		BackpressureDelays: c.stats.backpressureDelays.Load(),
		BackpressureTime:   time.Duration(c.stats.backpressureNanos.Load()),
		HedgesSent:         c.hedge.sent.Load(), HedgesWon: c.hedge.won.Load(), StaleResults: c.hedge.stale.Load(),
		StaleScanRows: c.hedge.staleScanRows.Load(),
	}
	c.pool.mu.Lock()
	for addr, e := range c.pool.conns {
		select {
		case <-e.ready:
			if e.conn == nil || IsDead(e.conn) {
				continue
			}
			st := e.conn.Stats()
			s.Servers = append(s.Servers, hbasetrace.ServerStats{Addr: addr, InFlight: st.InFlight,
				Calls: st.Calls, Writes: st.Writes, BytesWritten: st.BytesWritten, BytesRead: st.BytesRead})
		default:
		}
	}
	c.pool.mu.Unlock()
	slices.SortFunc(s.Servers, func(a, b hbasetrace.ServerStats) int { return cmp.Compare(a.Addr, b.Addr) })
	s.OpenConnections = len(s.Servers)
	for _, ss := range s.Servers {
		s.InFlight += ss.InFlight
		s.BytesWritten += ss.BytesWritten
		s.BytesRead += ss.BytesRead
	}
	// A connection that died (or that Close closed) leaves the open ones before its bytes
	// join the closed ones' (connClosed): a snapshot in between would miss them, and a
	// counter read from it (contrib/prometheus) would seem to restart. The bytes such a
	// connection moved are final, so the last total seen stands for them until they join.
	s.BytesWritten = c.stats.seenWritten.raise(s.BytesWritten)
	s.BytesRead = c.stats.seenRead.raise(s.BytesRead)
	c.cache.mu.RLock()
	s.CachedRegions = c.cache.tree.Len()
	c.cache.mu.RUnlock()
	return s
}
