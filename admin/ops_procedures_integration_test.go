package admin

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// javaProcedure is a procedure of the Java Admin's getProcedures JSON (protobuf's JSON: 64-bit
// numbers as strings).
type javaProcedure struct {
	ClassName string `json:"className"`
	ProcID    string `json:"procId"`
	State     string `json:"state"`
	ParentID  string `json:"parentId"`
}

// The master's procedures as go-hbase lists them and as the Java Admin does, on the same
// cluster; aborts refused as typed errors.
func TestAdminProceduresAndLocks(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	cl := testCluster(t)
	name := adminTableName(t, "proc")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	first, err := a.Procedures(ctx)
	if err != nil {
		t.Fatal(err)
	}
	js, err := cl.JavaProcedures(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var java []javaProcedure
	if err := json.Unmarshal([]byte(js), &java); err != nil {
		t.Fatalf("the Java Admin's procedures: %v\n%s", err, js)
	}
	second, err := a.Procedures(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint64]javaProcedure{}
	for _, p := range java {
		id, err := strconv.ParseUint(p.ProcID, 10, 64)
		if err != nil {
			t.Fatalf("Java procedure %+v: %v", p, err)
		}
		byID[id] = p
	}
	// Every procedure finished before the Java listing and still listed after it is in the
	// Java listing, with the same class, state and parent.
	compared, kinds := 0, map[string]bool{}
	for _, p := range first {
		if !p.Finished() || !slices.ContainsFunc(second, func(q Procedure) bool { return q.ID == p.ID }) {
			continue
		}
		j, ok := byID[p.ID]
		parent := strconv.FormatUint(p.ParentID, 10)
		if j.ParentID == "" {
			j.ParentID = "0"
		}
		if !ok || j.ClassName != p.Class || j.State != p.State || j.ParentID != parent {
			t.Errorf("procedure %d %s %s parent %s: the Java Admin has %+v (listed: %v)", p.ID, p.Class, p.State, parent, j, ok)
		}
		compared++
		kinds[p.Class[max(0, len(p.Class)-30):]] = true
	}
	if compared < 3 {
		t.Fatalf("%d finished procedures compared; want the create's and the disable's at least", compared)
	}
	t.Logf("%d finished procedures agree with the Java Admin (%d listed by it); kinds ...%v", compared, len(java), kinds)
	var create *Procedure
	for i := range second {
		if p := &second[i]; p.Finished() && p.State == "SUCCESS" && p.Submitted.After(time.Now().Add(-time.Minute)) &&
			len(p.Class) > 20 && p.Class[len(p.Class)-20:] == "CreateTableProcedure" {
			create = p
		}
	}
	if create == nil || create.LastUpdate.Before(create.Submitted) || create.Err != nil {
		t.Fatalf("the create's procedure = %+v; want a finished CreateTableProcedure", create)
	}

	// Aborts the master refuses: a finished procedure, an unknown one.
	for _, id := range []uint64{create.ID, 1 << 60} {
		err := a.AbortProcedure(ctx, id, true)
		if !errors.Is(err, hberr.ErrAbortRefused) {
			t.Fatalf("AbortProcedure(%d): %v; want hberr.ErrAbortRefused", id, err)
		}
		t.Logf("refused abort: %v", err)
	}

	// Locks: none held at rest, as the Java Admin lists them too.
	locks, err := a.Locks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	jl, err := cl.JavaLocks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var javaLocks []json.RawMessage
	if err := json.Unmarshal([]byte(jl), &javaLocks); err != nil {
		t.Fatalf("the Java Admin's locks: %v\n%s", err, jl)
	}
	if len(locks) != len(javaLocks) {
		t.Fatalf("Locks = %+v; the Java Admin lists %s", locks, jl)
	}
	abortByEffect(t, a, ctx, name)
}

// javaLock is a lock of the Java Admin's getLocks JSON.
type javaLock struct {
	ResourceType string          `json:"resourceType"`
	ResourceName string          `json:"resourceName"`
	LockType     string          `json:"lockType"`
	Owner        *javaProcedure  `json:"exclusiveLockOwnerProcedure"`
	Waiting      []javaProcedure `json:"waitingProcedures"`
}

// An abort the master accepts, by its effect: while the master holds an exclusive lock of the
// disabled table (hbasetest's HoldTableLock; Locks lists it as the Java Admin's getLocks
// does), EnableTable's procedure waits in the table's queue; aborted, it rolls back once the
// lock is released: EnableTable fails with hberr.ErrProcedureAborted, the table still
// disabled. (The master lists only its lock service's procedures among a lock's waiters.)
func abortByEffect(t *testing.T, a *Admin, ctx context.Context, table string) {
	t.Helper()
	cl := testCluster(t)
	if err := cl.HoldTableLock(ctx, table); err != nil {
		t.Fatalf("HoldTableLock: %v", err)
	}
	held := true
	t.Cleanup(func() {
		if held {
			_ = cl.ReleaseTableLock(context.Background(), table)
		}
	})
	locks, err := a.Locks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(locks, func(l Lock) bool { return l.Resource == "TABLE" && strings.HasSuffix(l.Name, table) })
	if i < 0 || !locks[i].Exclusive || locks[i].Owner == nil || !strings.HasSuffix(locks[i].Owner.Class, ".LockProcedure") {
		t.Fatalf("Locks = %+v; want %s's exclusive lock held by a LockProcedure", locks, table)
	}
	lock := locks[i]
	jl, err := cl.JavaLocks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var javaLocks []javaLock
	if err := json.Unmarshal([]byte(jl), &javaLocks); err != nil {
		t.Fatalf("the Java Admin's locks: %v\n%s", err, jl)
	}
	k := slices.IndexFunc(javaLocks, func(j javaLock) bool { return j.ResourceType == "TABLE" && j.ResourceName == lock.Name })
	if k < 0 || javaLocks[k].LockType != "EXCLUSIVE" || javaLocks[k].Owner == nil ||
		javaLocks[k].Owner.ProcID != strconv.FormatUint(lock.Owner.ID, 10) || javaLocks[k].Owner.ClassName != lock.Owner.Class ||
		len(javaLocks[k].Waiting) != len(lock.Waiting) {
		t.Fatalf("go-hbase's lock of %s: %+v; the Java Admin's locks: %s", table, lock, jl)
	}

	errc := make(chan error, 1)
	go func() { errc <- a.EnableTable(ctx, table) }()
	var enable Procedure
	waitFor(t, ctx, "EnableTable's procedure", func() bool {
		procs, err := a.Procedures(ctx)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(procs, func(p Procedure) bool {
			return strings.HasSuffix(p.Class, ".EnableTableProcedure") && !p.Finished() && p.ID > lock.Owner.ID
		})
		if i >= 0 {
			enable = procs[i]
		}
		return i >= 0
	})
	if err := a.AbortProcedure(ctx, enable.ID, true); err != nil {
		t.Fatalf("AbortProcedure(%d, the waiting EnableTableProcedure): %v", enable.ID, err)
	}
	if err := cl.ReleaseTableLock(ctx, table); err != nil {
		t.Fatal(err)
	}
	held = false
	err = <-errc
	if !errors.Is(err, hberr.ErrProcedureAborted) || !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("EnableTable aborted: %v; want hberr.ErrProcedureAborted", err)
	}
	t.Logf("EnableTable aborted: %v", err)
	if off, err := a.TableDisabled(ctx, table); err != nil || !off {
		t.Fatalf("TableDisabled after the aborted enable = %v, %v; want true", off, err)
	}
	procs, err := a.Procedures(ctx)
	if err != nil {
		t.Fatal(err)
	}
	j := slices.IndexFunc(procs, func(p Procedure) bool { return p.ID == enable.ID })
	if j < 0 || !procs[j].Finished() || procs[j].State == "SUCCESS" || !errors.Is(procs[j].Err, hberr.ErrProcedureAborted) {
		t.Fatalf("the aborted procedure %d: %+v; want it failed with hberr.ErrProcedureAborted", enable.ID, procs)
	}
	t.Logf("the aborted procedure %d: %s, %v", enable.ID, procs[j].State, procs[j].Err)
}

// Snapshots with a TTL, an owner, and without the flush: listed with them, as the Java Admin
// lists them; a skip-flush snapshot holds no row that was only in the memstore.
func TestAdminSnapshotOptions(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 3*time.Minute)
	cl := testCluster(t)
	name := adminTableName(t, "snapopt")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	adminPut(t, c, ctx, name, "a", "b") // in the memstore only
	snap, flushed := name+"_skip", name+"_flush"
	t.Cleanup(func() {
		_ = a.DeleteSnapshot(ctx, snap)
		_ = a.DeleteSnapshot(ctx, flushed)
	})
	if err := a.Snapshot(ctx, snap, name, SnapshotTTL(time.Hour), SnapshotOwner("bob"), SkipFlush()); err != nil {
		t.Fatalf("Snapshot(TTL, owner, skip flush): %v", err)
	}
	if err := a.Snapshot(ctx, flushed, name); err != nil {
		t.Fatal(err)
	}
	list, err := a.ListSnapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	jl, err := cl.JavaSnapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []hrpc.Snapshot{{Name: snap, Table: name, Owner: "bob", Type: "SKIPFLUSH", TTL: time.Hour},
		{Name: flushed, Table: name, Type: "FLUSH"}} {
		i := slices.IndexFunc(list, func(s hrpc.Snapshot) bool { return s.Name == want.Name })
		j := slices.IndexFunc(jl, func(s hbasetest.JavaSnapshot) bool { return s.Name == want.Name })
		if i < 0 || j < 0 {
			t.Fatalf("snapshot %s: listed by go-hbase %v, by the Java Admin %v", want.Name, i >= 0, j >= 0)
		}
		g, js := list[i], jl[j]
		if g.Table != want.Table || g.Type != want.Type || g.TTL != want.TTL || want.Owner != "" && g.Owner != want.Owner {
			t.Errorf("ListSnapshots: %+v; want %+v", g, want)
		}
		if js.Table != g.Table || js.Type != g.Type || js.TTL != g.TTL || js.Owner != g.Owner || !js.Created.Equal(g.Created) {
			t.Errorf("the Java Admin lists %+v; go-hbase %+v", js, g)
		}
	}
	// By effect: clones of each; the skip-flush one lacks the rows the memstore held.
	for _, s := range []struct {
		snap string
		rows int
	}{{snap, 0}, {flushed, 2}} {
		clone := adminTableName(t, "clone")
		adminDropLater(t, a, clone)
		if err := a.CloneSnapshot(ctx, s.snap, clone); err != nil {
			t.Fatal(err)
		}
		if got := adminRows(t, c, ctx, clone); len(got) != s.rows {
			t.Fatalf("clone of %s: rows %q; want %d", s.snap, got, s.rows)
		}
	}
	// Bad options: refused before anything is sent, no snapshot made.
	for _, o := range []SnapshotOption{SnapshotTTL(-time.Second), SnapshotTTL(1500 * time.Millisecond), SnapshotOwner(""), nil} {
		if err := a.Snapshot(ctx, name+"_bad", name, o); !errors.Is(err, hberr.ErrBadRequest) {
			t.Fatalf("Snapshot with a bad option: %v; want hberr.ErrBadRequest", err)
		}
	}
	if list, err := a.ListSnapshots(ctx); err != nil || slices.ContainsFunc(list, func(s hrpc.Snapshot) bool { return s.Name == name+"_bad" }) {
		t.Fatalf("after refused snapshots: %v, %v; want no %s_bad", list, err, name)
	}
}

// The refusals typed by what they mean, the table or namespace left as it was.
func TestAdminTypedRefusals(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	ctx := testContext(t, 2*time.Minute)
	name := adminTableName(t, "ref")
	adminDropLater(t, a, name)
	desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	f, err := hrpc.NewFamily("f", hrpc.Versions(9))
	if err != nil {
		t.Fatal(err)
	}
	g, err := hrpc.NewFamily("g")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		err  error
		want error
	}{
		{"AddFamily(existing)", a.AddFamily(ctx, name, f), hberr.ErrFamilyExists},
		{"ModifyFamily(missing)", a.ModifyFamily(ctx, name, g), hberr.ErrNoSuchFamily},
		{"DeleteFamily(missing)", a.DeleteFamily(ctx, name, "g"), hberr.ErrNoSuchFamily},
		{"DeleteFamily(the only one)", a.DeleteFamily(ctx, name, "f"), hberr.ErrLastFamily},
		{"DeleteNamespace(default)", a.DeleteNamespace(ctx, "default"), hberr.ErrNamespaceReserved},
		{"DeleteNamespace(hbase)", a.DeleteNamespace(ctx, "hbase"), hberr.ErrNamespaceReserved},
	} {
		if !errors.Is(c.err, c.want) || !errors.Is(c.err, hberr.ErrDoNotRetry) {
			t.Errorf("%s: %v; want %v", c.what, c.err, c.want)
		} else {
			t.Logf("%s: %v", c.what, c.err)
		}
	}
	got, err := a.DescribeTable(ctx, name)
	if err != nil || len(got.Families) != 1 || got.Families[0].MaxVersions != 1 {
		t.Fatalf("after the refusals: %+v, %v; want the table as created", got, err)
	}
	if ns, err := a.ListNamespaces(ctx); err != nil || len(ns) < 2 {
		t.Fatalf("ListNamespaces = %v, %v", ns, err)
	}

	// TableDisabled, the other side of TableEnabled; TableAvailable.
	adminPut(t, c, ctx, name, "row")
	if off, err := a.TableDisabled(ctx, name); err != nil || off {
		t.Fatalf("TableDisabled(enabled) = %v, %v", off, err)
	}
	if ok, err := a.TableAvailable(ctx, name); err != nil || !ok {
		t.Fatalf("TableAvailable(enabled) = %v, %v", ok, err)
	}
	if err := a.DisableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	if off, err := a.TableDisabled(ctx, name); err != nil || !off {
		t.Fatalf("TableDisabled(disabled) = %v, %v", off, err)
	}
	if ok, err := a.TableAvailable(ctx, name); err != nil || ok {
		t.Fatalf("TableAvailable(disabled) = %v, %v", ok, err)
	}
	for _, f := range []func(context.Context, string) (bool, error){a.TableDisabled, a.TableAvailable} {
		if _, err := f(ctx, name+"_none"); !errors.Is(err, hberr.ErrTableNotFound) {
			t.Fatalf("TableDisabled/TableAvailable(no table): %v; want hberr.ErrTableNotFound", err)
		}
	}

	// OfflineRegion, by its effect on the master's state of a region of the disabled table:
	// CLOSED to OFFLINE; enabled again, the region opens and serves its row.
	rs, err := a.Regions(ctx, name)
	if err != nil || len(rs) != 1 {
		t.Fatalf("Regions = %v, %v", rs, err)
	}
	cl := testCluster(t)
	masterState := func(want string) {
		t.Helper()
		st, server, known, err := cl.MasterRegionState(ctx, rs[0].Encoded)
		if err != nil || !known || st != want {
			t.Fatalf("the master's state of %s = %q on %q (known %v), %v; want %s", rs[0].Encoded, st, server, known, err, want)
		}
		t.Logf("the master's state of %s: %s on %q", rs[0].Encoded, st, server)
	}
	masterState("CLOSED")
	if err := a.OfflineRegion(ctx, []byte(rs[0].Encoded)); err != nil {
		t.Fatalf("OfflineRegion(%s): %v", rs[0].Encoded, err)
	}
	masterState("OFFLINE")
	if err := a.EnableTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	masterState("OPEN")
	if got := adminRows(t, c, ctx, name); len(got) != 1 {
		t.Fatalf("rows after OfflineRegion and EnableTable = %q; want the one row", got)
	}
	if err := a.OfflineRegion(ctx, []byte("0123456789abcdef0123456789abcdef")); !errors.Is(err, hberr.ErrRegionNotFound) {
		t.Fatalf("OfflineRegion(no region): %v; want hberr.ErrRegionNotFound", err)
	}
}
