package engine

import "github.com/go-hbase/hbase/region"

// What the client knows and has done, read by tests and by the packages built on it: where
// regions are, and counters of the recovery work (lookups, hints followed, relocations).

// CachedLocation is the server of the cached region of table holding row ("" when none is
// cached).
func (c *Client) CachedLocation(table, row []byte) string {
	if r := c.cache.get(table, row); r != nil {
		return r.location()
	}
	return ""
}

// MetaLocation is hbase:meta's server ("" while it is not located).
func (c *Client) MetaLocation() string { return c.meta.location() }

// MetaRPCs counts the scans of hbase:meta sent (region lookups and relocations).
func (c *Client) MetaRPCs() int64 { return c.metaRPCs.Load() }

// MetaReplicaRPCs counts the lookups a secondary replica of hbase:meta answered.
func (c *Client) MetaReplicaRPCs() int64 { return c.metaReplicaRPCs.Load() }

// MovedHints counts the regions cached from a RegionMovedException without a lookup.
func (c *Client) MovedHints() int64 { return c.movedHints.Load() }

// RelocationRounds counts the rounds that relocated the regions of lost servers.
func (c *Client) RelocationRounds() int64 { return c.relocationRounds.Load() }

// SuspectDrops counts the connections closed because their server did not answer a probe.
func (c *Client) SuspectDrops() int64 { return c.suspectDrops.Load() }

// CloseConnections closes every live region server connection, so that the next call dials
// (and authenticates) anew, and returns how many it closed.
func (c *Client) CloseConnections() int {
	c.pool.mu.Lock()
	var conns []*region.Client
	for _, e := range c.pool.conns {
		select {
		case <-e.ready:
			if e.err == nil && e.conn != nil && !IsDead(e.conn) {
				conns = append(conns, e.conn)
			}
		default:
		}
	}
	c.pool.mu.Unlock()
	for _, conn := range conns {
		conn.Close()
	}
	return len(conns)
}
