package hbase

import (
	"testing"

	"github.com/go-hbase/hbase/hbasetest"
)

// SharedTestCluster hands the shared mini cluster of main_test.go to the external test
// package (chaos_test.go), so one test binary never runs two clusters.
func SharedTestCluster(t testing.TB) *hbasetest.Cluster { return testCluster(t) }
