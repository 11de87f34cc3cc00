package fakehbase

import (
	"fmt"
	"slices"
	"strings"
)

// Op is an operation a fault matches and the call log records: a call of the client API, a
// region server's admin call, or a master call, named as HBase's RPC names it. The set is
// closed: InjectError, InjectDelay and Calls refuse any other value, so that a misspelt
// operation ("Gett") cannot make a fault that never fires.
type Op string

// The client's data calls. The actions of a batch (Client.SendBatch) are recorded and
// matched one by one, as Get, Put...; a scan once per RPC (open, next, close).
const (
	OpGet            Op = "Get"
	OpPut            Op = "Put"
	OpDelete         Op = "Delete"
	OpAppend         Op = "Append"
	OpIncrement      Op = "Increment"
	OpCheckAndMutate Op = "CheckAndMutate"
	OpMutateRow      Op = "MutateRow"
	OpScan           Op = "Scan"
	// OpExecService is a call of a coprocessor endpoint on a region (package coprocessor),
	// which the fake answers with ErrNotSupported once its faults are applied.
	OpExecService Op = "ExecService"
)

// The region servers' admin calls, and the connection registry's lookup of hbase:meta (a
// call on hbase:meta, see Match.Meta).
const (
	OpFlushRegion            Op = "FlushRegion"
	OpCompactRegion          Op = "CompactRegion"
	OpGetMetaRegionLocations Op = "GetMetaRegionLocations"
)

// The master's calls.
const (
	OpIsMasterRunning          Op = "IsMasterRunning"
	OpCreateTable              Op = "CreateTable"
	OpDeleteTable              Op = "DeleteTable"
	OpEnableTable              Op = "EnableTable"
	OpDisableTable             Op = "DisableTable"
	OpTruncateTable            Op = "TruncateTable"
	OpModifyTable              Op = "ModifyTable"
	OpAddColumn                Op = "AddColumn"
	OpModifyColumn             Op = "ModifyColumn"
	OpDeleteColumn             Op = "DeleteColumn"
	OpGetTableState            Op = "GetTableState"
	OpGetTableDescriptors      Op = "GetTableDescriptors"
	OpGetTableNames            Op = "GetTableNames"
	OpCreateNamespace          Op = "CreateNamespace"
	OpDeleteNamespace          Op = "DeleteNamespace"
	OpModifyNamespace          Op = "ModifyNamespace"
	OpGetNamespaceDescriptor   Op = "GetNamespaceDescriptor"
	OpListNamespaceDescriptors Op = "ListNamespaceDescriptors"
	// OpGetProcedureResult is the poll of a table or namespace change's outcome.
	OpGetProcedureResult Op = "getProcedureResult"
)

// ops is the closed set of operations. It is read only.
var ops = map[Op]bool{
	OpGet: true, OpPut: true, OpDelete: true, OpAppend: true, OpIncrement: true,
	OpCheckAndMutate: true, OpMutateRow: true, OpScan: true, OpExecService: true,
	OpFlushRegion: true, OpCompactRegion: true, OpGetMetaRegionLocations: true,
	OpIsMasterRunning: true, OpCreateTable: true, OpDeleteTable: true, OpEnableTable: true,
	OpDisableTable: true, OpTruncateTable: true, OpModifyTable: true, OpAddColumn: true,
	OpModifyColumn: true, OpDeleteColumn: true, OpGetTableState: true, OpGetTableDescriptors: true,
	OpGetTableNames: true, OpCreateNamespace: true, OpDeleteNamespace: true, OpModifyNamespace: true,
	OpGetNamespaceDescriptor: true, OpListNamespaceDescriptors: true, OpGetProcedureResult: true,
}

// check refuses an operation outside the set, naming the one meant when only the case
// differs or the name starts with it ("Gett").
func (o Op) check() error {
	if o == "" || ops[o] {
		return nil
	}
	var near Op
	for known := range ops {
		k, u := strings.ToLower(string(known)), strings.ToLower(string(o))
		if k == u || strings.HasPrefix(u, k) && len(known) > len(near) {
			near = known
		}
		if k == u {
			break
		}
	}
	if near != "" {
		return fmt.Errorf("unknown operation %q: did you mean %q (fakehbase.Op%s)?", string(o), string(near), upperFirst(string(near)))
	}
	var all []string
	for known := range ops {
		all = append(all, string(known))
	}
	slices.Sort(all)
	return fmt.Errorf("unknown operation %q: want one of %s", string(o), strings.Join(all, ", "))
}

func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
