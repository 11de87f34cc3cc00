package hrpc

import (
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

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

// Snapshot describes a completed snapshot.
type Snapshot struct {
	Name    string
	Table   string
	Created time.Time
	Owner   string
	// Type is FLUSH (the memstores were flushed first), SKIPFLUSH or DISABLED (taken of a
	// disabled table).
	Type string
	TTL  time.Duration // 0: kept until deleted
}

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

// ParseSnapshots reads the completed snapshots.
func ParseSnapshots(resp *pb.GetCompletedSnapshotsResponse) []Snapshot {
	var out []Snapshot
	for _, d := range resp.GetSnapshots() {
		s := Snapshot{Name: d.GetName(), Table: d.GetTable(), Owner: d.GetOwner(), Type: d.GetType().String()}
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
