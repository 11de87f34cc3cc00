package hbase

import (
	"context"
	"testing"

	"github.com/go-hbase/hbase/hbasetest"
)

// SharedTestCluster hands the shared mini cluster of main_test.go to the external test
// package (chaos_test.go), so one test binary never runs two clusters.
func SharedTestCluster(t testing.TB) *hbasetest.Cluster { return testCluster(t) }

// CheckAtomicBatch hands checkAtomicBatch (batch_atomic_test.go) to the external test package,
// which runs it on fakehbase (writer_test.go).
func CheckAtomicBatch(t *testing.T, ctx context.Context, c *Client, table string, rows [4]string) {
	checkAtomicBatch(t, ctx, c, table, rows)
}
