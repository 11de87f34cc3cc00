package bufwriter

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The package's integration test runs on a real 3-region-server mini cluster of its own,
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

func mustGetT(t *testing.T, table, row string) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet(table, []byte(row))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func createTable(t testing.TB, families []string, splits [][]byte) string {
	t.Helper()
	return env.Table(t, families, splits)
}

func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	return testkit.Context(t, d)
}

// The helpers below are the root package's (faultnet_integration_test.go,
// reliability_integration_test.go).

// faultTarget creates a table of three regions ("", "h", "p"), writes value to a row of each
// with c, and returns the table, the address (as the client dials it) of a region server
// holding one of its regions but not hbase:meta, a row of that region, and a row of a region
// on another server ("" when there is none).
func faultTarget(t *testing.T, cl *hbasetest.Cluster, c *hbase.Client, value []byte, families ...string) (table, addr, affected, other string) {
	t.Helper()
	table = createTable(t, append([]string{"f"}, families...), [][]byte{[]byte("h"), []byte("p")})
	rows := []string{"arow", "hrow", "prow"} // one in each region
	locate := func() (metaAddr string, at []string) {
		for _, row := range rows {
			putRow(t, c, table, row, value)
			at = append(at, engine.Of(c).CachedLocation([]byte(table), []byte(row)))
		}
		return engine.Of(c).MetaLocation(), at
	}
	metaAddr, at := locate()
	for i, a := range at {
		if a != metaAddr && addr == "" {
			addr, affected = a, rows[i]
		}
	}
	if addr == "" {
		// Every region is with hbase:meta: move the first one away.
		moveRegion(t, cl, table, nil)
		metaAddr, at = locate()
		if at[0] == metaAddr {
			t.Fatalf("region of %q still with hbase:meta on %s after a move", rows[0], metaAddr)
		}
		addr, affected = at[0], rows[0]
	}
	for i, a := range at {
		if a != addr {
			other = rows[i]
		}
	}
	return table, addr, affected, other
}

func putRow(t *testing.T, c *hbase.Client, table, row string, value []byte) {
	t.Helper()
	put, _ := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), value))
	if _, err := c.Put(testContext(t, 30*time.Second), put); err != nil {
		t.Fatalf("Put %s: %v", row, err)
	}
}

// moveRegion moves the region of table starting at start to another live region server and
// returns the region as it was before the move.
func moveRegion(t *testing.T, cl *hbasetest.Cluster, table string, start []byte) hbasetest.Region {
	t.Helper()
	ctx := testContext(t, 2*time.Minute)
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		if string(r.StartKey) != string(start) {
			continue
		}
		for i := range st.RegionServers {
			to := (r.Server + 1 + i) % len(st.RegionServers)
			if to != r.Server && st.RegionServers[to].Live {
				if err := cl.Move(ctx, r.EncodedName, to); err != nil {
					t.Fatalf("moving %s to server %d: %v", r.EncodedName, to, err)
				}
				return r
			}
		}
		t.Fatalf("no live server to move %s to: %+v", r.EncodedName, st.RegionServers)
	}
	t.Fatalf("no region of %s starts at %q: %+v", table, start, regions)
	return hbasetest.Region{}
}
