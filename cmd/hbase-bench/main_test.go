package main

import (
	"os"
	"testing"

	"github.com/go-hbase/hbase/hbasetest"
)

// cluster is the plain one-server cluster that the tests running hbase-bench against a
// cluster it did not start share (each uses a table of its own), started by the first of them
// and stopped by TestMain. The -local tests start their own, as hbase-bench does.
var cluster = hbasetest.NewShared(hbasetest.Options{})

func TestMain(m *testing.M) { os.Exit(cluster.Run(m)) }
