package hrpcwire

import (
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// ServerName reads a ServerName message.
func ServerName(p *pb.ServerName) hrpc.ServerName {
	return hrpc.ServerName{Host: p.GetHostName(), Port: int(p.GetPort()), StartCode: p.GetStartCode()}
}

// ServerNameProto is s as a ServerName message.
func ServerNameProto(s hrpc.ServerName) *pb.ServerName {
	port := uint32(s.Port)
	return &pb.ServerName{HostName: &s.Host, Port: &port, StartCode: &s.StartCode}
}

// ParseClusterStatus reads the master's answer to wire.ClusterStatusRequest.
func ParseClusterStatus(resp *pb.GetClusterStatusResponse) *hrpc.ClusterStatus {
	cs := resp.GetClusterStatus()
	s := &hrpc.ClusterStatus{
		ClusterID:           cs.GetClusterId().GetClusterId(),
		Version:             cs.GetHbaseVersion().GetVersion(),
		Master:              ServerName(cs.GetMaster()),
		RegionsInTransition: len(cs.GetRegionsInTransition()),
		BalancerOn:          cs.GetBalancerOn(),
	}
	for _, b := range cs.GetBackupMasters() {
		s.BackupMasters = append(s.BackupMasters, ServerName(b))
	}
	for _, d := range cs.GetDeadServers() {
		s.DeadServers = append(s.DeadServers, ServerName(d))
	}
	for _, ls := range cs.GetLiveServers() {
		l := ls.GetServerLoad()
		ss := hrpc.ServerStatus{
			Server:          ServerName(ls.GetServer()),
			RequestsPerSec:  l.GetNumberOfRequests(),
			TotalRequests:   l.GetTotalNumberOfRequests(),
			UsedHeapMB:      l.GetUsedHeap_MB(),
			MaxHeapMB:       l.GetMaxHeap_MB(),
			InfoPort:        int(l.GetInfoServerPort()),
			ReportStartTime: l.GetReportStartTime(),
			ReportEndTime:   l.GetReportEndTime(),
		}
		for _, rl := range l.GetRegionLoads() {
			ss.Regions = append(ss.Regions, regionLoad(rl))
		}
		s.LiveServers = append(s.LiveServers, ss)
	}
	return s
}

func regionLoad(rl *pb.RegionLoad) hrpc.RegionLoad {
	name := rl.GetRegionSpecifier().GetValue()
	table, _, _ := wire.ParseRegionName(name)
	return hrpc.RegionLoad{
		Name:                 name,
		Encoded:              wire.EncodedRegionName(name),
		Table:                table,
		ReadRequests:         rl.GetReadRequestsCount(),
		WriteRequests:        rl.GetWriteRequestsCount(),
		FilteredReadRequests: rl.GetFilteredReadRequestsCount(),
		Stores:               rl.GetStores(),
		StoreFiles:           rl.GetStorefiles(),
		StoreFileSizeMB:      rl.GetStorefileSize_MB(),
		StoreUncompressedMB:  rl.GetStoreUncompressedSize_MB(),
		MemStoreSizeMB:       rl.GetMemStoreSize_MB(),
		StoreFileIndexSizeKB: rl.GetStorefileIndexSize_KB(),
		DataLocality:         rl.GetDataLocality(),
		BlocksLocalWeight:    rl.GetBlocksLocalWeight(),
		BlocksTotalWeight:    rl.GetBlocksTotalWeight(),
		LastMajorCompaction:  rl.GetLastMajorCompactionTs(),
		CompactingKVs:        rl.GetTotalCompacting_KVs(),
		CompactedKVs:         rl.GetCurrentCompacted_KVs(),
	}
}

// ParseSnapshots reads the completed snapshots (the answer to wire.ListSnapshotsRequest).
func ParseSnapshots(resp *pb.GetCompletedSnapshotsResponse) []hrpc.Snapshot {
	var out []hrpc.Snapshot
	for _, d := range resp.GetSnapshots() {
		s := hrpc.Snapshot{Name: d.GetName(), Table: d.GetTable(), Owner: d.GetOwner(), Type: d.GetType().String()}
		if ms := d.GetCreationTime(); ms > 0 {
			s.Created = time.UnixMilli(ms)
		}
		if ttl := d.GetTtl(); ttl > 0 {
			s.TTL = time.Duration(ttl) * time.Second
		}
		out = append(out, s)
	}
	return out
}
