package wire

import (
	"net"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// FuzzRegistryResponses feeds the connection registry's answers (bootstrap servers): never a
// panic, and every address returned is host:port.
func FuzzRegistryResponses(f *testing.F) {
	sn := &pb.ServerName{HostName: proto.String("rs1"), Port: proto.Uint32(16020)}
	msg, _ := proto.Marshal(&pb.GetMetaRegionLocationsResponse{MetaLocations: []*pb.RegionLocation{{
		RegionInfo: &pb.RegionInfo{RegionId: proto.Uint64(1), TableName: &pb.TableName{Namespace: []byte("hbase"), Qualifier: []byte("meta")}},
		ServerName: sn}}})
	f.Add(msg)
	msg, _ = proto.Marshal(&pb.GetBootstrapNodesResponse{ServerName: []*pb.ServerName{sn, {HostName: proto.String("x")}}})
	f.Add(msg)
	isAddr := func(t *testing.T, a string) {
		if h, _, err := net.SplitHostPort(a); err != nil || h == "" {
			t.Fatalf("address %q is not host:port", a)
		}
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		var locs pb.GetMetaRegionLocationsResponse
		if proto.Unmarshal(msg, &locs) == nil {
			if a, err := PrimaryMetaServer(&locs); err == nil {
				isAddr(t, a)
			}
		}
		var nodes pb.GetBootstrapNodesResponse
		if proto.Unmarshal(msg, &nodes) == nil {
			for _, a := range ServerAddrs(&nodes) {
				isAddr(t, a)
			}
		}
	})
}
