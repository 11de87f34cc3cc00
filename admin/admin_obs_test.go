package admin_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// adminEvents writes down the call, attempt and retry events of a client, with whether they
// named a server (S) and a region. (The fake's master is also its region server.)
type adminEvents struct {
	mu      sync.Mutex
	events  []string
	done    map[string]hbasetrace.CallDoneInfo
	parents map[string]string // an op started inside another call: its parent's op
}

type opKey struct{}

func (l *adminEvents) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

func (l *adminEvents) where(addr string) string {
	if addr == "" {
		return "-"
	}
	return "S"
}

func (l *adminEvents) hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		CallStart: func(ctx context.Context, ev hbasetrace.CallStartInfo) context.Context {
			l.add("start %s %s", ev.Op, ev.Table)
			if parent, ok := ctx.Value(opKey{}).(string); ok {
				l.mu.Lock()
				l.parents[ev.Op] = parent
				l.mu.Unlock()
			}
			return context.WithValue(ctx, opKey{}, ev.Op)
		},
		CallDone: func(ctx context.Context, ev hbasetrace.CallDoneInfo) {
			l.add("done %s %s", ev.Op, ev.Class)
			l.mu.Lock()
			l.done[ev.Op] = ev
			l.mu.Unlock()
		},
		Attempt: func(ctx context.Context, ev hbasetrace.AttemptInfo) {
			l.add("attempt %s %s region=%v %s", ev.Op, l.where(ev.Server), ev.Region != nil, ev.Class)
		},
		Retry: func(ctx context.Context, ev hbasetrace.RetryInfo) {
			l.add("retry %s %s %s relocate=%v", ev.Op, l.where(ev.Server), ev.Class, ev.Relocate)
		},
	}
}

// take returns the events so far, the Attempts of procedure polls after the first folded
// into one "attempt... (polls)" line (how many polls a procedure needs is the server's
// business), and forgets them.
func (l *adminEvents) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		if n := len(out); n > 1 && e == out[n-1] && strings.HasPrefix(e, "attempt ") {
			continue
		}
		out = append(out, e)
	}
	l.events = nil
	return out
}

// Admin calls are observed as calls: CallStart and CallDone named by the Admin method, an
// Attempt for each RPC to the master or to a region server (the procedure's polls too), a
// Retry when the master asks to wait. The adapters (contrib/prometheus, contrib/otel) see
// them through these events alone.
func TestAdminCallsAreObserved(t *testing.T) {
	srv := fakehbase.NewServer(t)
	log := &adminEvents{done: map[string]hbasetrace.CallDoneInfo{}, parents: map[string]string{}}
	c, err := srv.NewClient(hbase.WithHooks(log.hooks()), hbase.WithMaxBackoff(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	adm := admin.New(c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	check := func(what string, want ...string) {
		t.Helper()
		if got := log.take(); !slices.Equal(got, want) {
			t.Errorf("%s: events =\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	// A master that is not ready yet: the call locates it again and sends again.
	srv.InjectError(fakehbase.Match{Op: "CreateTable"}, "org.apache.hadoop.hbase.PleaseHoldException", "not ready", 1)
	desc, err := hrpc.NewTableDescriptor("obs", hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := adm.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	check("CreateTable",
		"start CreateTable obs",
		"attempt CreateTable S region=false server_stopping",
		"retry CreateTable S server_stopping relocate=true",
		"attempt CreateTable S region=false ok", // CreateTable, then the procedure's polls
		"done CreateTable ok")
	if d := log.done["CreateTable"]; d.Attempts < 3 || d.Retries != 1 || d.Server != srv.Addr() ||
		d.RequestBytes == 0 || d.ResponseBytes == 0 || d.Duration <= 0 || d.Table != "obs" {
		t.Errorf("CallDone = %+v; want at least 3 attempts (2 CreateTable, 1 poll), 1 retry, on the master, with bytes", d)
	}

	// A region server's AdminService call names its region; the region is found in
	// hbase:meta by a Get of its own, inside the Admin call.
	regions, err := adm.Regions(ctx, "obs")
	if err != nil || len(regions) != 1 {
		t.Fatalf("Regions = %v, %v", regions, err)
	}
	check("Regions", "start Regions obs", "start Scan hbase:meta", "attempt Scan S region=true ok",
		"done Scan ok", "done Regions ok")
	if err := adm.FlushRegion(ctx, regions[0].Name); err != nil {
		t.Fatal(err)
	}
	check("FlushRegion", "start FlushRegion obs", "start Get hbase:meta", "attempt Get S region=true ok",
		"done Get ok", "attempt FlushRegion S region=true ok", "done FlushRegion ok")
	if got := log.parents["Get"]; got != "FlushRegion" {
		t.Errorf("the hbase:meta Get of FlushRegion started in the context of %q, want FlushRegion's", got)
	}

	// Failures are classed like any call's, and the error is the Admin's as before.
	_, err = adm.DescribeTable(ctx, "no_such_table")
	if ae, ok := errors.AsType[*hberr.AdminError](err); !ok || ae.Op != "DescribeTable" || !errors.Is(err, hberr.ErrTableNotFound) {
		t.Fatalf("DescribeTable of a missing table: %v", err)
	}
	check("DescribeTable", "start DescribeTable no_such_table", "attempt DescribeTable S region=false ok",
		"done DescribeTable not_found")
	if d := log.done["DescribeTable"]; d.Err == nil || !errors.Is(d.Err, hberr.ErrTableNotFound) {
		t.Errorf("CallDone.Err = %v; want the call's error", d.Err)
	}
	// Refused before anything is sent: a call without attempts.
	err = adm.DeleteTable(ctx, "bad name")
	if !errors.Is(err, hberr.ErrInvalidName) {
		t.Fatalf("DeleteTable(bad name) = %v", err)
	}
	check("DeleteTable", "start DeleteTable bad name", "done DeleteTable "+hberr.Class(err))

	// Calls that read an answer: one RPC each.
	if _, err := adm.TableExists(ctx, "obs"); err != nil {
		t.Fatal(err)
	}
	check("TableExists", "start TableExists obs", "attempt TableExists S region=false ok", "done TableExists ok")
	if _, err := adm.ListTables(ctx); err != nil {
		t.Fatal(err)
	}
	check("ListTables", "start ListTables ", "attempt ListTables S region=false ok", "done ListTables ok")
}
