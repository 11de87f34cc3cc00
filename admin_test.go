package hbase

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

// TestClassifyMaster: what a master call does after each kind of error. A master stopping,
// starting or unreachable is located again; refusals end the call.
func TestClassifyMaster(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want retryAction
	}{
		{context.DeadlineExceeded, giveUp},
		{hberr.ErrClosed, giveUp},
		{errNoMasterLookup, giveUp},
		{fmt.Errorf("%w: x", hberr.ErrBadRequest), giveUp},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.TableExistsException", "t", false), giveUp},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.ipc.ServerNotRunningYetException", "", false), pauseAndRelocate},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.PleaseHoldException", "", false), pauseAndRelocate},
		{hberr.NewRemoteError("org.apache.hadoop.hbase.MasterNotRunningException", "", false), pauseAndRelocate},
		{fmt.Errorf("conn: %w", hberr.ErrConnection), pauseAndRelocate},
		{errors.New("locating the active master: no node"), pauseAndRelocate},
		{hberr.NewRemoteError("java.io.IOException", "Table must be disabled", false), pause},
	} {
		if got := classifyMaster(tc.err); got != tc.want {
			t.Errorf("classifyMaster(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}

// An Admin call on a closed client fails at once with hberr.ErrClosed, inside an hberr.AdminError.
func TestAdminClosedClient(t *testing.T) {
	c, err := NewClient("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err = c.Admin().ListTables(context.Background())
	var ae *hberr.AdminError
	if !errors.Is(err, hberr.ErrClosed) || !errors.As(err, &ae) || ae.Op != "ListTables" {
		t.Fatalf("ListTables on a closed client: %v; want an hberr.AdminError wrapping hberr.ErrClosed", err)
	}
	if err := c.Admin().DeleteTable(context.Background(), "bad name"); !errors.Is(err, hberr.ErrInvalidName) {
		t.Fatalf("DeleteTable(bad name): %v; want hberr.ErrInvalidName before anything is sent", err)
	}
}
