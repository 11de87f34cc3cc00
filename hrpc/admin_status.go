package hrpc

import (
	"net"
	"strconv"

	"github.com/go-hbase/hbase/internal/wire"
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

// EncodedRegionName returns the encoded name of a region: the suffix of its full name
// "table,start,id.encoded." (a name given already encoded is returned as it is). The admin
// calls take either.
func EncodedRegionName(name []byte) string { return wire.EncodedRegionName(name) }
