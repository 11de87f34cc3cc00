package admin

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
)

// TestClassifyMaster: what a master call does after each kind of error. A master stopping,
// starting or unreachable is located again; refusals end the call.
func TestClassifyMaster(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want engine.RetryAction
	}{
		{context.DeadlineExceeded, engine.GiveUp},
		{hberr.ErrClosed, engine.GiveUp},
		{engine.ErrNoMasterLookup, engine.GiveUp},
		{fmt.Errorf("%w: x", hberr.ErrBadRequest), engine.GiveUp},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.TableExistsException", "t", false), engine.GiveUp},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.ipc.ServerNotRunningYetException", "", false), engine.PauseAndRelocate},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.PleaseHoldException", "", false), engine.PauseAndRelocate},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.MasterNotRunningException", "", false), engine.PauseAndRelocate},
		{fmt.Errorf("conn: %w", hberr.ErrConnection), engine.PauseAndRelocate},
		{errors.New("locating the active master: no node"), engine.PauseAndRelocate},
		{hberr.NewRemoteError("java.io.IOException", "Table must be disabled", false), engine.Pause},
	} {
		if got := classifyMaster(tc.err); got != tc.want {
			t.Errorf("classifyMaster(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}

// An Admin call on a closed client fails at once with hberr.ErrClosed, inside an hberr.AdminError.
func TestAdminClosedClient(t *testing.T) {
	c, err := hbase.NewClient("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err = New(c).ListTables(context.Background())
	var ae *hberr.AdminError
	if !errors.Is(err, hberr.ErrClosed) || !errors.As(err, &ae) || ae.Op != "ListTables" {
		t.Fatalf("ListTables on a closed client: %v; want an hberr.AdminError wrapping hberr.ErrClosed", err)
	}
	if err := New(c).DeleteTable(context.Background(), "bad name"); !errors.Is(err, hberr.ErrInvalidName) {
		t.Fatalf("DeleteTable(bad name): %v; want hberr.ErrInvalidName before anything is sent", err)
	}
}
