package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
)

func TestProcedureAndLockText(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	create := admin.Procedure{ID: 7, Class: "org.apache.hadoop.hbase.master.procedure.CreateTableProcedure", State: "RUNNABLE",
		Owner: "alice", Submitted: at, LastUpdate: at.Add(time.Second), ParentID: 3}
	failed := admin.Procedure{ID: 8, Class: "X", State: "ROLLEDBACK", Err: errors.New("boom")}
	var b strings.Builder
	rows, err := (&proceduresOut{Procedures: []procOut{procOf(&create), procOf(&failed)}}).shellText(&b)
	if err != nil || rows != 2 {
		t.Fatalf("proceduresOut.shellText = %d, %v; want 2, nil", rows, err)
	}
	for _, want := range []string{"Id  Name", "Parameters", "7   org.apache.hadoop.hbase.master.procedure.CreateTableProcedure  RUNNABLE",
		"2026-01-02 03:04:05 +0000  2026-01-02 03:04:06 +0000  owner=alice, parent=3", "owner=nil, error=boom"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("list_procedures text lacks %q:\n%s", want, b.String())
		}
	}
	locks := []admin.Lock{
		{Resource: "TABLE", Name: "ns:t,1", Exclusive: true, Owner: &create, Waiting: []admin.Procedure{failed}},
		{Resource: "NAMESPACE", Name: "ns", Shared: 2},
	}
	out := &locksOut{}
	for i := range locks {
		out.Locks = append(out.Locks, lockOf(&locks[i]))
	}
	b.Reset()
	if rows, err := out.shellText(&b); err != nil || rows != 2 {
		t.Fatalf("locksOut.shellText = %d, %v; want 2, nil", rows, err)
	}
	want := "TABLE(ns:t,1)\nLock type: EXCLUSIVE, procedure: 7 (org.apache.hadoop.hbase.master.procedure.CreateTableProcedure, RUNNABLE)\n" +
		"Waiting procedures:\nId  Name  State\n8   X     ROLLEDBACK\n\nNAMESPACE(ns)\nLock type: SHARED, count: 2\n\n"
	if b.String() != want {
		t.Errorf("list_locks text =\n%s\nwant\n%s", b.String(), want)
	}
}
