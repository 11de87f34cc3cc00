package main

import (
	"testing"

	"github.com/go-hbase/hbase/hbasetest"
)

// TestAgainstExistingCluster runs hbase-bench against a cluster it did not start, one for
// both subtests (each with a table of its own).
func TestAgainstExistingCluster(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{})
	t.Run("create", func(t *testing.T) { createOnExistingCluster(t, cl) })
	t.Run("pe-workloads", func(t *testing.T) { peWorkloads(t, cl) })
}
