package admin

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// Regions returns the regions of table in key order, read from hbase:meta, with the server
// each is assigned to. A table that does not exist gives hberr.ErrTableNotFound (where the Java
// Admin returns an empty list: a Go caller can tell a missing table from a typo this way).
func (a *Admin) Regions(ctx context.Context, table string) ([]*hrpc.Region, error) {
	ctx, call := a.begin(ctx, "Regions", table, table)
	rs, err := a.regions(ctx, table)
	return rs, call.end(ctx, err)
}

func (a *Admin) regions(ctx context.Context, table string) ([]*hrpc.Region, error) {
	return a.e.MetaRegions(ctx, table)
}

// Region returns a region named in full ("table,start,id.encoded.", as Regions and
// ClusterStatus give it) or by its encoded name, read from hbase:meta, with the server it is
// assigned to. hberr.ErrRegionNotFound when hbase:meta holds no such online region.
func (a *Admin) Region(ctx context.Context, name []byte) (*hrpc.Region, error) {
	ctx, call := a.begin(ctx, "Region", string(name), regionTable(name))
	r, err := a.region(ctx, name)
	return r, call.end(ctx, err)
}

func (a *Admin) region(ctx context.Context, name []byte) (*hrpc.Region, error) {
	full := name
	if _, _, ok := wire.ParseRegionName(name); !ok {
		var err error
		if full, err = a.fullRegionName(ctx, string(name)); err != nil {
			return nil, err
		}
	}
	get, err := hrpc.NewGet(engine.MetaTableName, full, hrpc.Families(wire.MetaInfoFamily))
	if err != nil {
		return nil, err
	}
	res, err := a.c.Get(ctx, get)
	if err != nil {
		return nil, err
	}
	r, err := hrpcwire.MetaRow(res.Cells)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%w: %q is not an online region in hbase:meta", hberr.ErrRegionNotFound, full)
	}
	return r, nil
}

// fullRegionName finds the full name of the region with this encoded name. The master's
// report of the live servers has it for most regions at the cost of one call; a region a
// split or merge has just created is missing there until its server's next report
// (hbase.regionserver.msginterval, 3 s), so hbase:meta is scanned for it then.
func (a *Admin) fullRegionName(ctx context.Context, encoded string) ([]byte, error) {
	st, err := a.clusterStatus(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range st.LiveServers {
		for _, rl := range s.Regions {
			if rl.Encoded == encoded {
				return rl.Name, nil
			}
		}
	}
	scan, err := hrpc.NewScan(engine.MetaTableName, hrpc.Families(wire.MetaInfoFamily))
	if err != nil {
		return nil, err
	}
	for res, err := range a.c.Scan(ctx, scan) {
		if err != nil {
			return nil, err
		}
		if len(res.Cells) > 0 && hrpc.EncodedRegionName(res.Cells[0].Row) == encoded {
			return res.Cells[0].Row, nil
		}
	}
	return nil, fmt.Errorf("%w: no region %q in hbase:meta", hberr.ErrRegionNotFound, encoded)
}

// SplitRegion splits a region (full or encoded name) at key, or at its midpoint when key is
// nil, and waits until the daughters are open.
func (a *Admin) SplitRegion(ctx context.Context, regionName, key []byte) error {
	ctx, call := a.begin(ctx, "SplitRegion", string(regionName), regionTable(regionName))
	r, err := a.region(ctx, regionName)
	if err == nil {
		err = a.split(ctx, r, key)
	}
	return call.end(ctx, err)
}

// SplitTable splits the region of table holding key at key and waits until the daughters
// are open.
func (a *Admin) SplitTable(ctx context.Context, table string, key []byte) error {
	ctx, call := a.begin(ctx, "SplitTable", table, table)
	return call.end(ctx, a.splitTable(ctx, table, key))
}

func (a *Admin) splitTable(ctx context.Context, table string, key []byte) error {
	if len(key) == 0 {
		return fmt.Errorf("%w: empty split key", hberr.ErrBadRequest)
	}
	rs, err := a.regions(ctx, table)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.Contains(key) {
			return a.split(ctx, r, key)
		}
	}
	return fmt.Errorf("%w: no region of %s holds %q", hberr.ErrRegionNotFound, table, key)
}

func (a *Admin) split(ctx context.Context, r *hrpc.Region, key []byte) error {
	req, err := hrpcwire.SplitRegionRequest(r, key, a.nonce())
	if err != nil {
		return err
	}
	return a.procedure(ctx, wire.MethodSplitRegion, req, &pb.SplitTableRegionResponse{}, nil)
}

// MergeRegions merges two or more adjacent regions (full or encoded names) of one table into
// one and waits until it is open; forcible merges regions that are not adjacent.
func (a *Admin) MergeRegions(ctx context.Context, forcible bool, regionNames ...[]byte) error {
	encoded := make([]string, len(regionNames))
	table := ""
	for i, n := range regionNames {
		encoded[i] = hrpc.EncodedRegionName(n)
		if table == "" {
			table = regionTable(n)
		}
	}
	ctx, call := a.begin(ctx, "MergeRegions", strings.Join(encoded, ","), table)
	req, err := wire.MergeRegionsRequest(encoded, forcible, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodMergeTableRegions, req, &pb.MergeTableRegionsResponse{}, nil)
	}
	return call.end(ctx, err)
}

// MoveRegion moves a region (full or encoded name) to the region server at dest ("host:port"
// or "host,port,startcode"), or to a server the master picks when dest is empty, and returns
// once it is open there.
func (a *Admin) MoveRegion(ctx context.Context, regionName []byte, dest string) error {
	ctx, call := a.begin(ctx, "MoveRegion", string(regionName), regionTable(regionName))
	return call.end(ctx, a.move(ctx, regionName, dest))
}

func (a *Admin) move(ctx context.Context, regionName []byte, dest string) error {
	var to *hrpc.ServerName
	if dest != "" {
		sn, err := a.liveServer(ctx, dest)
		if err != nil {
			return err
		}
		to = &sn
	}
	req, err := hrpcwire.MoveRegionRequest(hrpc.EncodedRegionName(regionName), to)
	if err != nil {
		return err
	}
	return a.callMaster(ctx, wire.MethodMoveRegion, req, &pb.MoveRegionResponse{})
}

// liveServer finds the live server dest names ("host:port", or "host,port,startcode").
func (a *Admin) liveServer(ctx context.Context, dest string) (hrpc.ServerName, error) {
	st, err := a.clusterStatus(ctx)
	if err != nil {
		return hrpc.ServerName{}, err
	}
	for _, s := range st.LiveServers {
		if s.Server.Addr() == dest || s.Server.String() == dest {
			return s.Server, nil
		}
	}
	if h, p, err := net.SplitHostPort(dest); err == nil {
		if _, err := strconv.Atoi(p); err == nil && h != "" {
			return hrpc.ServerName{}, fmt.Errorf("%w at %s", hberr.ErrServerNotFound, dest)
		}
	}
	return hrpc.ServerName{}, fmt.Errorf("%w %q (want host:port)", hberr.ErrServerNotFound, dest)
}

// AssignRegion assigns a closed region (full or encoded name) to a server and returns once it
// is open.
func (a *Admin) AssignRegion(ctx context.Context, regionName []byte) error {
	ctx, call := a.begin(ctx, "AssignRegion", string(regionName), regionTable(regionName))
	r, err := a.region(ctx, regionName)
	if err == nil {
		var req *pb.AssignRegionRequest
		if req, err = hrpcwire.AssignRegionRequest(r); err == nil {
			err = a.callMaster(ctx, wire.MethodAssignRegion, req, &pb.AssignRegionResponse{})
		}
	}
	return call.end(ctx, err)
}

// UnassignRegion closes a region (full or encoded name); it stays closed, its rows
// unavailable, until AssignRegion.
func (a *Admin) UnassignRegion(ctx context.Context, regionName []byte) error {
	ctx, call := a.begin(ctx, "UnassignRegion", string(regionName), regionTable(regionName))
	r, err := a.region(ctx, regionName)
	if err == nil {
		var req *pb.UnassignRegionRequest
		if req, err = hrpcwire.UnassignRegionRequest(r); err == nil {
			err = a.callMaster(ctx, wire.MethodUnassignRegion, req, &pb.UnassignRegionResponse{})
		}
	}
	return call.end(ctx, err)
}

// FlushRegion writes the memstore of a region (full or encoded name) to store files.
func (a *Admin) FlushRegion(ctx context.Context, regionName []byte) error {
	ctx, call := a.begin(ctx, "FlushRegion", string(regionName), regionTable(regionName))
	err := a.onRegionServer(ctx, regionName, nil, wire.MethodFlushRegion, func(r *hrpc.Region) (proto.Message, proto.Message, error) {
		req, err := hrpcwire.FlushRegionRequest(r)
		return req, &pb.FlushRegionResponse{}, err
	})
	return call.end(ctx, err)
}

// CompactRegion queues a compaction (major: of all store files into one) of a region (full
// or encoded name). It returns once the compaction is queued, not done.
func (a *Admin) CompactRegion(ctx context.Context, regionName []byte, major bool) error {
	ctx, call := a.begin(ctx, "CompactRegion", string(regionName), regionTable(regionName))
	err := a.onRegionServer(ctx, regionName, nil, wire.MethodCompactRegion, compactReq(major))
	return call.end(ctx, err)
}

// FlushTable writes the memstores of every region of table to store files.
func (a *Admin) FlushTable(ctx context.Context, table string) error {
	ctx, call := a.begin(ctx, "FlushTable", table, table)
	err := a.eachRegion(ctx, table, wire.MethodFlushRegion, func(r *hrpc.Region) (proto.Message, proto.Message, error) {
		req, err := hrpcwire.FlushRegionRequest(r)
		return req, &pb.FlushRegionResponse{}, err
	})
	return call.end(ctx, err)
}

// CompactTable queues a compaction (major: of all store files of a store into one) of every
// region of table. It returns once they are queued, not done.
func (a *Admin) CompactTable(ctx context.Context, table string, major bool) error {
	ctx, call := a.begin(ctx, "CompactTable", table, table)
	err := a.eachRegion(ctx, table, wire.MethodCompactRegion, compactReq(major))
	return call.end(ctx, err)
}

func compactReq(major bool) func(r *hrpc.Region) (proto.Message, proto.Message, error) {
	return func(r *hrpc.Region) (proto.Message, proto.Message, error) {
		req, err := hrpcwire.CompactRegionRequest(r, major)
		return req, &pb.CompactRegionResponse{}, err
	}
}

func (a *Admin) eachRegion(ctx context.Context, table, method string, build func(*hrpc.Region) (proto.Message, proto.Message, error)) error {
	rs, err := a.regions(ctx, table)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if err := a.onRegionServer(ctx, r.Name, r, method, build); err != nil {
			return fmt.Errorf("region %s: %w", r.Encoded, err)
		}
	}
	return nil
}

// onRegionServer sends the request build makes for a region to the region's server
// (AdminService). When the region is not served there any more (moved, split) or the server
// fails, it reads hbase:meta again and retries, until ctx ends.
func (a *Admin) onRegionServer(ctx context.Context, name []byte, r *hrpc.Region, method string, build func(*hrpc.Region) (proto.Message, proto.Message, error)) error {
	b := a.e.NewBackoff()
	o := a.adminObs(ctx)
	var last error
	for {
		var err error
		var conn *region.Client
		if r == nil {
			r, err = a.region(ctx, name)
		}
		if err == nil && r.Server.Port == 0 {
			err = fmt.Errorf("%w: region %s is not assigned", hberr.ErrRegionUnavailable, r.Encoded)
		}
		if err == nil {
			var req, resp proto.Message
			if req, resp, err = build(r); err != nil {
				return err
			}
			if conn, err = a.rsConn(ctx, r.Server.Addr()); err == nil {
				if err = engine.ObservedRPC(ctx, o, conn, r.Name, method, req, resp); err == nil {
					return nil
				}
			}
		}
		if ctx.Err() != nil {
			return engine.CtxErr(ctx, last)
		}
		last = err
		if engine.Classify(err) == engine.GiveUp {
			return err
		}
		engine.ReportRetry(ctx, o, conn, err, true)
		r = nil // look it up again
		if b.Sleep(ctx) != nil {
			return engine.CtxErr(ctx, last)
		}
	}
}
