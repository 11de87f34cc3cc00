package hbase

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// The package's integration tests share one real 3-region-server mini cluster, started on
// first use (so unit-test-only runs start no JVM) and stopped by TestMain. Set
// GOHBASE_SKIP_CLUSTER=1, or run with -short, to skip them.
var (
	shared = hbasetest.NewShared(hbasetest.Options{RegionServers: 3, Conf: map[string]string{
		// Secondary region replicas follow their primary's WAL (replica_integration_test.go):
		// a replication peer is made when the first table with REGION_REPLICATION > 1 is.
		"hbase.region.replica.replication.enabled": "true",
	}})
	tables atomic.Int64 // numbers the tables createTable makes
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(shared.Run(m))
}

// testCluster returns the shared cluster, starting it on first use. It skips the test under
// -short or GOHBASE_SKIP_CLUSTER=1, and fails it if the cluster cannot start.
func testCluster(t testing.TB) *hbasetest.Cluster {
	t.Helper()
	return shared.Cluster(t)
}

// newTestClient returns a client of the shared cluster, closed when the test ends.
func newTestClient(t testing.TB, opts ...Option) *Client {
	t.Helper()
	cl := testCluster(t)
	opts = append([]Option{WithZNodeParent(cl.ZNodeParent)}, opts...)
	c, err := NewClient(cl.ZKQuorum, opts...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// createTable creates a table with a unique name on the shared cluster and returns its name.
// It is dropped when the test ends.
func createTable(t testing.TB, families []string, splits [][]byte) string {
	t.Helper()
	cl := testCluster(t)
	name := fmt.Sprintf("t%d_%s", tables.Add(1), sanitize(t.Name()))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := cl.CreateTable(ctx, name, families, splits); err != nil {
		t.Fatalf("creating table %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, name)
		_ = cl.DropTable(ctx, name)
	})
	return name
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 60 {
			break
		}
	}
	return b.String()
}

// testContext returns a context bounded for one integration step.
func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func mustGet(t testing.TB, table string, row []byte, opts ...hrpc.GetOption) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet(table, row, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
