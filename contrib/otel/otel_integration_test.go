package hbaseotel_test

import (
	"context"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	hbaseotel "github.com/go-hbase/hbase/contrib/otel"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// A real HBase mini cluster with two region servers, so that a region can move.
var shared = hbasetest.NewShared(hbasetest.Options{RegionServers: 2})

func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }

func attr(s sdktrace.ReadOnlySpan, key string) (attribute.Value, bool) {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// TestIntegrationOTelSpans: each real call is one client span with the database attributes
// and its region server as server.address/port; a Get right after its region moved to the
// other server carries a retry event and names the new server; a parent span's trace is the
// calls' trace.
func TestIntegrationOTelSpans(t *testing.T) {
	cl := shared.Cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	const table = "otel_spans"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.DisableTable(ctx, table); _ = cl.DropTable(ctx, table) }()

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	hooks, err := hbaseotel.NewHooks(hbaseotel.WithTracerProvider(tp))
	if err != nil {
		t.Fatal(err)
	}
	c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent), hbase.WithHooks(hooks))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	parentCtx, parent := tp.Tracer("test").Start(ctx, "request")
	put, _ := hrpc.NewPut(table, []byte("r1"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if _, err := c.Put(parentCtx, put); err != nil {
		t.Fatal(err)
	}
	get, _ := hrpc.NewGet(table, []byte("r1"))
	if _, err := c.Get(parentCtx, get); err != nil {
		t.Fatal(err)
	}
	parent.End()

	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions = %v, %v", regions, err)
	}
	from := regions[0]
	to := 1 - from.Server
	if err := cl.Move(ctx, from.EncodedName, to); err != nil {
		t.Fatal(err)
	}
	moved, err := cl.Regions(ctx, table)
	if err != nil || len(moved) != 1 || moved[0].Server != to {
		t.Fatalf("after the move: regions = %v, %v", moved, err)
	}
	// The client still has the region on the old server: the Get fails there and is retried.
	if _, err := c.Get(ctx, get); err != nil {
		t.Fatal(err)
	}

	spans := exp.GetSpans().Snapshots()
	var calls []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.InstrumentationScope().Name == hbaseotel.ScopeName {
			calls = append(calls, s)
		}
	}
	if len(calls) != 3 {
		t.Fatalf("%d spans of calls, want 3 (Put, Get, Get after the move): %v", len(calls), calls)
	}
	host := func(addr string) (string, int) {
		h, p, _ := net.SplitHostPort(addr)
		n, _ := strconv.Atoi(p)
		return h, n
	}
	wantNames := []string{"Put " + table, "Get " + table, "Get " + table}
	wantServers := []string{from.Addr, from.Addr, moved[0].Addr}
	for i, s := range calls {
		t.Logf("span %q kind=%v attrs=%v events=%d", s.Name(), s.SpanKind(), s.Attributes(), len(s.Events()))
		if s.Name() != wantNames[i] || s.SpanKind() != trace.SpanKindClient || s.Status().Code == codes.Error {
			t.Errorf("span %d = %q kind %v status %v; want %q, client, ok", i, s.Name(), s.SpanKind(), s.Status(), wantNames[i])
		}
		for key, want := range map[string]string{"db.system.name": "hbase", "db.system": "hbase",
			"db.collection.name": table, "db.namespace": "default", "db.operation.name": []string{"Put", "Get", "Get"}[i]} {
			if v, ok := attr(s, key); !ok || v.AsString() != want {
				t.Errorf("span %d: %s = %v, want %q", i, key, v.String(), want)
			}
		}
		h, p := host(wantServers[i])
		if v, _ := attr(s, "server.address"); v.AsString() != h {
			t.Errorf("span %d: server.address = %q, want %q", i, v.AsString(), h)
		}
		if v, _ := attr(s, "server.port"); v.AsInt64() != int64(p) {
			t.Errorf("span %d: server.port = %d, want %d (%s)", i, v.AsInt64(), p, wantServers[i])
		}
	}
	for i := range 2 {
		if calls[i].Parent().SpanID() != parent.SpanContext().SpanID() || calls[i].SpanContext().TraceID() != parent.SpanContext().TraceID() {
			t.Errorf("span %d is not a child of the caller's span", i)
		}
	}
	retries := 0
	for _, ev := range calls[2].Events() {
		if ev.Name == "retry" {
			retries++
			t.Logf("retry event: %v", ev.Attributes)
		}
	}
	if retries == 0 {
		t.Errorf("Get after the move: no retry event; events %v", calls[2].Events())
	}
	if v, _ := attr(calls[2], "hbase.attempts"); v.AsInt64() < 2 {
		t.Errorf("Get after the move: hbase.attempts = %d, want at least 2", v.AsInt64())
	}
}
