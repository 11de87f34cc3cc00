package parallelscan

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The package's integration tests run on a real 3-region-server mini cluster of its own,
// started on first use and stopped by TestMain; -short or GOHBASE_SKIP_CLUSTER=1 skips it.
var env = testkit.New(hbasetest.Options{RegionServers: 3})

func TestMain(m *testing.M) {
	flag.Parse()
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

func reliabilityRounds(t testing.TB) int { return testkit.Rounds(t) }

func createTable(t testing.TB, families []string, splits [][]byte) string {
	t.Helper()
	return env.Table(t, families, splits)
}

func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	return testkit.Context(t, d)
}

// Helpers of the root package's tests (client_integration_test.go, scan_integration_test.go).

func mustPut(t testing.TB, table string, row, value []byte) *hrpc.Put {
	t.Helper()
	p, err := hrpc.NewPut(table, row, hrpc.Value(famF, qualQ, value))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustGet(t testing.TB, table string, row []byte, opts ...hrpc.GetOption) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet(table, row, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// loadRows writes rows row0000..row(n-1) (one cell each) with SendBatch and returns them.
func loadRows(t *testing.T, c *hbase.Client, table string, n int) []string {
	t.Helper()
	ctx := testContext(t, 2*time.Minute)
	rows := make([]string, n)
	var batch []hrpc.Batchable
	for i := range n {
		rows[i] = fmt.Sprintf("row%04d", i)
		batch = append(batch, mustPut(t, table, []byte(rows[i]), []byte("v"+rows[i])))
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("loading row %d: %v", i, r.Err)
		}
	}
	return rows
}

var (
	famF  = []byte("f")
	qualQ = []byte("q")
)
