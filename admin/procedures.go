package admin

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Procedure is a master procedure as the master lists it (what the Java Admin's
// getProcedures gives as JSON): running ones and those finished recently (kept for
// hbase.procedure.cleaner.evict.ttl, 15 minutes by default).
type Procedure struct {
	ID uint64
	// Class is the procedure's Java class, its kind: "...procedure.CreateTableProcedure".
	Class    string
	ParentID uint64 // 0 for a root procedure
	// State is HBase's ProcedureState: INITIALIZING, RUNNABLE, WAITING, WAITING_TIMEOUT,
	// ROLLEDBACK, SUCCESS or FAILED.
	State      string
	Owner      string
	Submitted  time.Time
	LastUpdate time.Time
	// Err is the exception of a failed procedure, nil otherwise.
	Err error
	// Locked, Bypass and Executed are the procedure's flags: it holds its lock, it was
	// bypassed (hbck), it has run.
	Locked, Bypass, Executed bool
}

// Finished reports whether the procedure is over (SUCCESS, FAILED or ROLLEDBACK).
func (p *Procedure) Finished() bool {
	return p.State == "SUCCESS" || p.State == "FAILED" || p.State == "ROLLEDBACK"
}

func procedureOf(p *pb.Procedure) Procedure {
	out := Procedure{
		ID: p.GetProcId(), Class: p.GetClassName(), ParentID: p.GetParentId(), State: p.GetState().String(),
		Owner: p.GetOwner(), Submitted: millisTime(int64(p.GetSubmittedTime())), LastUpdate: millisTime(int64(p.GetLastUpdate())),
		Locked: p.GetLocked(), Bypass: p.GetBypass(), Executed: p.GetExecuted(),
	}
	if ex := p.GetException(); ex != nil {
		g := ex.GetGenericException()
		class := g.GetClassName()
		if class == "" {
			class = "org.apache.hadoop.hbase.procedure2.RemoteProcedureException"
		}
		out.Err = hberr.NewRemoteError(class, g.GetMessage(), true)
	}
	return out
}

// Procedures lists the master's procedures: those running and those finished recently.
func (a *Admin) Procedures(ctx context.Context) ([]Procedure, error) {
	ctx, call := a.begin(ctx, "Procedures", "", "")
	resp := &pb.GetProceduresResponse{}
	if err := a.callMaster(ctx, wire.MethodGetProcedures, &pb.GetProceduresRequest{}, resp); err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]Procedure, 0, len(resp.GetProcedure()))
	for _, p := range resp.GetProcedure() {
		out = append(out, procedureOf(p))
	}
	return out, call.end(ctx, nil)
}

// Lock is a lock of the master's procedure scheduler on a resource, as GetLocks lists it.
type Lock struct {
	// Resource is the kind of what is locked: SERVER, NAMESPACE, TABLE, REGION or PEER; Name
	// names it (a table "ns:t", a region's encoded name...).
	Resource, Name string
	// Exclusive tells an exclusive lock, held by Owner, from a shared one, held by Shared
	// procedures.
	Exclusive bool
	Owner     *Procedure
	Shared    int
	// Waiting are the procedures waiting for the lock.
	Waiting []Procedure
}

// Locks lists the locks the master's procedures hold or wait for.
func (a *Admin) Locks(ctx context.Context) ([]Lock, error) {
	ctx, call := a.begin(ctx, "Locks", "", "")
	resp := &pb.GetLocksResponse{}
	if err := a.callMaster(ctx, wire.MethodGetLocks, &pb.GetLocksRequest{}, resp); err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]Lock, 0, len(resp.GetLock()))
	for _, l := range resp.GetLock() {
		lk := Lock{Resource: l.GetResourceType().String(), Name: l.GetResourceName(),
			Exclusive: l.GetLockType() == pb.LockType_EXCLUSIVE, Shared: int(l.GetSharedLockCount())}
		if o := l.GetExclusiveLockOwnerProcedure(); o != nil {
			p := procedureOf(o)
			lk.Owner = &p
		}
		for _, w := range l.GetWaitingProcedures() {
			lk.Waiting = append(lk.Waiting, procedureOf(w))
		}
		out = append(out, lk)
	}
	return out, call.end(ctx, nil)
}

// AbortProcedure asks the master to abort procedure id, interrupting it if it is running
// when mayInterrupt is set. The master refuses a procedure it does not know, one that has
// finished, and one whose kind cannot be aborted at its step: hberr.ErrAbortRefused.
func (a *Admin) AbortProcedure(ctx context.Context, id uint64, mayInterrupt bool) error {
	ctx, call := a.begin(ctx, "AbortProcedure", strconv.FormatUint(id, 10), "")
	resp := &pb.AbortProcedureResponse{}
	err := a.callMaster(ctx, wire.MethodAbortProcedure, wire.AbortProcedureRequest(id, mayInterrupt), resp)
	if err == nil && !resp.GetIsProcedureAborted() {
		err = fmt.Errorf("%w: the master did not abort procedure %d (unknown, finished, or not abortable now)", hberr.ErrAbortRefused, id)
	}
	return call.end(ctx, err)
}
