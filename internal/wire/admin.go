package wire

import (
	"bytes"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// The admin requests to the master (MasterService) and the region servers (AdminService). The
// package admin sends them; each builder checks its input first. Those of descriptors
// and regions take the protobuf hrpc converts them to (hrpcwire.TableSchema, RegionInfo...).

// MasterService is the service name of the master's admin interface in the connection header.
const MasterService = "MasterService"

// AdminService is the service name of a region server's admin interface.
const AdminService = "AdminService"

// Methods of MasterService the admin calls use (a few of HBase's start in lower case).
const (
	MethodCreateTable            = "CreateTable"
	MethodDeleteTable            = "DeleteTable"
	MethodEnableTable            = "EnableTable"
	MethodDisableTable           = "DisableTable"
	MethodTruncateTable          = "truncateTable"
	MethodModifyTable            = "ModifyTable"
	MethodAddColumn              = "AddColumn"
	MethodModifyColumn           = "ModifyColumn"
	MethodDeleteColumn           = "DeleteColumn"
	MethodGetTableState          = "GetTableState"
	MethodGetTableDescriptors    = "GetTableDescriptors"
	MethodGetTableNames          = "GetTableNames"
	MethodCreateNamespace        = "CreateNamespace"
	MethodModifyNamespace        = "ModifyNamespace"
	MethodDeleteNamespace        = "DeleteNamespace"
	MethodGetNamespaceDescriptor = "GetNamespaceDescriptor"
	MethodListNamespaceDescs     = "ListNamespaceDescriptors"
	MethodGetClusterStatus       = "GetClusterStatus"
	MethodSplitRegion            = "SplitRegion"
	MethodMergeTableRegions      = "MergeTableRegions"
	MethodMoveRegion             = "MoveRegion"
	MethodAssignRegion           = "AssignRegion"
	MethodUnassignRegion         = "UnassignRegion"
	MethodBalance                = "Balance"
	MethodSetBalancerRunning     = "SetBalancerRunning"
	MethodIsBalancerEnabled      = "IsBalancerEnabled"
	MethodSetNormalizerRunning   = "SetNormalizerRunning"
	MethodIsNormalizerEnabled    = "IsNormalizerEnabled"
	MethodSnapshot               = "Snapshot"
	MethodIsSnapshotDone         = "IsSnapshotDone"
	MethodGetCompletedSnapshots  = "GetCompletedSnapshots"
	MethodDeleteSnapshot         = "DeleteSnapshot"
	MethodRestoreSnapshot        = "RestoreSnapshot"
	MethodGetProcedureResult     = "getProcedureResult"
	MethodIsMasterRunning        = "IsMasterRunning"

	// AdminService (region servers).
	MethodFlushRegion   = "FlushRegion"
	MethodCompactRegion = "CompactRegion"
)

// Nonce identifies one admin call to the master so that sending it again (after a master
// restart) does not run it twice: the master remembers the procedure of each nonce.
type Nonce struct{ Group, Nonce uint64 }

// ProcedureResultRequest builds the request for the state of master procedure id.
func ProcedureResultRequest(id uint64) *pb.GetProcedureResultRequest {
	return &pb.GetProcedureResultRequest{ProcId: &id}
}

// ProcedureState is where a master procedure is.
type ProcedureState int

// Procedure states.
const (
	// ProcedureNotFound: the master does not know the procedure (never submitted, or
	// finished and forgotten, for example across a master restart).
	ProcedureNotFound ProcedureState = iota
	ProcedureRunning
	ProcedureFinished
)

// ParseProcedureResult reads the state of a procedure, and for a finished procedure that
// failed, its exception as a *hberr.RemoteError (classified like an RPC's exception, so
// errors.Is(err, hberr.ErrTableExists) works).
func ParseProcedureResult(resp *pb.GetProcedureResultResponse) (ProcedureState, error) {
	switch resp.GetState() {
	case pb.GetProcedureResultResponse_RUNNING:
		return ProcedureRunning, nil
	case pb.GetProcedureResultResponse_FINISHED:
		if ex := resp.GetException(); ex != nil {
			g := ex.GetGenericException()
			class := g.GetClassName()
			if class == "" {
				class = "org.apache.hadoop.hbase.procedure2.RemoteProcedureException"
			}
			return ProcedureFinished, hberr.NewRemoteError(class, g.GetMessage(), true)
		}
		return ProcedureFinished, nil
	}
	return ProcedureNotFound, nil
}

// BalanceRequest builds the request running the balancer once.
func BalanceRequest() *pb.BalanceRequest { return &pb.BalanceRequest{} }

// SetBalancerRequest builds the request switching the balancer on or off; the answer comes
// once a running balance is over.
func SetBalancerRequest(on bool) *pb.SetBalancerRunningRequest {
	return &pb.SetBalancerRunningRequest{On: &on, Synchronous: new(true)}
}

// BalancerEnabledRequest builds the request asking whether the balancer is on.
func BalancerEnabledRequest() *pb.IsBalancerEnabledRequest { return &pb.IsBalancerEnabledRequest{} }

// SetNormalizerRequest builds the request switching the region normalizer on or off.
func SetNormalizerRequest(on bool) *pb.SetNormalizerRunningRequest {
	return &pb.SetNormalizerRunningRequest{On: &on}
}

// NormalizerEnabledRequest builds the request asking whether the normalizer is on.
func NormalizerEnabledRequest() *pb.IsNormalizerEnabledRequest {
	return &pb.IsNormalizerEnabledRequest{}
}

// MasterRunningRequest builds the cheapest request to a master.
func MasterRunningRequest() *pb.IsMasterRunningRequest { return &pb.IsMasterRunningRequest{} }

// ClusterStatusRequest builds the request for the whole cluster status.
func ClusterStatusRequest() *pb.GetClusterStatusRequest {
	return &pb.GetClusterStatusRequest{}
}

// Tables.

// CreateTableRequest builds the request creating the table of schema s, pre-split at splits.
func CreateTableRequest(s *pb.TableSchema, splits [][]byte, n Nonce) *pb.CreateTableRequest {
	return &pb.CreateTableRequest{TableSchema: s, SplitKeys: splits, NonceGroup: &n.Group, Nonce: &n.Nonce}
}

// ModifyTableRequest builds the request replacing the descriptor of the table of s by s.
func ModifyTableRequest(s *pb.TableSchema, n Nonce) *pb.ModifyTableRequest {
	return &pb.ModifyTableRequest{TableName: s.TableName, TableSchema: s, NonceGroup: &n.Group, Nonce: &n.Nonce}
}

// DeleteTableRequest builds the request deleting a disabled table.
func DeleteTableRequest(table string, n Nonce) (*pb.DeleteTableRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.DeleteTableRequest{TableName: tn, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// EnableTableRequest builds the request enabling a table.
func EnableTableRequest(table string, n Nonce) (*pb.EnableTableRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.EnableTableRequest{TableName: tn, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DisableTableRequest builds the request disabling a table.
func DisableTableRequest(table string, n Nonce) (*pb.DisableTableRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.DisableTableRequest{TableName: tn, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// TruncateTableRequest builds the request emptying a disabled table, keeping its region
// boundaries when preserveSplits is set.
func TruncateTableRequest(table string, preserveSplits bool, n Nonce) (*pb.TruncateTableRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.TruncateTableRequest{TableName: tn, PreserveSplits: &preserveSplits, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// AddColumnRequest builds the request adding the family of schema f to table.
func AddColumnRequest(table string, f *pb.ColumnFamilySchema, n Nonce) (*pb.AddColumnRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.AddColumnRequest{TableName: tn, ColumnFamilies: f, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// ModifyColumnRequest builds the request replacing the descriptor of the family of f in table.
func ModifyColumnRequest(table string, f *pb.ColumnFamilySchema, n Nonce) (*pb.ModifyColumnRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.ModifyColumnRequest{TableName: tn, ColumnFamilies: f, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DeleteColumnRequest builds the request removing family from table (and its data).
func DeleteColumnRequest(table, family string, n Nonce) (*pb.DeleteColumnRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	if err := CheckFamilyName(family); err != nil {
		return nil, err
	}
	return &pb.DeleteColumnRequest{TableName: tn, ColumnName: []byte(family), NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// TableStateRequest builds the request asking whether table is enabled.
func TableStateRequest(table string) (*pb.GetTableStateRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.GetTableStateRequest{TableName: tn}, nil
}

// DescribeTableRequest builds the request for the descriptor of table.
func DescribeTableRequest(table string) (*pb.GetTableDescriptorsRequest, error) {
	tn, err := TableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.GetTableDescriptorsRequest{TableNames: []*pb.TableName{tn}, IncludeSysTables: new(true)}, nil
}

// Namespaces.

// CreateNamespaceRequest builds the request creating the namespace of p.
func CreateNamespaceRequest(p *pb.NamespaceDescriptor, n Nonce) *pb.CreateNamespaceRequest {
	return &pb.CreateNamespaceRequest{NamespaceDescriptor: p, NonceGroup: &n.Group, Nonce: &n.Nonce}
}

// ModifyNamespaceRequest builds the request replacing the properties of the namespace of p.
func ModifyNamespaceRequest(p *pb.NamespaceDescriptor, n Nonce) *pb.ModifyNamespaceRequest {
	return &pb.ModifyNamespaceRequest{NamespaceDescriptor: p, NonceGroup: &n.Group, Nonce: &n.Nonce}
}

// DeleteNamespaceRequest builds the request deleting an empty namespace.
func DeleteNamespaceRequest(name string, n Nonce) (*pb.DeleteNamespaceRequest, error) {
	if err := CheckNamespaceName(name); err != nil {
		return nil, err
	}
	return &pb.DeleteNamespaceRequest{NamespaceName: &name, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DescribeNamespaceRequest builds the request for the descriptor of a namespace.
func DescribeNamespaceRequest(name string) (*pb.GetNamespaceDescriptorRequest, error) {
	if err := CheckNamespaceName(name); err != nil {
		return nil, err
	}
	return &pb.GetNamespaceDescriptorRequest{NamespaceName: &name}, nil
}

// ListNamespacesRequest builds the request for every namespace's descriptor.
func ListNamespacesRequest() *pb.ListNamespaceDescriptorsRequest {
	return &pb.ListNamespaceDescriptorsRequest{}
}

// Regions. name is a region's full name, info its RegionInfo as read from hbase:meta
// (hrpcwire.RegionInfo).

func checkRegion(info *pb.RegionInfo) error {
	if info == nil {
		return BadRequest("region not read from hbase:meta")
	}
	return nil
}

// SplitRegionRequest builds the request splitting the region of info at key (nil: the server
// picks the midpoint). The key must fall strictly inside the region.
func SplitRegionRequest(name []byte, info *pb.RegionInfo, key []byte, n Nonce) (*pb.SplitTableRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	start, end := info.GetStartKey(), info.GetEndKey()
	inside := bytes.Compare(start, key) < 0 && (len(end) == 0 || bytes.Compare(key, end) < 0)
	if key != nil && !inside {
		return nil, BadRequest("split key %q is not inside region %s [%q, %q)", key, EncodedRegionName(name), start, end)
	}
	return &pb.SplitTableRegionRequest{RegionInfo: info, SplitRow: key, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// MergeRegionsRequest builds the request merging adjacent regions (encoded names); forcible
// merges regions that are not adjacent.
func MergeRegionsRequest(encoded []string, forcible bool, n Nonce) (*pb.MergeTableRegionsRequest, error) {
	if len(encoded) < 2 {
		return nil, BadRequest("merging needs at least 2 regions, got %d", len(encoded))
	}
	req := &pb.MergeTableRegionsRequest{Forcible: &forcible, NonceGroup: &n.Group, Nonce: &n.Nonce}
	for _, e := range encoded {
		if e == "" {
			return nil, BadRequest("empty region name")
		}
		req.Region = append(req.Region, EncodedSpecifier(e))
	}
	return req, nil
}

// MoveRegionRequest builds the request moving a region (encoded name) to dest, or to a server
// the master picks when dest is nil.
func MoveRegionRequest(encoded string, dest *pb.ServerName) (*pb.MoveRegionRequest, error) {
	if encoded == "" {
		return nil, BadRequest("empty region name")
	}
	return &pb.MoveRegionRequest{Region: EncodedSpecifier(encoded), DestServerName: dest}, nil
}

// AssignRegionRequest builds the request assigning a region to a server.
func AssignRegionRequest(name []byte, info *pb.RegionInfo) (*pb.AssignRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	return &pb.AssignRegionRequest{Region: RegionSpecifier(name)}, nil
}

// UnassignRegionRequest builds the request closing a region (it stays closed until assigned).
func UnassignRegionRequest(name []byte, info *pb.RegionInfo) (*pb.UnassignRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	return &pb.UnassignRegionRequest{Region: RegionSpecifier(name)}, nil
}

// FlushRegionRequest builds the request, sent to the region's server (AdminService), writing
// its memstore to store files.
func FlushRegionRequest(name []byte, info *pb.RegionInfo) (*pb.FlushRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	return &pb.FlushRegionRequest{Region: RegionSpecifier(name)}, nil
}

// CompactRegionRequest builds the request, sent to the region's server, queueing a (major)
// compaction of the region; the server answers before the compaction runs.
func CompactRegionRequest(name []byte, info *pb.RegionInfo, major bool) (*pb.CompactRegionRequest, error) {
	if err := checkRegion(info); err != nil {
		return nil, err
	}
	return &pb.CompactRegionRequest{Region: RegionSpecifier(name), Major: &major}, nil
}

// Snapshots.

func snapshotDesc(name, table string) (*pb.SnapshotDescription, error) {
	if err := CheckSnapshotName(name); err != nil {
		return nil, err
	}
	d := &pb.SnapshotDescription{Name: &name}
	if table != "" {
		if err := CheckTableName(table); err != nil {
			return nil, err
		}
		d.Table = &table
	}
	return d, nil
}

// errEmptyTable is the error of a snapshot request without its table.
var errEmptyTable = BadRequest("empty table name")

// SnapshotRequest builds the request taking snapshot name of table (flushing it first).
func SnapshotRequest(name, table string, n Nonce) (*pb.SnapshotRequest, error) {
	if table == "" {
		return nil, errEmptyTable
	}
	d, err := snapshotDesc(name, table)
	if err != nil {
		return nil, err
	}
	d.Type = pb.SnapshotDescription_FLUSH.Enum()
	return &pb.SnapshotRequest{Snapshot: d, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// SnapshotDoneRequest builds the request asking whether snapshot name of table is complete.
func SnapshotDoneRequest(name, table string) (*pb.IsSnapshotDoneRequest, error) {
	d, err := snapshotDesc(name, table)
	if err != nil {
		return nil, err
	}
	d.Type = pb.SnapshotDescription_FLUSH.Enum()
	return &pb.IsSnapshotDoneRequest{Snapshot: d}, nil
}

// ListSnapshotsRequest builds the request for every completed snapshot.
func ListSnapshotsRequest() *pb.GetCompletedSnapshotsRequest {
	return &pb.GetCompletedSnapshotsRequest{}
}

// DeleteSnapshotRequest builds the request deleting snapshot name.
func DeleteSnapshotRequest(name string) (*pb.DeleteSnapshotRequest, error) {
	d, err := snapshotDesc(name, "")
	if err != nil {
		return nil, err
	}
	return &pb.DeleteSnapshotRequest{Snapshot: d}, nil
}

// RestoreSnapshotRequest builds the request writing snapshot name into table: the master
// restores table (which must be disabled) when it exists and clones the snapshot into a new
// table when it does not.
func RestoreSnapshotRequest(name, table string, n Nonce) (*pb.RestoreSnapshotRequest, error) {
	if table == "" {
		return nil, errEmptyTable
	}
	d, err := snapshotDesc(name, table)
	if err != nil {
		return nil, err
	}
	return &pb.RestoreSnapshotRequest{Snapshot: d, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}
