package hrpc

import (
	"bytes"
	"net"
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
)

// ServerName names one incarnation of a master or region server: host, port and the start
// code that tells a restarted server apart from its previous life.
type ServerName struct {
	Host      string
	Port      int
	StartCode uint64
}

// Addr returns "host:port".
func (s ServerName) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// String returns "host,port,startcode", HBase's form.
func (s ServerName) String() string {
	return s.Host + "," + strconv.Itoa(s.Port) + "," + strconv.FormatUint(s.StartCode, 10)
}

func serverName(p *pb.ServerName) ServerName {
	return ServerName{Host: p.GetHostName(), Port: int(p.GetPort()), StartCode: p.GetStartCode()}
}

func serverNameProto(s ServerName) *pb.ServerName {
	port := uint32(s.Port)
	return &pb.ServerName{HostName: &s.Host, Port: &port, StartCode: &s.StartCode}
}

// ClusterStatus is what the master reports about the cluster (GetClusterStatus).
type ClusterStatus struct {
	ClusterID           string
	Version             string // the HBase version of the file system layout
	Master              ServerName
	BackupMasters       []ServerName
	LiveServers         []ServerStatus
	DeadServers         []ServerName
	RegionsInTransition int
	BalancerOn          bool
}

// Regions returns the number of regions the live servers report.
func (s *ClusterStatus) Regions() int {
	n := 0
	for i := range s.LiveServers {
		n += len(s.LiveServers[i].Regions)
	}
	return n
}

// ServerStatus is one live region server's last report to the master.
type ServerStatus struct {
	Server          ServerName
	RequestsPerSec  uint64 // requests in the last reporting interval, per second
	TotalRequests   uint64
	UsedHeapMB      uint32
	MaxHeapMB       uint32
	InfoPort        int
	ReportStartTime uint64 // milliseconds since the epoch
	ReportEndTime   uint64
	Regions         []RegionLoad
}

// RegionLoad is one region's figures in its server's report.
type RegionLoad struct {
	Name                 []byte // the full region name
	Encoded              string // its encoded name
	Table                string
	ReadRequests         uint64
	WriteRequests        uint64
	FilteredReadRequests uint64
	Stores               uint32
	StoreFiles           uint32
	StoreFileSizeMB      uint32
	StoreUncompressedMB  uint32
	MemStoreSizeMB       uint32
	StoreFileIndexSizeKB uint64
	// DataLocality is the share (0 to 1) of the region's HFile blocks stored on its own
	// server's data node, weighted by size; 1 on a cluster without HDFS locality information
	// only when the files are local.
	DataLocality        float32
	BlocksLocalWeight   uint64
	BlocksTotalWeight   uint64
	LastMajorCompaction uint64 // milliseconds since the epoch, 0 if never
	CompactingKVs       uint64
	CompactedKVs        uint64
}

// ClusterStatusRequest builds the request for the whole cluster status.
func ClusterStatusRequest() *pb.GetClusterStatusRequest {
	return &pb.GetClusterStatusRequest{}
}

// ParseClusterStatus reads the master's answer.
func ParseClusterStatus(resp *pb.GetClusterStatusResponse) *ClusterStatus {
	cs := resp.GetClusterStatus()
	s := &ClusterStatus{
		ClusterID:           cs.GetClusterId().GetClusterId(),
		Version:             cs.GetHbaseVersion().GetVersion(),
		Master:              serverName(cs.GetMaster()),
		RegionsInTransition: len(cs.GetRegionsInTransition()),
		BalancerOn:          cs.GetBalancerOn(),
	}
	for _, b := range cs.GetBackupMasters() {
		s.BackupMasters = append(s.BackupMasters, serverName(b))
	}
	for _, d := range cs.GetDeadServers() {
		s.DeadServers = append(s.DeadServers, serverName(d))
	}
	for _, ls := range cs.GetLiveServers() {
		l := ls.GetServerLoad()
		ss := ServerStatus{
			Server:          serverName(ls.GetServer()),
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

func regionLoad(rl *pb.RegionLoad) RegionLoad {
	name := rl.GetRegionSpecifier().GetValue()
	table, _, _ := ParseRegionName(name)
	return RegionLoad{
		Name:                 name,
		Encoded:              EncodedRegionName(name),
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

// metaEncodedName is the encoded name of hbase:meta's region, whose name ("hbase:meta,,1")
// predates encoded suffixes.
const metaEncodedName = "1588230740"

// EncodedRegionName returns the encoded name of a region: the suffix of "table,start,id.encoded."
// (a name given already encoded is returned as it is).
func EncodedRegionName(name []byte) string {
	if bytes.HasSuffix(name, []byte(".")) {
		trimmed := name[:len(name)-1]
		if i := bytes.LastIndexByte(trimmed, '.'); i >= 0 && bytes.IndexByte(trimmed[i:], ',') < 0 {
			return string(trimmed[i+1:])
		}
	}
	if bytes.Equal(name, []byte("hbase:meta,,1")) {
		return metaEncodedName
	}
	return string(name)
}

// ParseRegionName splits a full region name "table,start,id[.encoded.]" into its table and
// start key; ok is false for anything else (an encoded name). Start keys may hold commas, the
// table and the id may not.
func ParseRegionName(name []byte) (table string, start []byte, ok bool) {
	first := bytes.IndexByte(name, ',')
	last := bytes.LastIndexByte(name, ',')
	if first <= 0 || last == first {
		return "", nil, false
	}
	return string(name[:first]), name[first+1 : last], true
}
