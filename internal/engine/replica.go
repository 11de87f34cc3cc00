package engine

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
)

// Region replicas (HBase's "region replication"): a region of a table with REGION_REPLICATION
// n > 1 is open on up to n servers. Replica 0 is the primary, which takes the writes; replicas
// 1 to n-1 are read-only secondaries that follow it (through the replication of its WAL, or
// the files it flushes). hbase:meta keeps one row per region, the primary's, with the location
// of every replica in a column of its own: info:server for the primary and
// info:server_000N for replica N (the id in 4 hexadecimal digits, MetaTableAccessor's
// getServerColumn).
//
// The cache keeps one entry per region, the primary's, as before; the secondaries' locations
// hang off it (regionInfo.replicas), so a Strong read never looks at them.

// replicaQualifierPrefix starts the hbase:meta columns of the secondaries' servers.
var replicaQualifierPrefix = []byte("server_")

// maxReplicaID is the largest replica id HBase allows (RegionInfo's MAX_REPLICA_ID).
const maxReplicaID = 0xffff

// replicaOfQualifier returns the replica id of an hbase:meta qualifier "server_000N" (N in
// hexadecimal, 4 digits), or 0 and false for any other qualifier.
func replicaOfQualifier(q []byte) (int, bool) {
	hexID, ok := bytes.CutPrefix(q, replicaQualifierPrefix)
	if !ok || len(hexID) != 4 {
		return 0, false
	}
	id, err := strconv.ParseUint(string(hexID), 16, 16)
	if err != nil || id == 0 {
		return 0, false
	}
	return int(id), true
}

// replicaRegionName returns the name of replica id of the region called primary
// ("table,start,regionid.encoded."): HBase names it "table,start,regionid_000N.encoded'."
// where the encoded name is the MD5 (in hex) of everything before it, replica suffix
// included (RegionInfo.createRegionName). A name without an encoded part (the old format)
// gets the suffix alone.
func replicaRegionName(primary []byte, id int) ([]byte, error) {
	if id <= 0 || id > maxReplicaID {
		return nil, fmt.Errorf("hbase: replica id %d out of range", id)
	}
	base := primary
	encoded := false
	if bytes.HasSuffix(primary, []byte(".")) {
		trimmed := primary[:len(primary)-1]
		if i := bytes.LastIndexByte(trimmed, '.'); i >= 0 && len(trimmed)-i-1 == md5.Size*2 &&
			bytes.IndexByte(trimmed[i:], ',') < 0 {
			base, encoded = trimmed[:i], true
		}
	}
	if bytes.Count(base, []byte(",")) < 2 {
		return nil, fmt.Errorf("hbase: region name %s is not table,start,id", quoteBytes(primary))
	}
	name := make([]byte, 0, len(base)+6+md5.Size*2+2)
	name = append(name, base...)
	name = fmt.Appendf(name, "_%04X", id)
	if !encoded {
		return name, nil
	}
	sum := md5.Sum(name)
	name = append(name, '.')
	name = hex.AppendEncode(name, sum[:])
	return append(name, '.'), nil
}

// replicaLoc is where hbase:meta says one secondary replica is served.
type replicaLoc struct {
	id     int
	server string
}

// secondaries builds the secondary replicas of primary from the locations hbase:meta gave,
// in replica id order: regions of their own (same table and keys, their own names), kept in
// the primary's entry and never in the cache's tree.
func secondaries(primary *regionInfo, locs []replicaLoc) ([]*regionInfo, error) {
	if len(locs) == 0 {
		return nil, nil
	}
	slices.SortFunc(locs, func(a, b replicaLoc) int { return a.id - b.id })
	out := make([]*regionInfo, 0, len(locs))
	for _, l := range locs {
		if l.server == "" {
			continue // not assigned now: the next lookup may know
		}
		name, err := replicaRegionName(primary.name, l.id)
		if err != nil {
			return nil, err
		}
		out = append(out, &regionInfo{table: primary.table, start: primary.start, end: primary.end,
			name: name, id: primary.id, replicaID: l.id, addr: l.server})
	}
	return out, nil
}

// secondaryReplicas returns the region's secondary replicas as last read from hbase:meta.
func (r *regionInfo) secondaryReplicas() []*regionInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.replicas
}

// setReplicas replaces the region's secondary replicas.
func (r *regionInfo) setReplicas(reps []*regionInfo) {
	r.mu.Lock()
	r.replicas = reps
	r.mu.Unlock()
}

// replicaByID returns the region's secondary replica id as last known, or nil.
func (r *regionInfo) replicaByID(id int) *regionInfo {
	for _, rep := range r.secondaryReplicas() {
		if rep.replicaID == id {
			return rep
		}
	}
	return nil
}

// movedTo returns secondary replica r served by addr: a new entry, as the old one may be in
// use by reads under way.
func (r *regionInfo) movedTo(addr string) *regionInfo {
	return &regionInfo{table: r.table, start: r.start, end: r.end, name: r.name, id: r.id,
		replicaID: r.replicaID, addr: addr}
}

// swapReplica puts moved in the place of old among the region's secondaries, in a new slice:
// the old one is shared with the reads under way and with the entries copied from this one
// (regionInfo.at). It does nothing when old is not among them any more (replaced meanwhile,
// by a re-read of hbase:meta or another read that followed the move).
func (r *regionInfo) swapReplica(old, moved *regionInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.Index(r.replicas, old)
	if i < 0 {
		return
	}
	reps := slices.Clone(r.replicas)
	reps[i] = moved
	r.replicas = reps
}

// sameReplicas reports whether a and b are the same secondaries on the same servers.
func sameReplicas(a, b []*regionInfo) bool {
	return slices.EqualFunc(a, b, func(x, y *regionInfo) bool { return x.replicaID == y.replicaID && x.addr == y.addr })
}

// currentEntry returns the cache's entry of the region r is (or was) the primary of: r
// itself, or a copy made since (a move followed, regionInfo.at), which shares r's
// secondaries until one of them changes; nil when the cache holds no entry of that region.
func (c *Client) currentEntry(r *regionInfo) *regionInfo {
	cur := c.cache.get(r.table, r.start)
	if cur == nil || !bytes.Equal(cur.name, r.name) {
		return nil
	}
	return cur
}

// replicaMoved records that secondary old of the region primary is served as moved now: in
// primary, the entry a read started from, and in the cache's current entry of the region.
func (c *Client) replicaMoved(primary, old, moved *regionInfo) {
	primary.swapReplica(old, moved)
	if cur := c.currentEntry(primary); cur != nil && cur != primary {
		cur.swapReplica(old, moved)
	}
}

// keepReplicas records reps, read from hbase:meta, as the secondaries of the region primary:
// in primary and in the cache's current entry of the region.
func (c *Client) keepReplicas(primary *regionInfo, reps []*regionInfo) {
	primary.setReplicas(reps)
	if cur := c.currentEntry(primary); cur != nil && cur != primary {
		cur.setReplicas(reps)
	}
}
