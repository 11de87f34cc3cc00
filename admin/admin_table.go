package admin

import (
	"context"
	"errors"
	"slices"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// CreateTable creates the table t describes and waits until its regions are assigned. opts
// pre-split it (hrpc.SplitKeys, hrpc.UniformSplits, hrpc.HexStringSplits). A table of that
// name already there gives hberr.ErrTableExists.
func (a *Admin) CreateTable(ctx context.Context, t *hrpc.TableDescriptor, opts ...hrpc.CreateTableOption) error {
	var name string
	if t != nil {
		name = t.Name
	}
	ctx, call := a.begin(ctx, "CreateTable", name, name)
	req, err := hrpcwire.CreateTableRequest(t, a.nonce(), opts...)
	if err == nil {
		err = a.procedure(ctx, wire.MethodCreateTable, req, &pb.CreateTableResponse{}, a.stateIs(name, pb.TableState_ENABLED))
	}
	return call.end(ctx, err)
}

// DeleteTable deletes a disabled table and its data (hberr.ErrTableNotDisabled when it is
// enabled).
func (a *Admin) DeleteTable(ctx context.Context, table string) error {
	ctx, call := a.begin(ctx, "DeleteTable", table, table)
	req, err := wire.DeleteTableRequest(table, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodDeleteTable, req, &pb.DeleteTableResponse{}, a.gone(table))
	}
	return call.end(ctx, err)
}

// EnableTable enables a disabled table and waits until its regions are assigned.
func (a *Admin) EnableTable(ctx context.Context, table string) error {
	ctx, call := a.begin(ctx, "EnableTable", table, table)
	req, err := wire.EnableTableRequest(table, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodEnableTable, req, &pb.EnableTableResponse{}, a.stateIs(table, pb.TableState_ENABLED))
	}
	return call.end(ctx, err)
}

// DisableTable disables a table and waits until its regions are closed.
func (a *Admin) DisableTable(ctx context.Context, table string) error {
	ctx, call := a.begin(ctx, "DisableTable", table, table)
	req, err := wire.DisableTableRequest(table, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodDisableTable, req, &pb.DisableTableResponse{}, a.stateIs(table, pb.TableState_DISABLED))
	}
	return call.end(ctx, err)
}

// TruncateTable deletes every row of a disabled table, keeping its region boundaries when
// preserveSplits is set (one region otherwise). The table is enabled afterwards.
func (a *Admin) TruncateTable(ctx context.Context, table string, preserveSplits bool) error {
	ctx, call := a.begin(ctx, "TruncateTable", table, table)
	req, err := wire.TruncateTableRequest(table, preserveSplits, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodTruncateTable, req, &pb.TruncateTableResponse{}, a.stateIs(table, pb.TableState_ENABLED))
	}
	return call.end(ctx, err)
}

// ModifyTable replaces the descriptor of table t.Name with t (families added, changed or
// removed, attributes) and waits until the table's regions have reopened with it. Read the
// current one with DescribeTable, change it, and pass it here.
func (a *Admin) ModifyTable(ctx context.Context, t *hrpc.TableDescriptor) error {
	var name string
	if t != nil {
		name = t.Name
	}
	ctx, call := a.begin(ctx, "ModifyTable", name, name)
	req, err := hrpcwire.ModifyTableRequest(t, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodModifyTable, req, &pb.ModifyTableResponse{}, nil)
	}
	return call.end(ctx, err)
}

// AddFamily adds column family f to table.
func (a *Admin) AddFamily(ctx context.Context, table string, f *hrpc.FamilyDescriptor) error {
	ctx, call := a.begin(ctx, "AddFamily", table, table)
	req, err := hrpcwire.AddColumnRequest(table, f, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodAddColumn, req, &pb.AddColumnResponse{}, nil)
	}
	return call.end(ctx, err)
}

// ModifyFamily replaces the descriptor of column family f.Name of table with f.
func (a *Admin) ModifyFamily(ctx context.Context, table string, f *hrpc.FamilyDescriptor) error {
	ctx, call := a.begin(ctx, "ModifyFamily", table, table)
	req, err := hrpcwire.ModifyColumnRequest(table, f, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodModifyColumn, req, &pb.ModifyColumnResponse{}, nil)
	}
	return call.end(ctx, err)
}

// DeleteFamily removes column family family, and its data, from table.
func (a *Admin) DeleteFamily(ctx context.Context, table, family string) error {
	ctx, call := a.begin(ctx, "DeleteFamily", table, table)
	req, err := wire.DeleteColumnRequest(table, family, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodDeleteColumn, req, &pb.DeleteColumnResponse{}, nil)
	}
	return call.end(ctx, err)
}

// TableExists reports whether table exists.
func (a *Admin) TableExists(ctx context.Context, table string) (bool, error) {
	ctx, call := a.begin(ctx, "TableExists", table, table)
	ok, err := a.tableExists(ctx, table)
	return ok, call.end(ctx, err)
}

func (a *Admin) tableExists(ctx context.Context, table string) (bool, error) {
	_, err := a.tableState(ctx, table)
	if errors.Is(err, hberr.ErrTableNotFound) {
		return false, nil
	}
	return err == nil, err
}

// TableEnabled reports whether table is enabled (false while it is being enabled or
// disabled, or disabled); hberr.ErrTableNotFound when it does not exist.
func (a *Admin) TableEnabled(ctx context.Context, table string) (bool, error) {
	ctx, call := a.begin(ctx, "TableEnabled", table, table)
	st, err := a.tableState(ctx, table)
	return err == nil && st == pb.TableState_ENABLED, call.end(ctx, err)
}

func (a *Admin) tableState(ctx context.Context, table string) (pb.TableState_State, error) {
	req, err := wire.TableStateRequest(table)
	if err != nil {
		return 0, err
	}
	resp := &pb.GetTableStateResponse{}
	if err := a.callMaster(ctx, wire.MethodGetTableState, req, resp); err != nil {
		return 0, err
	}
	return resp.GetTableState().GetState(), nil
}

// stateIs is the check of a finished-and-forgotten procedure that leaves table in state st.
func (a *Admin) stateIs(table string, st pb.TableState_State) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		got, err := a.tableState(ctx, table)
		if errors.Is(err, hberr.ErrTableNotFound) {
			return false, nil
		}
		return got == st, err
	}
}

// gone is the check of a finished-and-forgotten procedure that deletes table.
func (a *Admin) gone(table string) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		_, err := a.tableState(ctx, table)
		if errors.Is(err, hberr.ErrTableNotFound) {
			return true, nil
		}
		return false, err
	}
}

// DescribeTable returns the descriptor of table: every family with all its attributes.
func (a *Admin) DescribeTable(ctx context.Context, table string) (*hrpc.TableDescriptor, error) {
	ctx, call := a.begin(ctx, "DescribeTable", table, table)
	t, err := a.describeTable(ctx, table)
	return t, call.end(ctx, err)
}

func (a *Admin) describeTable(ctx context.Context, table string) (*hrpc.TableDescriptor, error) {
	req, err := wire.DescribeTableRequest(table)
	if err != nil {
		return nil, err
	}
	resp := &pb.GetTableDescriptorsResponse{}
	if err := a.callMaster(ctx, wire.MethodGetTableDescriptors, req, resp); err != nil {
		return nil, err
	}
	if len(resp.GetTableSchema()) == 0 {
		return nil, hberr.ErrTableNotFound
	}
	return hrpcwire.Table(resp.GetTableSchema()[0]), nil
}

// ListTables returns the names of the tables opts select (hrpc.TableRegex, hrpc.InNamespace,
// hrpc.IncludeSystemTables), "ns:qualifier" or "qualifier" for the default namespace, sorted.
func (a *Admin) ListTables(ctx context.Context, opts ...hrpc.ListTablesOption) ([]string, error) {
	ctx, call := a.begin(ctx, "ListTables", "", "")
	names, err := a.listTables(ctx, opts)
	return names, call.end(ctx, err)
}

func (a *Admin) listTables(ctx context.Context, opts []hrpc.ListTablesOption) ([]string, error) {
	req, err := hrpcwire.ListTablesRequest(opts)
	if err != nil {
		return nil, err
	}
	resp := &pb.GetTableNamesResponse{}
	if err := a.callMaster(ctx, wire.MethodGetTableNames, req, resp); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(resp.GetTableNames()))
	for _, tn := range resp.GetTableNames() {
		out = append(out, wire.TableNameString(tn))
	}
	slices.Sort(out)
	return out, nil
}
