package wire

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
)

// The operators' admin requests (package admin's switches, chores, compaction state,
// procedures, decommissioning, and the region server calls of one server): their method
// names and builders. Messages are in internal/pb/proto/AdminOps.proto.

// Methods of MasterService.
const (
	MethodSetSplitOrMergeEnabled         = "SetSplitOrMergeEnabled"
	MethodIsSplitOrMergeEnabled          = "IsSplitOrMergeEnabled"
	MethodEnableCatalogJanitor           = "EnableCatalogJanitor"
	MethodIsCatalogJanitorEnabled        = "IsCatalogJanitorEnabled"
	MethodRunCatalogScan                 = "RunCatalogScan"
	MethodSetCleanerChoreRunning         = "SetCleanerChoreRunning"
	MethodIsCleanerChoreEnabled          = "IsCleanerChoreEnabled"
	MethodRunCleanerChore                = "RunCleanerChore"
	MethodSwitchSnapshotCleanup          = "SwitchSnapshotCleanup"
	MethodIsSnapshotCleanupEnabled       = "IsSnapshotCleanupEnabled"
	MethodIsMasterInMaintenanceMode      = "IsMasterInMaintenanceMode"
	MethodGetSecurityCapabilities        = "getSecurityCapabilities"
	MethodNormalize                      = "Normalize"
	MethodOfflineRegion                  = "OfflineRegion"
	MethodTruncateRegion                 = "TruncateRegion"
	MethodLastMajorCompaction            = "getLastMajorCompactionTimestamp"
	MethodLastMajorCompactionForRegion   = "getLastMajorCompactionTimestampForRegion"
	MethodDecommissionRegionServers      = "DecommissionRegionServers"
	MethodListDecommissionedRegionServer = "ListDecommissionedRegionServers"
	MethodRecommissionRegionServer       = "RecommissionRegionServer"
	MethodGetProcedures                  = "GetProcedures"
	MethodGetLocks                       = "GetLocks"
	MethodAbortProcedure                 = "AbortProcedure"
)

// Methods of AdminService (region servers; the master answers them too).
const (
	MethodGetRegionInfo         = "GetRegionInfo"
	MethodGetOnlineRegion       = "GetOnlineRegion"
	MethodUpdateConfiguration   = "UpdateConfiguration"
	MethodClearRegionBlockCache = "ClearRegionBlockCache"
	MethodRollWALWriter         = "RollWALWriter"
	MethodCompactionSwitch      = "CompactionSwitch"
)

// SplitOrMerge is the switch SetSplitOrMergeRequest turns.
type SplitOrMerge int

// The master's switches of region splits and merges.
const (
	SwitchSplit SplitOrMerge = iota
	SwitchMerge
)

func (s SplitOrMerge) proto() pb.MasterSwitchType {
	if s == SwitchMerge {
		return pb.MasterSwitchType_MERGE
	}
	return pb.MasterSwitchType_SPLIT
}

// SetSplitOrMergeRequest builds the request turning the split or merge switch on or off; the
// answer comes once the splits or merges under way are over.
func SetSplitOrMergeRequest(s SplitOrMerge, on bool) *pb.SetSplitOrMergeEnabledRequest {
	return &pb.SetSplitOrMergeEnabledRequest{Enabled: &on, Synchronous: new(true), SwitchTypes: []pb.MasterSwitchType{s.proto()}}
}

// SplitOrMergeEnabledRequest builds the request asking whether the switch is on.
func SplitOrMergeEnabledRequest(s SplitOrMerge) *pb.IsSplitOrMergeEnabledRequest {
	return &pb.IsSplitOrMergeEnabledRequest{SwitchType: s.proto().Enum()}
}

// NormalizeRequest builds the request running the normalizer once on the tables named, those
// matching regex or those of namespace ("" and nil: not that filter; all empty: every table).
func NormalizeRequest(tables []string, regex, namespace string) (*pb.NormalizeRequest, error) {
	req := &pb.NormalizeRequest{}
	for _, t := range tables {
		tn, err := TableNameProto(t)
		if err != nil {
			return nil, err
		}
		req.TableNames = append(req.TableNames, tn)
	}
	if regex != "" {
		req.Regex = &regex
	}
	if namespace != "" {
		if err := CheckNamespaceName(namespace); err != nil {
			return nil, err
		}
		req.Namespace = &namespace
	}
	return req, nil
}

// OfflineRegionRequest builds the request marking a region (full name) offline in hbase:meta.
func OfflineRegionRequest(name []byte, info *pb.RegionInfo) (*pb.OfflineRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	return &pb.OfflineRegionRequest{Region: RegionSpecifier(name)}, nil
}

// TruncateRegionRequest builds the request deleting the data of the region of info.
func TruncateRegionRequest(info *pb.RegionInfo, n Nonce) (*pb.TruncateRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	return &pb.TruncateRegionRequest{RegionInfo: info, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// LastMajorCompactionRequest builds the request for the time of table's oldest last major
// compaction.
func LastMajorCompactionRequest(table string) (*pb.MajorCompactionTimestampRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.MajorCompactionTimestampRequest{TableName: tn}, nil
}

// LastMajorCompactionForRegionRequest builds the request for the time of a region's (full
// name) last major compaction.
func LastMajorCompactionForRegionRequest(name []byte) (*pb.MajorCompactionTimestampForRegionRequest, error) {
	if len(name) == 0 {
		return nil, BadRequest("empty region name")
	}
	return &pb.MajorCompactionTimestampForRegionRequest{Region: RegionSpecifier(name)}, nil
}

// DecommissionRequest builds the request decommissioning servers, moving their regions
// away when offload is set.
func DecommissionRequest(servers []*pb.ServerName, offload bool) (*pb.DecommissionRegionServersRequest, error) {
	if len(servers) == 0 {
		return nil, BadRequest("no region server to decommission")
	}
	return &pb.DecommissionRegionServersRequest{ServerName: servers, Offload: &offload}, nil
}

// RecommissionRequest builds the request letting server take regions again, moving the
// regions of these encoded names back to it.
func RecommissionRequest(server *pb.ServerName, encoded []string) (*pb.RecommissionRegionServerRequest, error) {
	req := &pb.RecommissionRegionServerRequest{ServerName: server}
	for _, e := range encoded {
		if e == "" {
			return nil, BadRequest("empty region name")
		}
		req.Region = append(req.Region, EncodedSpecifier(e))
	}
	return req, nil
}

// AbortProcedureRequest builds the request aborting master procedure id.
func AbortProcedureRequest(id uint64, mayInterrupt bool) *pb.AbortProcedureRequest {
	return &pb.AbortProcedureRequest{ProcId: &id, MayInterruptIfRunning: &mayInterrupt}
}

// RegionInfoRequest builds the request, sent to the region's server, for a region's info and
// compaction state.
func RegionInfoRequest(name []byte) (*pb.GetRegionInfoRequest, error) {
	if len(name) == 0 {
		return nil, BadRequest("empty region name")
	}
	return &pb.GetRegionInfoRequest{Region: RegionSpecifier(name), CompactionState: new(true)}, nil
}

// ClearBlockCacheRequest builds the request evicting the blocks of these regions (full names)
// from their server's block cache.
func ClearBlockCacheRequest(names [][]byte) *pb.ClearRegionBlockCacheRequest {
	req := &pb.ClearRegionBlockCacheRequest{}
	for _, n := range names {
		req.Region = append(req.Region, RegionSpecifier(n))
	}
	return req
}

// FlushFamilyRequest builds FlushRegionRequest for one family of a region (all when family
// is empty).
func FlushFamilyRequest(name []byte, family string) (*pb.FlushRegionRequest, error) {
	if len(name) == 0 {
		return nil, BadRequest("empty region name")
	}
	req := &pb.FlushRegionRequest{Region: RegionSpecifier(name)}
	if family != "" {
		if err := CheckFamilyName(family); err != nil {
			return nil, err
		}
		req.Family = []byte(family)
	}
	return req, nil
}

// CompactFamilyRequest builds CompactRegionRequest for one family of a region (all when
// family is empty).
func CompactFamilyRequest(name []byte, family string, major bool) (*pb.CompactRegionRequest, error) {
	if len(name) == 0 {
		return nil, BadRequest("empty region name")
	}
	req := &pb.CompactRegionRequest{Region: RegionSpecifier(name), Major: &major}
	if family != "" {
		if err := CheckFamilyName(family); err != nil {
			return nil, err
		}
		req.Family = []byte(family)
	}
	return req, nil
}

// RegionNameOf is the full name of the region of info, as HBase makes it
// (RegionInfo.createRegionName): "table,start,id" (and "_RRRR", the replica id in hex, for a
// secondary), then "." + the MD5 hex of that + "."; hbase:meta's first region is "hbase:meta,,1".
func RegionNameOf(info *pb.RegionInfo) []byte {
	table := TableNameString(info.GetTableName())
	id := strconv.FormatUint(info.GetRegionId(), 10)
	if table == "hbase:meta" && info.GetReplicaId() == 0 {
		return []byte("hbase:meta,," + id)
	}
	b := append([]byte(table+","), info.GetStartKey()...)
	b = append(b, ","+id...)
	if r := info.GetReplicaId(); r > 0 {
		b = fmt.Appendf(b, "_%04X", r)
	}
	sum := md5.Sum(b)
	return append(append(append(b, '.'), hex.EncodeToString(sum[:])...), '.')
}
