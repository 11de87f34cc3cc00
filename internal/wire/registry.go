package wire

import (
	"fmt"
	"net"
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
)

// The connection registry (ClientMetaService, HBase 2.5+): what a client asks a bootstrap
// server before it can route calls, instead of reading ZooKeeper.

// RegistryService is the service name of the connection registry in the connection header.
const RegistryService = "ClientMetaService"

// Methods of the connection registry.
const (
	MethodGetMetaRegionLocations = "GetMetaRegionLocations"
	MethodGetBootstrapNodes      = "GetBootstrapNodes"
	MethodGetActiveMaster        = "GetActiveMaster"
)

// MetaLocationsRequest asks where the replicas of hbase:meta are.
func MetaLocationsRequest() *pb.GetMetaRegionLocationsRequest {
	return &pb.GetMetaRegionLocationsRequest{}
}

// BootstrapNodesRequest asks for the servers that serve the registry now.
func BootstrapNodesRequest() *pb.GetBootstrapNodesRequest { return &pb.GetBootstrapNodesRequest{} }

// ActiveMasterRequest asks for the active master.
func ActiveMasterRequest() *pb.GetActiveMasterRequest { return &pb.GetActiveMasterRequest{} }

// PrimaryMetaServer returns "host:port" of the server of hbase:meta's primary replica (replica
// id 0) in resp.
func PrimaryMetaServer(resp *pb.GetMetaRegionLocationsResponse) (string, error) {
	for _, loc := range resp.GetMetaLocations() {
		if loc.GetRegionInfo().GetReplicaId() != 0 {
			continue
		}
		if loc.ServerName == nil {
			return "", fmt.Errorf("%w: hbase:meta is not assigned to a server", ErrBadResponse)
		}
		return ServerAddr(loc.ServerName)
	}
	return "", fmt.Errorf("%w: no location of hbase:meta's primary replica (%d locations)", ErrBadResponse, len(resp.GetMetaLocations()))
}

// MetaReplicaServers returns "host:port" of the servers of hbase:meta's secondary replicas in
// resp (HBase's registry answers from its cache of every meta-region-server-N znode, one
// location per replica): servers[i] holds replica i+1, "" when resp gives it no server.
// Replicas above maxID are left out, so a hostile id cannot size the slice. An answer with no
// location at all is an error: Java's registry takes it for a server not ready yet.
func MetaReplicaServers(resp *pb.GetMetaRegionLocationsResponse, maxID int) ([]string, error) {
	locs := resp.GetMetaLocations()
	if len(locs) == 0 {
		return nil, fmt.Errorf("%w: no location of hbase:meta", ErrBadResponse)
	}
	var servers []string
	for _, loc := range locs {
		id := int(loc.GetRegionInfo().GetReplicaId())
		if id < 0 {
			return nil, fmt.Errorf("%w: hbase:meta replica id %d", ErrBadResponse, id)
		}
		if id == 0 || id > maxID || loc.ServerName == nil {
			continue
		}
		addr, err := ServerAddr(loc.ServerName)
		if err != nil {
			return nil, fmt.Errorf("hbase:meta replica %d: %w", id, err)
		}
		for len(servers) < id {
			servers = append(servers, "")
		}
		if servers[id-1] == "" {
			servers[id-1] = addr
		}
	}
	return servers, nil
}

// ServerAddrs returns "host:port" of each server in resp, skipping malformed ones.
func ServerAddrs(resp *pb.GetBootstrapNodesResponse) []string {
	var out []string
	for _, sn := range resp.GetServerName() {
		if a, err := ServerAddr(sn); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// ServerAddr returns "host:port" of sn.
func ServerAddr(sn *pb.ServerName) (string, error) {
	if sn.GetHostName() == "" || sn.GetPort() == 0 || sn.GetPort() > 65535 {
		return "", fmt.Errorf("%w: server name %q port %d", ErrBadResponse, sn.GetHostName(), sn.GetPort())
	}
	return net.JoinHostPort(sn.GetHostName(), strconv.FormatUint(uint64(sn.GetPort()), 10)), nil
}
