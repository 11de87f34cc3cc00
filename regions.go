package hbase

import "context"

// CacheRegions reads every region of table from hbase:meta in one scan, connects to the
// servers they are assigned to and puts them in the region cache, so that the calls that
// follow find their regions without a lookup each (gohbase's CacheRegions; a batch job or a
// parallel scan warming up before its first wave). Regions not assigned now are left out: a
// call looks them up when it needs them. A table that does not exist gives
// hberr.ErrTableNotFound.
func (c *Client) CacheRegions(ctx context.Context, table string) error {
	return c.e.CacheRegions(ctx, table)
}

// ClearRegionCache drops every cached region of table (the Java client's
// clearRegionLocationCache, for one table): the next call for each row looks its region up in
// hbase:meta again. Calls waiting for one of those regions look it up again at once. It only
// touches the client's memory, so it takes no context.
func (c *Client) ClearRegionCache(table string) {
	c.e.ClearRegionCache(table)
}
