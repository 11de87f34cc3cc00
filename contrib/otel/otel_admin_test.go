package hbaseotel_test

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	hbaseotel "github.com/go-hbase/hbase/contrib/otel"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hrpc"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Admin calls and batches are spans like the data calls: "CreateTable t" on the master,
// "Batch" for a SendBatch, a failed DescribeTable with its error. The in-process server
// stands for a cluster (TestIntegrationOTelSpans covers the data calls on a real one).
func TestAdminAndBatchSpans(t *testing.T) {
	srv := fakehbase.NewServer(t)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	hooks, err := hbaseotel.NewHooks(hbaseotel.WithTracerProvider(tp))
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient(hbase.WithHooks(hooks))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	desc, err := hrpc.NewTableDescriptor("ns_less", hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.New(c).CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	put, _ := hrpc.NewPut("ns_less", []byte("r"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if res := c.SendBatch(ctx, []hrpc.Batchable{put}); res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	if _, err := admin.New(c).DescribeTable(ctx, "missing"); err == nil {
		t.Fatal("DescribeTable of a missing table succeeded")
	}

	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range exp.GetSpans().Snapshots() {
		t.Logf("span %q attrs=%v", s.Name(), s.Attributes())
		byName[s.Name()] = s
	}
	host, port, _ := net.SplitHostPort(srv.Addr())
	p, _ := strconv.Atoi(port)
	create, ok := byName["CreateTable ns_less"]
	if !ok {
		t.Fatalf("no span \"CreateTable ns_less\"")
	}
	for key, want := range map[string]string{"db.operation.name": "CreateTable", "db.collection.name": "ns_less",
		"db.namespace": "default", "server.address": host} {
		if v, ok := attr(create, key); !ok || v.AsString() != want {
			t.Errorf("CreateTable span: %s = %v, want %q", key, v.String(), want)
		}
	}
	if v, _ := attr(create, "server.port"); v.AsInt64() != int64(p) {
		t.Errorf("CreateTable span: server.port = %d, want %d", v.AsInt64(), p)
	}
	if v, _ := attr(create, "hbase.attempts"); v.AsInt64() < 2 {
		t.Errorf("CreateTable span: hbase.attempts = %d, want the create and at least one poll", v.AsInt64())
	}
	if b, ok := byName["Batch"]; !ok {
		t.Error("no span \"Batch\" for the SendBatch")
	} else if v, _ := attr(b, "db.operation.name"); v.AsString() != "Batch" {
		t.Errorf("Batch span: db.operation.name = %q", v.AsString())
	}
	if d, ok := byName["DescribeTable missing"]; !ok || d.Status().Code != codes.Error {
		t.Errorf("DescribeTable of a missing table: span present %v, status %v; want an error", ok, d)
	} else if v, _ := attr(d, "error.type"); v.AsString() != "not_found" {
		t.Errorf("DescribeTable span: error.type = %q, want not_found", v.AsString())
	}
}
