package engine

import (
	"bytes"
	"sync"

	"github.com/go-hbase/hbase/region"
	"github.com/google/btree"
)

// regionCache holds the known regions of every table in a B-tree ordered by (table, start
// key), so the region holding a row is the last one starting at or before it.
type regionCache struct {
	mu   sync.RWMutex
	tree *btree.BTreeG[cacheItem]
}

// cacheItem is a B-tree entry. Keys are copied out of the region so that a lookup's pivot is
// a small value, not an allocated region.
type cacheItem struct {
	table, start []byte
	r            *regionInfo
}

func itemOf(r *regionInfo) cacheItem { return cacheItem{r.table, r.start, r} }

func itemLess(a, b cacheItem) bool {
	if c := bytes.Compare(a.table, b.table); c != 0 {
		return c < 0
	}
	return bytes.Compare(a.start, b.start) < 0
}

func newRegionCache() *regionCache {
	return &regionCache{tree: btree.NewG(16, itemLess)}
}

// get returns the cached region of table holding row, or nil.
func (rc *regionCache) get(table, row []byte) *regionInfo {
	var found *regionInfo
	rc.mu.RLock()
	rc.tree.DescendLessOrEqual(cacheItem{table: table, start: row}, func(it cacheItem) bool {
		if bytes.Equal(it.table, table) && it.r.contains(row) {
			found = it.r
		}
		return false
	})
	rc.mu.RUnlock()
	return found
}

// getBefore returns the cached region of table holding the greatest rows below row (the region
// a reversed scan moves to after the one starting at row), or nil. An empty row means the end
// of the table: the last region.
func (rc *regionCache) getBefore(table, row []byte) *regionInfo {
	var found *regionInfo
	rc.mu.RLock()
	visit := func(it cacheItem) bool {
		r := it.r
		if !bytes.Equal(r.table, table) {
			return false
		}
		if len(row) == 0 {
			if len(r.end) == 0 {
				found = r
			}
			return false
		}
		if bytes.Compare(r.start, row) >= 0 {
			return true // starts at row: the region before it is what we want
		}
		if len(r.end) == 0 || bytes.Compare(r.end, row) >= 0 {
			found = r
		}
		return false
	}
	if len(row) == 0 {
		// The last region of table is the greatest entry below the first key of the next
		// table; table+"\x00" sorts after every (table, start) pair of this table.
		rc.tree.DescendLessOrEqual(cacheItem{table: append(bytes.Clone(table), 0)}, visit)
	} else {
		rc.tree.DescendLessOrEqual(cacheItem{table: table, start: row}, visit)
	}
	rc.mu.RUnlock()
	return found
}

// insert adds r and removes every cached region of its table whose key range overlaps r's
// (split parents, merged daughters, stale entries). The removed regions are returned retired,
// which wakes anyone waiting on them.
func (rc *regionCache) insert(r *regionInfo) []*regionInfo {
	rc.mu.Lock()
	var overlapping []*regionInfo
	// The region starting at or before r.start may reach into r.
	rc.tree.DescendLessOrEqual(itemOf(r), func(it cacheItem) bool {
		o := it.r
		if bytes.Equal(o.table, r.table) && (len(o.end) == 0 || bytes.Compare(o.end, r.start) > 0) {
			overlapping = append(overlapping, o)
		}
		return false
	})
	// Every region starting inside r.
	rc.tree.AscendGreaterOrEqual(itemOf(r), func(it cacheItem) bool {
		o := it.r
		if !bytes.Equal(o.table, r.table) || (len(r.end) != 0 && bytes.Compare(o.start, r.end) >= 0) {
			return false
		}
		if len(overlapping) == 0 || overlapping[0] != o {
			overlapping = append(overlapping, o)
		}
		return true
	})
	for _, o := range overlapping {
		rc.tree.Delete(itemOf(o))
	}
	rc.tree.ReplaceOrInsert(itemOf(r))
	rc.mu.Unlock()
	for _, o := range overlapping {
		if o != r {
			o.retire()
		}
	}
	return overlapping
}

// remove drops r if it is still cached and retires it.
func (rc *regionCache) remove(r *regionInfo) {
	rc.mu.Lock()
	if cur, ok := rc.tree.Get(itemOf(r)); ok && cur.r == r {
		rc.tree.Delete(itemOf(r))
	}
	rc.mu.Unlock()
	r.retire()
}

// onConn returns every cached region served through conn.
func (rc *regionCache) onConn(conn *region.Client) []*regionInfo {
	var out []*regionInfo
	rc.mu.RLock()
	rc.tree.Ascend(func(it cacheItem) bool {
		if c, _, _ := it.r.state(); c == conn {
			out = append(out, it.r)
		}
		return true
	})
	rc.mu.RUnlock()
	return out
}

// all returns every cached region (for Close and tests).
func (rc *regionCache) all() []*regionInfo {
	rc.mu.RLock()
	out := make([]*regionInfo, 0, rc.tree.Len())
	rc.tree.Ascend(func(it cacheItem) bool {
		out = append(out, it.r)
		return true
	})
	rc.mu.RUnlock()
	return out
}
