package hbase

import (
	"cmp"
	"slices"
	"time"
)

// Stats is a snapshot of a Client's state and counters, in the spirit of database/sql's
// DBStats. Counters run from the client's creation.
type Stats struct {
	OpenConnections int           // connections to region servers that are up
	Servers         []ServerStats // one per open connection, sorted by address
	InFlight        int           // RPCs waiting for their response, over all servers
	CachedRegions   int           // regions in the region cache

	CacheMisses  uint64 // calls (and scanner opens) that did not find their region cached
	Lookups      uint64 // region lookups in hbase:meta (several callers may share one)
	LookupErrors uint64 // lookups that failed
	Retries      uint64 // attempts that failed and were tried again
	Dials        uint64 // connection setups, successful or not
	DialErrors   uint64 // connection setups that failed

	// OverloadErrors counts the RPCs that overloaded servers refused (hberr.IsOverloaded:
	// CallQueueTooBig, CallDropped); OverloadPauses the pauses taken before retrying them
	// (WithOverloadPause) and OverloadPauseTime their total.
	OverloadErrors    uint64
	OverloadPauses    uint64
	OverloadPauseTime time.Duration
	// BackpressureDelays counts the writes (single mutations and MultiRequests holding
	// mutations) delayed because their servers' load statistics asked for it
	// (WithBackpressure), and BackpressureTime their total delay.
	BackpressureDelays uint64
	BackpressureTime   time.Duration
	// HedgesSent counts the requests sent to secondary replicas by Timeline reads whose
	// primary was slow (past the hedge delay), down or failing; HedgesWon the reads a
	// secondary answered first; StaleResults the Timeline results marked Stale.
	HedgesSent, HedgesWon, StaleResults uint64

	// BytesWritten and BytesRead count the bytes of region server connections (frames,
	// after encryption), including those of connections closed since.
	BytesWritten, BytesRead uint64
}

// ServerStats is one open region server connection.
type ServerStats struct {
	Addr         string
	InFlight     int    // RPCs waiting for their response now
	Calls        uint64 // RPCs sent on this connection
	Writes       uint64 // writes to its socket: concurrent calls share one (Calls/Writes)
	BytesWritten uint64
	BytesRead    uint64
}

// Stats returns the client's connections, calls in flight per server, cached regions and
// counters. It takes the locks of the connection pool and the cache briefly; call it as
// often as a metrics scrape, not per call.
func (c *Client) Stats() Stats {
	s := Stats{
		CacheMisses: c.stats.cacheMisses.Load(), Lookups: c.stats.lookups.Load(),
		LookupErrors: c.stats.lookupErrors.Load(), Retries: c.stats.retries.Load(),
		Dials: c.stats.dials.Load(), DialErrors: c.stats.dialErrors.Load(),
		BytesWritten: c.stats.closedWritten.Load(), BytesRead: c.stats.closedRead.Load(),
		OverloadErrors: c.stats.overloadErrors.Load(), OverloadPauses: c.stats.overloadPauses.Load(),
		OverloadPauseTime:  time.Duration(c.stats.overloadPauseNanos.Load()),
		BackpressureDelays: c.stats.backpressureDelays.Load(),
		BackpressureTime:   time.Duration(c.stats.backpressureNanos.Load()),
		HedgesSent:         c.hedge.sent.Load(), HedgesWon: c.hedge.won.Load(), StaleResults: c.hedge.stale.Load(),
	}
	c.pool.mu.Lock()
	for addr, e := range c.pool.conns {
		select {
		case <-e.ready:
			if e.conn == nil || isDead(e.conn) {
				continue
			}
			st := e.conn.Stats()
			s.Servers = append(s.Servers, ServerStats{Addr: addr, InFlight: st.InFlight,
				Calls: st.Calls, Writes: st.Writes, BytesWritten: st.BytesWritten, BytesRead: st.BytesRead})
		default:
		}
	}
	c.pool.mu.Unlock()
	slices.SortFunc(s.Servers, func(a, b ServerStats) int { return cmp.Compare(a.Addr, b.Addr) })
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
