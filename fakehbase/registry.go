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
	if err := c.inject(OpGetMetaRegionLocations, metaTable, nil, nil); err != nil {
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
