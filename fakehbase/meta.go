package fakehbase

import (
	"encoding/binary"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// The rows of hbase:meta are written by the catalog, as the master writes them: a table's
// state row (family table) and one row per region (family info) naming its server. A client
// finds regions and table states by reading them over the wire like any table.

// metaWrite rewrites the rows of table t in hbase:meta. Callers hold s.mu.
func (s *Server) metaWrite(t *table) {
	s.metaRemove(t)
	s.seq++
	now := s.now()
	d := s.meta.data
	put := func(key []byte, fam, qual string, value []byte) {
		d.add(key, fam, stored{qualifier: []byte(qual), ts: now, typ: typePut, value: value, seq: s.seq})
	}
	state := pb.TableState_ENABLED
	if !t.enabled {
		state = pb.TableState_DISABLED
	}
	st, _ := proto.Marshal(&pb.TableState{State: state.Enum()})
	put([]byte(t.name), "table", "state", st)
	for _, r := range t.regions {
		ri, _ := proto.Marshal(r.info())
		rs := s.servers[r.server]
		put(r.name, "info", "regioninfo", append([]byte("PBUF"), ri...))
		put(r.name, "info", "seqnumDuringOpen", binary.BigEndian.AppendUint64(nil, 2))
		put(r.name, "info", "server", []byte(rs.addr()))
		put(r.name, "info", "serverstartcode", binary.BigEndian.AppendUint64(nil, uint64(rs.startCode)))
		put(r.name, "info", "sn", []byte(rs.serverName()))
		regionState := "OPEN"
		if !t.enabled {
			regionState = "CLOSED"
		}
		put(r.name, "info", "state", []byte(regionState))
	}
	t.metaRows = [][]byte{[]byte(t.name)}
	for _, r := range t.regions {
		t.metaRows = append(t.metaRows, r.name)
	}
}

// metaRemove removes the rows of table t from hbase:meta. Callers hold s.mu.
func (s *Server) metaRemove(t *table) {
	for _, key := range t.metaRows {
		s.meta.data.rows.Delete(&row{key: key})
	}
	t.metaRows = nil
}

// metaRead notes that a client read the hbase:meta row of a region: a region moved onto its
// own server is served again once its client has looked it up. Callers hold s.mu.
func (s *Server) metaRead(key []byte) {
	if r := s.regions[string(key)]; r != nil && r.closed {
		r.closed = false
	}
}

// registerRegions indexes the regions of t by full and encoded name. Callers hold s.mu.
func (s *Server) registerRegions(t *table) {
	for _, r := range t.regions {
		s.regions[string(r.name)] = r
		s.regions[r.encoded] = r
	}
}

func (s *Server) unregisterRegions(t *table) {
	for _, r := range t.regions {
		delete(s.regions, string(r.name))
		delete(s.regions, r.encoded)
	}
}

// newRegions makes the regions of table t split at keys (sorted, unique), with one region id,
// spread over the servers in turn. Callers hold s.mu.
func (s *Server) newRegions(t *table, keys [][]byte) {
	id := s.now()
	bounds := append([][]byte{nil}, keys...)
	t.regions = nil
	for i, start := range bounds {
		var end []byte
		if i+1 < len(bounds) {
			end = bounds[i+1]
		}
		t.regions = append(t.regions, newRegion(t, start, end, id, s.nextServer%len(s.servers)))
		s.nextServer++
	}
}
