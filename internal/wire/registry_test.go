package wire

import (
	"errors"
	"net"
	"slices"
	"strconv"
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
	msg, _ = proto.Marshal(metaLocations(0, 2, -1, 1<<30))
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
			if servers, err := MetaReplicaServers(&locs, 16); err == nil {
				if len(servers) > 16 {
					t.Fatalf("%d replica servers; at most 16 asked", len(servers))
				}
				for _, a := range servers {
					if a != "" {
						isAddr(t, a)
					}
				}
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

// metaLocations is a GetMetaRegionLocations answer with one location per replica id, replica
// id on server rs<id>:16020 (-1: a location without a server, as for an unassigned replica,
// given for replica 3).
func metaLocations(ids ...int) *pb.GetMetaRegionLocationsResponse {
	resp := &pb.GetMetaRegionLocationsResponse{}
	for _, id := range ids {
		loc := &pb.RegionLocation{RegionInfo: &pb.RegionInfo{RegionId: proto.Uint64(1),
			TableName: &pb.TableName{Namespace: []byte("hbase"), Qualifier: []byte("meta")}}}
		if id == -1 {
			loc.RegionInfo.ReplicaId = proto.Int32(3)
		} else {
			loc.RegionInfo.ReplicaId = proto.Int32(int32(id))
			loc.ServerName = &pb.ServerName{HostName: proto.String("rs" + strconv.Itoa(id)), Port: proto.Uint32(16020)}
		}
		resp.MetaLocations = append(resp.MetaLocations, loc)
	}
	return resp
}

func TestMetaReplicaServers(t *testing.T) {
	for _, c := range []struct {
		name string
		resp *pb.GetMetaRegionLocationsResponse
		want []string
		bad  bool
	}{
		{"primary only", metaLocations(0), nil, false},
		{"all, any order", metaLocations(2, 0, 1), []string{"rs1:16020", "rs2:16020"}, false},
		{"a gap", metaLocations(0, 2), []string{"", "rs2:16020"}, false},
		{"unassigned", metaLocations(0, 1, -1), []string{"rs1:16020"}, false},
		{"above the bound", metaLocations(0, 1, 17, 1<<30), []string{"rs1:16020"}, false},
		{"the first of a repeated id", repeated(metaLocations(1), metaLocations(1).MetaLocations[0], "other"), []string{"rs1:16020"}, false},
		{"no location", &pb.GetMetaRegionLocationsResponse{}, nil, true},
		{"negative id", metaLocations(0, -5), nil, true},
		{"bad server", badServer(metaLocations(0, 1)), nil, true},
	} {
		got, err := MetaReplicaServers(c.resp, 16)
		if c.bad {
			if !errors.Is(err, ErrBadResponse) {
				t.Errorf("%s: err = %v; want ErrBadResponse", c.name, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// repeated appends a copy of loc on host to resp.
func repeated(resp *pb.GetMetaRegionLocationsResponse, loc *pb.RegionLocation, host string) *pb.GetMetaRegionLocationsResponse {
	cp := proto.Clone(loc).(*pb.RegionLocation)
	cp.ServerName.HostName = proto.String(host)
	resp.MetaLocations = append(resp.MetaLocations, cp)
	return resp
}

// badServer gives the last location of resp a server without a port.
func badServer(resp *pb.GetMetaRegionLocationsResponse) *pb.GetMetaRegionLocationsResponse {
	resp.MetaLocations[len(resp.MetaLocations)-1].ServerName.Port = nil
	return resp
}
