package admin

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The package's integration tests share one real 3-region-server mini cluster, started on
// first use and stopped by TestMain; -short or GOHBASE_SKIP_CLUSTER=1 skips them. Archived
// HFiles may be deleted a second after they were written (5 minutes by default), so that
// RunCleanerChore shows its effect at once.
var (
	env = testkit.New(hbasetest.Options{RegionServers: 3, Conf: map[string]string{
		"hbase.master.hfilecleaner.ttl": "1000",
	}})
	tables atomic.Int64 // numbers the tables the tests make
)

func TestMain(m *testing.M) {
	flag.Parse()
	if hbasetest.Skipped() {
		// ExampleAdmin and ExampleAdmin_AddReplicationPeer start mini clusters of their own
		// and cannot skip themselves.
		skip := "^ExampleAdmin$|^ExampleAdmin_AddReplicationPeer$"
		if f := flag.Lookup("test.skip"); f != nil && f.Value.String() != "" {
			skip = f.Value.String() + "|" + skip
		}
		if err := flag.Set("test.skip", skip); err != nil {
			fmt.Fprintln(os.Stderr, "skipping the examples:", err)
			os.Exit(2)
		}
	}
	os.Exit(env.Run(m))
}

func testCluster(t testing.TB) *hbasetest.Cluster { t.Helper(); return env.Cluster(t) }

// newTestClient returns a client of the cluster, closed when the test ends.
func newTestClient(t testing.TB, opts ...hbase.Option) *hbase.Client {
	t.Helper()
	cl := testCluster(t)
	c, err := hbase.NewClient(cl.ZKQuorum, append([]hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent)}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	return testkit.Context(t, d)
}

func sanitize(s string) string { return testkit.Sanitize(s) }
