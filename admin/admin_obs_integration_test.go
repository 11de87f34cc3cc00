package admin

import (
	"net"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
)

// TestIntegrationAdminAndBatchObserved: against real HBase, Admin calls reach the hooks as
// calls named by their method, with their RPCs to the master (procedure polls included) and
// to the region servers (FlushTable, one per region) as Attempts; a batch is "Batch" in its
// call, its MultiRequests and ServerLatency.
func TestIntegrationAdminAndBatchObserved(t *testing.T) {
	cl := testCluster(t)
	var log eventLog
	c := newTestClient(t, hbase.WithHooks(log.hooks()))
	admin := New(c)
	ctx := testContext(t, 2*time.Minute)
	const table = "admin_observed"
	desc, err := hrpc.NewTableDescriptor(table, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"))); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = admin.DisableTable(ctx, table); _ = admin.DeleteTable(ctx, table) }()

	puts := make([]hrpc.Batchable, 0, 2)
	for _, row := range []string{"a", "z"} {
		p, _ := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		puts = append(puts, p)
	}
	for i, r := range c.SendBatch(ctx, puts) {
		if r.Err != nil {
			t.Fatalf("batch action %d: %v", i, r.Err)
		}
	}
	if err := admin.FlushTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.DescribeTable(ctx, "no_such_table"); err == nil {
		t.Fatal("DescribeTable of a missing table succeeded")
	}

	log.mu.Lock()
	done := slices.Clone(log.done)
	tries := slices.Clone(log.tries)
	log.mu.Unlock()
	byOp := map[string]hbasetrace.CallDoneInfo{}
	for _, d := range done {
		t.Logf("call %s %s: %d attempts, %d retries, last server %s, %v", d.Op, d.Table, d.Attempts, d.Retries, d.Server, d.Duration)
		byOp[d.Op] = d
	}
	_, masterPort, _ := net.SplitHostPort(cl.MasterAddr)
	port := func(addr string) string { _, p, _ := net.SplitHostPort(addr); return p }

	ct, ok := byOp["CreateTable"]
	if !ok || ct.Class != "ok" || ct.Table != table || ct.Attempts < 2 || port(ct.Server) != masterPort || ct.Region != nil {
		t.Errorf("CreateTable's CallDone = %+v; want ok, %d+ attempts (the create and its polls) on the master (port %s)", ct, 2, masterPort)
	}
	if d := byOp["DescribeTable"]; d.Class != "not_found" || d.Attempts != 1 {
		t.Errorf("DescribeTable of a missing table: CallDone = %+v; want not_found after 1 attempt", d)
	}
	if d := byOp["Batch"]; d.Class != "ok" || d.Attempts < 1 || d.Table != "" {
		t.Errorf("Batch's CallDone = %+v; want ok, at least one MultiRequest", d)
	}
	var flushes, batches int
	for _, a := range tries {
		switch a.Op {
		case "FlushTable":
			if a.Region != nil {
				flushes++
				if port(a.Server) == masterPort || a.Class != "ok" {
					t.Errorf("FlushTable attempt %+v; want ok, on a region server", a)
				}
			}
		case "Batch":
			batches++
			if a.Server == "" || a.Class != "ok" {
				t.Errorf("Batch attempt %+v; want ok, with its server", a)
			}
		case "Multi":
			t.Errorf("an attempt is named Multi: %+v", a)
		}
	}
	if flushes != 2 {
		t.Errorf("%d FlushRegion RPCs reported for FlushTable, want 2 (one per region)", flushes)
	}
	if batches != byOp["Batch"].Attempts {
		t.Errorf("%d Batch attempts reported, CallDone says %d", batches, byOp["Batch"].Attempts)
	}
	var batchLatency int64
	for _, l := range c.ServerLatency() {
		if l.Op == "Multi" {
			t.Errorf("ServerLatency names an operation Multi: %+v", l)
		}
		if l.Op == "Batch" {
			batchLatency += l.Count
		}
	}
	if batchLatency != int64(batches) {
		t.Errorf("ServerLatency counts %d Batch RPCs, the hooks %d", batchLatency, batches)
	}
}
