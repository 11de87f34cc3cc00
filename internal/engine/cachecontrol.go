package engine

import (
	"bytes"
	"context"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/wire"
)

// CacheRegions reads every region of table from hbase:meta in one scan, connects to the
// servers they are assigned to and puts them in the region cache, so that the calls that
// follow find their regions without a lookup each (gohbase's CacheRegions; a batch job or a
// parallel scan warming up before its first wave). Regions not assigned now are left out: a
// call looks them up when it needs them. A table that does not exist gives
// hberr.ErrTableNotFound.
func (c *Client) CacheRegions(ctx context.Context, table string) error {
	regions, err := c.MetaRegions(ctx, table)
	if err == nil {
		err = c.CacheRegionList(ctx, table, regions)
	}
	if err != nil {
		return &hberr.OpError{Op: "CacheRegions", Table: table, Err: UserError(err)}
	}
	return nil
}

// ClearRegionCache drops every cached region of table (the Java client's
// clearRegionLocationCache, for one table): the next call for each row looks its region up in
// hbase:meta again. Calls waiting for one of those regions look it up again at once. It only
// touches the client's memory, so it takes no context.
func (c *Client) ClearRegionCache(table string) {
	for _, r := range c.cache.all() {
		if string(r.table) == table {
			c.cache.remove(r)
		}
	}
}

// CacheRegionList connects to the servers of regions and caches those not cached already.
func (c *Client) CacheRegionList(ctx context.Context, table string, regions []*hrpc.Region) error {
	for _, hr := range regions {
		if hr.Server.Port == 0 {
			continue // not assigned now
		}
		if cur := c.cache.get(wire.TableBytes(table), hr.Start); cur != nil && bytes.Equal(cur.name, hr.Name) {
			if conn, _, _ := cur.state(); conn != nil {
				continue
			}
		}
		addr := hr.Server.Addr()
		conn, err := c.conn(ctx, addr)
		if err != nil {
			return err
		}
		c.cache.insert(&regionInfo{table: []byte(table), start: hr.Start, end: hr.End,
			name: hr.Name, id: hr.ID, addr: addr, conn: conn})
	}
	return nil
}

// MetaRegions reads the regions of table from hbase:meta, in key order, without split
// parents and offline regions. hberr.ErrTableNotFound when there is none.
func (c *Client) MetaRegions(ctx context.Context, table string) ([]*hrpc.Region, error) {
	ns, q, err := wire.SplitTableName(table)
	if err != nil {
		return nil, err
	}
	key := q
	if ns != hrpc.DefaultNamespace {
		key = ns + ":" + q
	}
	// hbase:meta sorts by table first (its own order, internal/metarow): "key,," is before the
	// table's first region and the table's rows end where another table's begin. The scan
	// checks and resumes in that order (compareRows); the loop stops at the first other table.
	scan, err := hrpc.NewScan(MetaTableName, hrpc.StartRow([]byte(key+",,")), hrpc.Families(wire.MetaInfoFamily))
	if err != nil {
		return nil, err
	}
	var out []*hrpc.Region
	for res, err := range c.Scan(ctx, scan) {
		if err != nil {
			return nil, err
		}
		if len(res.Cells) == 0 {
			continue
		}
		if t, _, ok := wire.ParseRegionName(res.Cells[0].Row); !ok || t != key {
			break
		}
		r, err := hrpcwire.MetaRow(res.Cells)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, hberr.ErrTableNotFound
	}
	return out, nil
}
