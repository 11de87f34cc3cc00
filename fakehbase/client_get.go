package fakehbase

import (
	"bytes"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// clientMethods is the ClientService of a region server.
var clientMethods = map[string]handler{
	"Get":    clientGet,
	"Mutate": clientMutate,
	"Multi":  clientMulti,
	"Scan":   clientScan,
	// ExecService and ExecRegionServerService (a region server's own endpoints are
	// ClientService's, as HBase's): no coprocessor is loaded (client_coprocessor.go).
	"ExecService":             clientExec,
	"ExecRegionServerService": serverExec("region server"),
}

// target returns the table a region specifier names (for fault matching) and the region,
// nil when the server knows no such region.
func (c *call) target(spec *pb.RegionSpecifier) (string, *region) {
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.regions[string(spec.GetValue())]; r != nil {
		return r.t.name, r
	}
	name := spec.GetValue()
	if i := bytes.IndexByte(name, ','); i >= 0 {
		name = name[:i]
	}
	return string(name), nil
}

// enter starts a call of op on the region spec names: it records the call and applies the
// faults that match (inject, outside the lock, so that a delay holds no other call up), then
// takes the server's lock and returns the region if this server serves it. unlock releases
// the lock; on an error the lock is not held.
func (c *call) enter(op Op, spec *pb.RegionSpecifier, row []byte) (r *region, unlock func(), err error) {
	tableName, reg := c.target(spec)
	if err := c.inject(op, tableName, row, reg); err != nil {
		return nil, nil, err
	}
	s := c.rs.s
	s.mu.Lock()
	if r, err = c.served(spec); err != nil {
		s.mu.Unlock()
		return nil, nil, err
	}
	return r, s.mu.Unlock, nil
}

// served returns the region a request names if this server serves it now; otherwise the
// exception a region server answers with. Callers hold s.mu.
func (c *call) served(spec *pb.RegionSpecifier) (*region, error) {
	s := c.rs.s
	if s.closed {
		return nil, jerr(RegionServerStopped, "Server %s not running", c.rs.serverName())
	}
	r := s.regions[string(spec.GetValue())]
	if r != nil && r.server != c.rs.idx && r.movedFrom[c.rs.idx] {
		to := s.servers[r.server]
		e := jerr(regionMoved, "Region moved to: hostname=%s port=%d startCode=%d. As of locationSeqNum=%d.",
			to.host, to.port, to.startCode, s.seq)
		e.host, e.port = to.host, to.port
		return nil, e
	}
	if r == nil || r.server != c.rs.idx || r.closed || !r.t.enabled {
		return nil, jerr(NotServingRegion, "%s is not online on %s", spec.GetValue(), c.rs.serverName())
	}
	return r, nil
}

// serverName is the region server's name as HBase prints it: host,port,startcode.
func (rs *regionServer) serverName() string {
	return fmt.Sprintf("%s,%d,%d", rs.host, rs.port, rs.startCode)
}

func clientGet(c *call) (proto.Message, error) {
	var req pb.GetRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	g := req.GetGet()
	switch {
	case g.GetClosestRowBefore():
		return nil, unsupported("Get with closest_row_before")
	case len(g.GetCfTimeRange()) > 0:
		return nil, unsupported("a time range per column family")
	}
	r, unlock, err := c.enter("Get", req.GetRegion(), g.GetRow())
	if err != nil {
		return nil, err
	}
	defer unlock()
	s := c.rs.s
	cells, err := s.get(r, g)
	if err != nil {
		return nil, err
	}
	if g.GetExistenceOnly() {
		return &pb.GetResponse{Result: &pb.Result{Exists: proto.Bool(len(cells) > 0), Stale: proto.Bool(false)}}, nil
	}
	return &pb.GetResponse{Result: c.result(cells)}, nil
}

// get reads one row of region r. Callers hold s.mu.
func (s *Server) get(r *region, g *pb.Get) ([]kv, error) {
	row := g.GetRow()
	if !r.contains(row) {
		return nil, jerr(WrongRegion, "Requested row out of range for Get on HRegion %s, startKey='%s', getEndKey()='%s', row='%s'",
			r.name, r.start, r.end, row)
	}
	if err := checkAttributes(g.GetAttribute()); err != nil {
		return nil, err
	}
	p := readParams{columns: g.GetColumn(), timeRange: g.GetTimeRange(), maxVersions: g.GetMaxVersions(),
		storeLimit: g.StoreLimit, storeOffset: g.StoreOffset, filter: g.GetFilter()}
	sp, err := newReadSpec(r.t, r.name, p, s.seq, s.now())
	if err != nil {
		return nil, err
	}
	var cells []kv
	if data := r.t.data.get(row); data != nil && data.hasAny(sp.fams) {
		if sp.filter == nil || !sp.filter.rowKey(row) {
			cells = sp.finishRow(sp.readRow(data))
		}
	}
	if sp.ec.err != nil {
		return nil, sp.ec.err
	}
	if r.t == s.meta && len(cells) > 0 {
		s.metaRead(row)
	}
	return cells, nil
}

// checkAttributes refuses the request attributes that change what a read returns and that
// the fake does not implement.
func checkAttributes(attrs []*pb.NameBytesPair) error {
	for _, a := range attrs {
		switch a.GetName() {
		case "_raw_":
			if len(a.GetValue()) == 1 && a.GetValue()[0] != 0 {
				return unsupported("raw scans")
			}
		case "_isolationlevel_":
			return unsupported("read isolation levels")
		case "VISIBILITY":
			return unsupported("visibility labels (the authorizations of a read, attribute VISIBILITY)")
		}
	}
	return nil
}
