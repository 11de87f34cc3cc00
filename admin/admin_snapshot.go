package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Snapshot takes snapshot name of table (flushing its memstores first, unless SkipFlush) and
// waits until it is complete; opts set its TTL and owner. A name already taken gives
// hberr.ErrSnapshotExists; a table that does not exist gives hberr.ErrTableNotFound.
func (a *Admin) Snapshot(ctx context.Context, name, table string, opts ...SnapshotOption) error {
	ctx, call := a.begin(ctx, "Snapshot", name, table)
	req, err := wire.SnapshotRequest(name, table, a.nonce())
	for _, o := range opts {
		if err != nil {
			break
		}
		if o == nil {
			err = wire.BadRequest("nil SnapshotOption")
		} else {
			err = o(req.Snapshot)
		}
	}
	resp := &pb.SnapshotResponse{}
	if err == nil {
		err = a.callMaster(ctx, wire.MethodSnapshot, req, resp)
		err = a.snapshotOfMissingTable(ctx, table, err)
	}
	if err == nil {
		if resp.ProcId != nil {
			// HBase 2.6 takes snapshots in a master procedure.
			err = a.waitProcedure(ctx, uint64(resp.GetProcId()), a.snapshotDone(name, table))
		} else {
			err = a.waitSnapshot(ctx, name, table)
		}
	}
	return call.end(ctx, err)
}

// snapshotOfMissingTable tells a missing table from the other reasons the master refuses a
// snapshot: it says both with a SnapshotCreationException ("Table 'x' doesn't exist, can't take
// snapshot"), whose message is no contract, so the table's existence is asked (only after such
// a refusal). err is returned unchanged otherwise.
func (a *Admin) snapshotOfMissingTable(ctx context.Context, table string, err error) error {
	re, ok := errors.AsType[*hberr.RemoteError](err)
	if !ok || !strings.HasSuffix(re.Class, ".SnapshotCreationException") {
		return err
	}
	if exists, xerr := a.tableExists(ctx, table); xerr == nil && !exists {
		return fmt.Errorf("%w: %w", hberr.ErrTableNotFound, err)
	}
	return err
}

// waitSnapshot polls IsSnapshotDone; a failed snapshot is the poll's exception.
func (a *Admin) waitSnapshot(ctx context.Context, name, table string) error {
	req, err := wire.SnapshotDoneRequest(name, table)
	if err != nil {
		return err
	}
	b := engine.Backoff{Min: procedurePollMin, Max: procedurePollMax}
	for {
		resp := &pb.IsSnapshotDoneResponse{}
		if err := a.callMaster(ctx, wire.MethodIsSnapshotDone, req, resp); err != nil {
			return err
		}
		if resp.GetDone() {
			return nil
		}
		if err := b.Sleep(ctx); err != nil {
			return engine.CtxErr(ctx, fmt.Errorf("snapshot %q still being taken", name))
		}
	}
}

// snapshotDone is the check of a finished-and-forgotten snapshot procedure.
func (a *Admin) snapshotDone(name, table string) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		req, err := wire.SnapshotDoneRequest(name, table)
		if err != nil {
			return false, err
		}
		resp := &pb.IsSnapshotDoneResponse{}
		if err := a.callMaster(ctx, wire.MethodIsSnapshotDone, req, resp); err != nil {
			return false, err
		}
		return resp.GetDone(), nil
	}
}

// ListSnapshots returns every completed snapshot.
func (a *Admin) ListSnapshots(ctx context.Context) ([]hrpc.Snapshot, error) {
	ctx, call := a.begin(ctx, "ListSnapshots", "", "")
	snaps, err := a.listSnapshots(ctx)
	return snaps, call.end(ctx, err)
}

func (a *Admin) listSnapshots(ctx context.Context) ([]hrpc.Snapshot, error) {
	resp := &pb.GetCompletedSnapshotsResponse{}
	if err := a.callMaster(ctx, wire.MethodGetCompletedSnapshots, wire.ListSnapshotsRequest(), resp); err != nil {
		return nil, err
	}
	return hrpcwire.ParseSnapshots(resp), nil
}

// DeleteSnapshot deletes snapshot name (hberr.ErrSnapshotNotFound when there is none).
func (a *Admin) DeleteSnapshot(ctx context.Context, name string) error {
	ctx, call := a.begin(ctx, "DeleteSnapshot", name, "")
	req, err := wire.DeleteSnapshotRequest(name)
	if err == nil {
		err = a.callMaster(ctx, wire.MethodDeleteSnapshot, req, &pb.DeleteSnapshotResponse{})
	}
	return call.end(ctx, err)
}

// RestoreSnapshot puts the table snapshot name was taken of back as it was then. The table
// must be disabled (hberr.ErrTableNotDisabled); it stays disabled.
func (a *Admin) RestoreSnapshot(ctx context.Context, name string) error {
	ctx, call := a.begin(ctx, "RestoreSnapshot", name, "")
	return call.end(ctx, a.restoreSnapshot(ctx, name))
}

func (a *Admin) restoreSnapshot(ctx context.Context, name string) error {
	snaps, err := a.listSnapshots(ctx)
	if err != nil {
		return err
	}
	table := ""
	for _, s := range snaps {
		if s.Name == name {
			table = s.Table
		}
	}
	if table == "" {
		return hberr.ErrSnapshotNotFound
	}
	// The master refuses an enabled table with a plain IOException: check first, as the Java
	// client does, to give the typed error.
	st, err := a.tableState(ctx, table)
	if err != nil {
		return err
	}
	if st != pb.TableState_DISABLED {
		return fmt.Errorf("%w: %s must be disabled to be restored", hberr.ErrTableNotDisabled, table)
	}
	req, err := wire.RestoreSnapshotRequest(name, table, a.nonce())
	if err != nil {
		return err
	}
	return a.procedure(ctx, wire.MethodRestoreSnapshot, req, &pb.RestoreSnapshotResponse{}, nil)
}

// CloneSnapshot creates table from snapshot name: a new table with the snapshot's
// descriptor and data (hberr.ErrTableExists when table exists). It waits until the table is
// enabled.
func (a *Admin) CloneSnapshot(ctx context.Context, name, table string) error {
	ctx, call := a.begin(ctx, "CloneSnapshot", name, table)
	return call.end(ctx, a.cloneSnapshot(ctx, name, table))
}

func (a *Admin) cloneSnapshot(ctx context.Context, name, table string) error {
	req, err := wire.RestoreSnapshotRequest(name, table, a.nonce())
	if err != nil {
		return err
	}
	// The master restores over an existing table instead of cloning: refuse, as the Java
	// client does, rather than overwrite a table the caller meant to keep.
	if _, err := a.tableState(ctx, table); err == nil {
		return fmt.Errorf("%w: %s", hberr.ErrTableExists, table)
	} else if !hberr.IsNotFound(err) {
		return err
	}
	return a.procedure(ctx, wire.MethodRestoreSnapshot, req, &pb.RestoreSnapshotResponse{}, a.stateIs(table, pb.TableState_ENABLED))
}
