package fakehbase

import (
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// registryMethods is the connection registry (ClientMetaService) every region server serves,
// as HBase 2.5+ region servers do: where a client bootstraps without ZooKeeper.
var registryMethods = map[string]handler{
	"GetClusterId":           registryClusterID,
	"GetActiveMaster":        registryActiveMaster,
	"GetMetaRegionLocations": registryMetaLocations,
	"GetBootstrapNodes":      registryBootstrapNodes,
}

func (rs *regionServer) name() *pb.ServerName {
	return &pb.ServerName{HostName: proto.String(rs.host), Port: proto.Uint32(uint32(rs.port)),
		StartCode: proto.Uint64(uint64(rs.startCode))}
}

func registryClusterID(c *call) (proto.Message, error) {
	return &pb.GetClusterIdResponse{ClusterId: proto.String(c.rs.s.clusterID)}, nil
}

func registryActiveMaster(c *call) (proto.Message, error) {
	return &pb.GetActiveMasterResponse{ServerName: c.rs.s.servers[0].name()}, nil
}

func registryMetaLocations(c *call) (proto.Message, error) {
	if err := c.inject("GetMetaRegionLocations", "", nil, nil); err != nil {
		return nil, err
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.meta.regions[0]
	return &pb.GetMetaRegionLocationsResponse{MetaLocations: []*pb.RegionLocation{{
		RegionInfo: r.info(),
		ServerName: s.servers[r.server].name(),
		SeqNum:     proto.Int64(1),
	}}}, nil
}

func registryBootstrapNodes(c *call) (proto.Message, error) {
	resp := &pb.GetBootstrapNodesResponse{}
	for _, rs := range c.rs.s.servers {
		resp.ServerName = append(resp.ServerName, rs.name())
	}
	return resp, nil
}

// adminMethods is the AdminService of the region servers: flushes and compactions only.
var adminMethods = map[string]handler{
	"FlushRegion":   adminFlush,
	"CompactRegion": adminCompact,
}

func adminFlush(c *call) (proto.Message, error) {
	var req pb.FlushRegionRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	if len(req.GetFamily()) > 0 {
		return nil, unsupported("flushing one family")
	}
	tableName, reg := c.target(req.GetRegion())
	if err := c.inject("FlushRegion", tableName, nil, reg); err != nil {
		return nil, err
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := c.served(req.GetRegion())
	if err != nil {
		return nil, err
	}
	s.flushRegion(r)
	return &pb.FlushRegionResponse{LastFlushTime: proto.Uint64(uint64(s.now())), Flushed: proto.Bool(true)}, nil
}

// adminCompact compacts at once: HBase only queues the compaction, so a test cannot tell.
func adminCompact(c *call) (proto.Message, error) {
	var req pb.CompactRegionRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	if len(req.GetFamily()) > 0 {
		return nil, unsupported("compacting one family")
	}
	tableName, reg := c.target(req.GetRegion())
	if err := c.inject("CompactRegion", tableName, nil, reg); err != nil {
		return nil, err
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := c.served(req.GetRegion())
	if err != nil {
		return nil, err
	}
	s.compactRegion(r, req.GetMajor())
	return &pb.CompactRegionResponse{}, nil
}
