package admin

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// The calls about one region server (or every one): the regions it serves, compactions and
// flushes of all of them, decommissioning, configuration reload, WAL roll, the compaction
// switch. A server is named "host:port" or "host,port,startcode", as ClusterStatus gives it;
// one that is not live gives hberr.ErrServerNotFound.

// callServer sends req to the AdminService of the server at addr (a region server or a
// master), retrying what engine.Classify retries until ctx ends.
func (a *Admin) callServer(ctx context.Context, addr, method string, req, resp proto.Message) error {
	b := a.e.NewBackoff()
	o := a.adminObs(ctx)
	var last error
	for {
		conn, err := a.rsConn(ctx, addr)
		if err == nil {
			if err = engine.ObservedRPC(ctx, o, conn, nil, method, req, resp); err == nil {
				return nil
			}
		}
		if ctx.Err() != nil {
			return engine.CtxErr(ctx, last)
		}
		last = err
		if engine.Classify(err) == engine.GiveUp {
			return err
		}
		engine.ReportRetry(ctx, o, conn, err, false)
		if b.Sleep(ctx) != nil {
			return engine.CtxErr(ctx, last)
		}
	}
}

// serverRegions are the full names of the regions the server at addr serves now.
func (a *Admin) serverRegions(ctx context.Context, addr string) ([][]byte, error) {
	resp := &pb.GetOnlineRegionResponse{}
	if err := a.callServer(ctx, addr, wire.MethodGetOnlineRegion, &pb.GetOnlineRegionRequest{}, resp); err != nil {
		return nil, err
	}
	names := make([][]byte, 0, len(resp.GetRegionInfo()))
	for _, ri := range resp.GetRegionInfo() {
		names = append(names, wire.RegionNameOf(ri))
	}
	return names, nil
}

// ServerRegions returns the full names of the regions the region server serves now, as it
// says itself (hbase:meta's, system tables' included).
func (a *Admin) ServerRegions(ctx context.Context, server string) ([][]byte, error) {
	ctx, call := a.begin(ctx, "ServerRegions", server, "")
	sn, err := a.liveServer(ctx, server)
	var names [][]byte
	if err == nil {
		names, err = a.serverRegions(ctx, sn.Addr())
	}
	return names, call.end(ctx, err)
}

// CompactRegionServer queues a compaction (major or not) of every region the region server
// serves. It returns once they are queued, not done.
func (a *Admin) CompactRegionServer(ctx context.Context, server string, major bool) error {
	ctx, call := a.begin(ctx, "CompactRegionServer", server, "")
	return call.end(ctx, a.eachServerRegion(ctx, server, wire.MethodCompactRegion, func(name []byte) (proto.Message, proto.Message, error) {
		req, err := wire.CompactFamilyRequest(name, "", major)
		return req, &pb.CompactRegionResponse{}, err
	}))
}

// FlushRegionServer writes the memstores of every region the region server serves to store
// files.
func (a *Admin) FlushRegionServer(ctx context.Context, server string) error {
	ctx, call := a.begin(ctx, "FlushRegionServer", server, "")
	return call.end(ctx, a.eachServerRegion(ctx, server, wire.MethodFlushRegion, func(name []byte) (proto.Message, proto.Message, error) {
		req, err := wire.FlushFamilyRequest(name, "")
		return req, &pb.FlushRegionResponse{}, err
	}))
}

// eachServerRegion sends the request build makes to the server for each region it serves. A
// region that left the server meanwhile (moved, split) is skipped, as the Java Admin does.
func (a *Admin) eachServerRegion(ctx context.Context, server, method string, build func([]byte) (proto.Message, proto.Message, error)) error {
	sn, err := a.liveServer(ctx, server)
	if err != nil {
		return err
	}
	names, err := a.serverRegions(ctx, sn.Addr())
	if err != nil {
		return err
	}
	for _, name := range names {
		req, resp, err := build(name)
		if err != nil {
			return err
		}
		err = a.callServer(ctx, sn.Addr(), method, req, resp)
		if err != nil && !errors.Is(err, hberr.ErrRegionUnavailable) {
			return fmt.Errorf("region %s: %w", wire.EncodedRegionName(name), err)
		}
	}
	return nil
}

// CompactionSwitch turns compactions on or off on the region servers named (every live one
// when none is) and returns whether each had them on. Compactions under way finish; queued
// ones wait while off.
func (a *Admin) CompactionSwitch(ctx context.Context, on bool, servers ...string) (map[hrpc.ServerName]bool, error) {
	ctx, call := a.begin(ctx, "CompactionSwitch", "", "")
	sns, err := a.servers(ctx, servers)
	prev := make(map[hrpc.ServerName]bool, len(sns))
	for _, sn := range sns {
		if err != nil {
			break
		}
		resp := &pb.CompactionSwitchResponse{}
		if err = a.callServer(ctx, sn.Addr(), wire.MethodCompactionSwitch, &pb.CompactionSwitchRequest{Enabled: &on}, resp); err != nil {
			err = fmt.Errorf("region server %s: %w", sn, err)
			break
		}
		prev[sn] = resp.GetPrevState()
	}
	return prev, call.end(ctx, err)
}

// servers resolves server names to live servers; none means every live region server.
func (a *Admin) servers(ctx context.Context, names []string) ([]hrpc.ServerName, error) {
	if len(names) == 0 {
		st, err := a.clusterStatus(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]hrpc.ServerName, 0, len(st.LiveServers))
		for _, s := range st.LiveServers {
			out = append(out, s.Server)
		}
		return out, nil
	}
	out := make([]hrpc.ServerName, 0, len(names))
	for _, n := range names {
		sn, err := a.liveServer(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, sn)
	}
	return out, nil
}

// DecommissionServers marks region servers decommissioned: the master assigns them no
// regions (balancer runs and moves included) until RecommissionServer; with offload it moves
// the regions they serve away first.
func (a *Admin) DecommissionServers(ctx context.Context, offload bool, servers ...string) error {
	ctx, call := a.begin(ctx, "DecommissionServers", fmt.Sprint(servers), "")
	sns, err := a.servers(ctx, nonEmpty(servers))
	if err == nil {
		var req *pb.DecommissionRegionServersRequest
		pbs := make([]*pb.ServerName, 0, len(sns))
		for _, sn := range sns {
			pbs = append(pbs, hrpcwire.ServerNameProto(sn))
		}
		if req, err = wire.DecommissionRequest(pbs, offload); err == nil {
			err = a.callMaster(ctx, wire.MethodDecommissionRegionServers, req, &pb.DecommissionRegionServersResponse{})
		}
	}
	return call.end(ctx, err)
}

// nonEmpty keeps a call that names no server from meaning "every server".
func nonEmpty(servers []string) []string {
	if len(servers) == 0 {
		return []string{""}
	}
	return servers
}

// DecommissionedServers lists the decommissioned region servers.
func (a *Admin) DecommissionedServers(ctx context.Context) ([]hrpc.ServerName, error) {
	ctx, call := a.begin(ctx, "DecommissionedServers", "", "")
	resp := &pb.ListDecommissionedRegionServersResponse{}
	if err := a.callMaster(ctx, wire.MethodListDecommissionedRegionServer, &pb.ListDecommissionedRegionServersRequest{}, resp); err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]hrpc.ServerName, 0, len(resp.GetServerName()))
	for _, sn := range resp.GetServerName() {
		out = append(out, hrpcwire.ServerName(sn))
	}
	return out, call.end(ctx, nil)
}

// RecommissionServer lets a decommissioned region server take regions again, and moves the
// regions named (full or encoded names) to it.
func (a *Admin) RecommissionServer(ctx context.Context, server string, regionNames ...[]byte) error {
	ctx, call := a.begin(ctx, "RecommissionServer", server, "")
	sn, err := a.liveServer(ctx, server) // a decommissioned server is still live
	if err == nil {
		encoded := make([]string, len(regionNames))
		for i, n := range regionNames {
			encoded[i] = hrpc.EncodedRegionName(n)
		}
		var req *pb.RecommissionRegionServerRequest
		if req, err = wire.RecommissionRequest(hrpcwire.ServerNameProto(sn), encoded); err == nil {
			err = a.callMaster(ctx, wire.MethodRecommissionRegionServer, req, &pb.RecommissionRegionServerResponse{})
		}
	}
	return call.end(ctx, err)
}

// UpdateConfiguration has one server (a region server or a master, "host:port" or
// "host,port,startcode") read its configuration files again and apply the settings that can
// change while it runs.
func (a *Admin) UpdateConfiguration(ctx context.Context, server string) error {
	ctx, call := a.begin(ctx, "UpdateConfiguration", server, "")
	addr, err := a.anyServer(ctx, server)
	if err == nil {
		err = a.callServer(ctx, addr, wire.MethodUpdateConfiguration, &pb.UpdateConfigurationRequest{}, &pb.UpdateConfigurationResponse{})
	}
	return call.end(ctx, err)
}

// UpdateAllConfigurations has every live region server, the active master and the backup
// masters read their configuration files again.
func (a *Admin) UpdateAllConfigurations(ctx context.Context) error {
	ctx, call := a.begin(ctx, "UpdateAllConfigurations", "", "")
	st, err := a.clusterStatus(ctx)
	if err == nil {
		all := append([]hrpc.ServerName{st.Master}, st.BackupMasters...)
		for _, s := range st.LiveServers {
			all = append(all, s.Server)
		}
		for _, sn := range all {
			if err = a.callServer(ctx, sn.Addr(), wire.MethodUpdateConfiguration, &pb.UpdateConfigurationRequest{},
				&pb.UpdateConfigurationResponse{}); err != nil {
				err = fmt.Errorf("server %s: %w", sn, err)
				break
			}
		}
	}
	return call.end(ctx, err)
}

// anyServer is the address of the live region server, active master or backup master named.
func (a *Admin) anyServer(ctx context.Context, server string) (string, error) {
	st, err := a.clusterStatus(ctx)
	if err != nil {
		return "", err
	}
	for _, sn := range append([]hrpc.ServerName{st.Master}, st.BackupMasters...) {
		if sn.Addr() == server || sn.String() == server {
			return sn.Addr(), nil
		}
	}
	sn, err := a.liveServer(ctx, server)
	return sn.Addr(), err
}

// RollWALWriter asks a region server to close its current write-ahead logs and start new
// ones. The server's log roller rolls them soon after the call returns (the server answers
// once the roll is requested, as it does to the Java Admin's rollWALWriter).
func (a *Admin) RollWALWriter(ctx context.Context, server string) error {
	ctx, call := a.begin(ctx, "RollWALWriter", server, "")
	sn, err := a.liveServer(ctx, server)
	if err == nil {
		err = a.callServer(ctx, sn.Addr(), wire.MethodRollWALWriter, &pb.RollWALWriterRequest{}, &pb.RollWALWriterResponse{})
	}
	return call.end(ctx, err)
}

// CacheEvictionStats is what ClearBlockCache evicted.
type CacheEvictionStats struct {
	EvictedBlocks int64
	EvictedBytes  int64
	MaxCacheSize  int64 // the largest block cache of the servers asked, in bytes
	// Failed are the regions whose blocks could not be evicted, by full name, with why.
	Failed map[string]error
}

// ClearBlockCache evicts the blocks of every region of table from its server's block cache.
func (a *Admin) ClearBlockCache(ctx context.Context, table string) (CacheEvictionStats, error) {
	ctx, call := a.begin(ctx, "ClearBlockCache", table, table)
	var stats CacheEvictionStats
	rs, err := a.regions(ctx, table)
	if err != nil {
		return stats, call.end(ctx, err)
	}
	byServer := make(map[string][][]byte)
	var order []string
	for _, r := range rs {
		if r.Server.Port == 0 {
			continue // not assigned: nothing cached
		}
		addr := r.Server.Addr()
		if _, ok := byServer[addr]; !ok {
			order = append(order, addr)
		}
		byServer[addr] = append(byServer[addr], r.Name)
	}
	for _, addr := range order {
		resp := &pb.ClearRegionBlockCacheResponse{}
		if err := a.callServer(ctx, addr, wire.MethodClearRegionBlockCache, wire.ClearBlockCacheRequest(byServer[addr]), resp); err != nil {
			return stats, call.end(ctx, fmt.Errorf("region server %s: %w", addr, err))
		}
		s := resp.GetStats()
		stats.EvictedBlocks += s.GetEvictedBlocks()
		stats.EvictedBytes += s.GetBytesEvicted()
		stats.MaxCacheSize = max(stats.MaxCacheSize, s.GetMaxCacheSize())
		for _, ex := range s.GetException() {
			if stats.Failed == nil {
				stats.Failed = make(map[string]error)
			}
			e := ex.GetException()
			stats.Failed[string(ex.GetRegion().GetValue())] = hberr.NewRemoteError(e.GetName(), string(e.GetValue()), true)
		}
	}
	return stats, call.end(ctx, nil)
}
