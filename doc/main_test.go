package doc

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The package's integration tests share one real 2-region-server mini cluster (two, so that
// the Jepsen-style check can cut the server of the documents off from the client while
// hbase:meta stays reachable), started on first use and stopped by TestMain; -short or
// GOHBASE_SKIP_CLUSTER=1 skips them. The same cases run on fakehbase in every run.
var env = testkit.New(hbasetest.Options{RegionServers: 2})

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(env.Run(m))
}

// backend is a server the cases run against: fakehbase, or the real cluster.
type backend struct {
	name   string
	client *hbase.Client
	// table creates a table with families (and splits) and returns its name.
	table func(t testing.TB, families []string, splits ...[]byte) string
	fake  *fakehbase.Server // nil on the real cluster
}

// fakeBackend is a fakehbase server of the test's own.
func fakeBackend(t testing.TB) backend {
	t.Helper()
	srv := fakehbase.NewServer(t, fakehbase.WithRegionServers(2))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return backend{name: "fake", client: c, fake: srv, table: func(t testing.TB, fams []string, splits ...[]byte) string {
		t.Helper()
		name := env.Name(t, "t")
		if err := srv.CreateTable(name, fams, splits...); err != nil {
			t.Fatal(err)
		}
		return name
	}}
}

// realBackend is the package's cluster (the test is skipped without one).
func realBackend(t testing.TB, opts ...hbase.Option) backend {
	t.Helper()
	cl := env.Cluster(t)
	c, err := hbase.NewClient(cl.ZKQuorum, append([]hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent)}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return backend{name: "real", client: c, table: func(t testing.TB, fams []string, splits ...[]byte) string {
		t.Helper()
		return env.Table(t, fams, splits)
	}}
}

// onBoth runs f on fakehbase, then on the real cluster (skipped under -short).
func onBoth(t *testing.T, f func(t *testing.T, b backend)) {
	t.Run("fake", func(t *testing.T) { f(t, fakeBackend(t)) })
	t.Run("real", func(t *testing.T) { f(t, realBackend(t)) })
}

// collection makes a collection's table (family "d") and index table and opens it.
func (b backend) collection(t testing.TB, opts ...Option) *Collection {
	t.Helper()
	table := b.table(t, []string{"d"})
	idx := b.table(t, []string{"d"})
	c, err := Open(b.client, table, "d", append([]Option{WithIndexTable(idx, "d")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	return testkit.Context(t, d)
}
