package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
)

// The shell's procedures group: the master's procedures and the locks they hold.

func procedureVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "list_procedures", group: "procedures", prepare: prepareListProcedures, usage: `list_procedures

Lists the master's procedures, running and recently finished: id, kind, state, when submitted
and last updated, and the procedure's parent and owner.`},
		{name: "list_locks", group: "procedures", prepare: prepareListLocks, usage: `list_locks

Lists the locks the master's procedures hold on servers, namespaces, tables, regions and
peers: the kind of lock, its owner or share count, and the procedures waiting for it.`},
		{name: "abort_procedure", group: "procedures", prepare: prepareAbortProcedure, usage: `abort_procedure proc_id
abort_procedure proc_id, true

Asks the master to abort a procedure (with true: interrupting it if it is running); prints
true if the master aborted it, false if it refused (unknown, finished, or not abortable at
its step).`},
	}
}

func noArgs(st statement) error {
	if len(st.args) > 0 {
		return fmt.Errorf("takes no arguments")
	}
	return nil
}

// procTime is the shell's Time.at(ms / 1000).to_s, in UTC.
func procTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 -0700")
}

// procOut is one procedure as list_procedures and list_locks print it.
type procOut struct {
	ID         uint64 `json:"id"`
	Name       string `json:"name"`
	State      string `json:"state"`
	Submitted  string `json:"submitted"`
	LastUpdate string `json:"last_update"`
	ParentID   uint64 `json:"parent_id,omitempty"`
	Owner      string `json:"owner,omitempty"`
	Error      string `json:"error,omitempty"`
}

func procOf(p *admin.Procedure) procOut {
	o := procOut{ID: p.ID, Name: p.Class, State: p.State, Submitted: procTime(p.Submitted),
		LastUpdate: procTime(p.LastUpdate), ParentID: p.ParentID, Owner: p.Owner}
	if p.Err != nil {
		o.Error = p.Err.Error()
	}
	return o
}

// parameters is the last column: what the library reports of a procedure's parameters.
func (p procOut) parameters() string {
	s := "owner=" + orNil(p.Owner)
	if p.ParentID != 0 {
		s += ", parent=" + strconv.FormatUint(p.ParentID, 10)
	}
	if p.Error != "" {
		s += ", error=" + p.Error
	}
	return s
}

type proceduresOut struct {
	Procedures []procOut `json:"procedures"`
}

func (r *proceduresOut) shellText(w io.Writer) (int64, error) {
	rows := make([][]string, len(r.Procedures))
	for i, p := range r.Procedures {
		rows[i] = []string{strconv.FormatUint(p.ID, 10), p.Name, p.State, p.Submitted, p.LastUpdate, p.parameters()}
	}
	err := writeTable(w, []string{"Id", "Name", "State", "Submitted_Time", "Last_Update", "Parameters"}, rows)
	return int64(len(rows)), err
}

func prepareListProcedures(st statement) (action, error) {
	if err := noArgs(st); err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		ps, err := a.Procedures(ctx)
		if err != nil {
			return nil, err
		}
		out := &proceduresOut{Procedures: []procOut{}}
		for i := range ps {
			out.Procedures = append(out.Procedures, procOf(&ps[i]))
		}
		return out, nil
	}), nil
}

type lockOut struct {
	Resource  string    `json:"resource_type"`
	Name      string    `json:"resource_name"`
	Type      string    `json:"lock_type"`
	Owner     *procOut  `json:"owner,omitempty"`
	Shared    int       `json:"shared_count,omitempty"`
	Waiting   []procOut `json:"waiting"`
	ownerText string
}

type locksOut struct {
	Locks []lockOut `json:"locks"`
}

// shellText prints each lock as the shell does: "TYPE(name)", its kind and holder, and a
// table of the procedures waiting for it.
func (r *locksOut) shellText(w io.Writer) (int64, error) {
	for _, l := range r.Locks {
		fmt.Fprintf(w, "%s(%s)\n", l.Resource, l.Name)
		if l.Type == "EXCLUSIVE" {
			fmt.Fprintf(w, "Lock type: EXCLUSIVE, procedure: %s\n", l.ownerText)
		} else {
			fmt.Fprintf(w, "Lock type: SHARED, count: %d\n", l.Shared)
		}
		if len(l.Waiting) > 0 {
			fmt.Fprintln(w, "Waiting procedures:")
			rows := make([][]string, len(l.Waiting))
			for i, p := range l.Waiting {
				rows[i] = []string{strconv.FormatUint(p.ID, 10), p.Name, p.State}
			}
			if err := writeTable(w, []string{"Id", "Name", "State"}, rows); err != nil {
				return 0, err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return 0, err
		}
	}
	return int64(len(r.Locks)), nil
}

func lockOf(l *admin.Lock) lockOut {
	o := lockOut{Resource: l.Resource, Name: l.Name, Type: "SHARED", Shared: l.Shared, Waiting: []procOut{}}
	if l.Exclusive {
		o.Type, o.Shared, o.ownerText = "EXCLUSIVE", 0, "nil"
	}
	if l.Owner != nil {
		p := procOf(l.Owner)
		o.Owner = &p
		o.ownerText = fmt.Sprintf("%d (%s, %s)", p.ID, p.Name, p.State)
	}
	for i := range l.Waiting {
		o.Waiting = append(o.Waiting, procOf(&l.Waiting[i]))
	}
	return o
}

func prepareListLocks(st statement) (action, error) {
	if err := noArgs(st); err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		ls, err := a.Locks(ctx)
		if err != nil {
			return nil, err
		}
		out := &locksOut{Locks: []lockOut{}}
		for i := range ls {
			out.Locks = append(out.Locks, lockOf(&ls[i]))
		}
		return out, nil
	}), nil
}

func prepareAbortProcedure(st statement) (action, error) {
	const form = "abort_procedure proc_id or abort_procedure proc_id, may_interrupt_if_running"
	if err := wantArgs(st.args, 1, 2, form); err != nil {
		return nil, err
	}
	id, err := intVal(st.args[0], "proc_id")
	if err != nil {
		return nil, err
	}
	if id <= 0 {
		return nil, fmt.Errorf("proc_id: want a procedure id (1 or more), got %d", id)
	}
	interrupt := true // the shell's default
	if len(st.args) == 2 {
		if interrupt, err = boolVal(st.args[1], "may_interrupt_if_running"); err != nil {
			return nil, err
		}
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		err := a.AbortProcedure(ctx, uint64(id), interrupt)
		if errors.Is(err, hberr.ErrAbortRefused) {
			return &boolResult{Value: false}, nil
		}
		if err != nil {
			return nil, err
		}
		return &boolResult{Value: true}, nil
	}), nil
}
