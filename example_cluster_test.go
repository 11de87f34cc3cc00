package hbase

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// The runnable examples (example_test.go) talk to the package's shared mini cluster, so a
// plain `go test` starts it for them even under -short: an example cannot skip itself.
var exampleTables struct {
	once sync.Once
	err  error
}

// SharedCluster returns the shared cluster's ZooKeeper quorum and znode parent, with the
// tables the examples use ("users", "events", "stats") created once.
func SharedCluster() (quorum, znodeParent string) {
	shared.once.Do(func() {
		shared.cluster, shared.err = hbasetest.Start(context.Background(), hbasetest.Options{RegionServers: 3})
	})
	if shared.err != nil {
		fmt.Fprintln(os.Stderr, "starting the mini cluster:", shared.err)
		os.Exit(1)
	}
	cl := shared.cluster
	exampleTables.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		for _, t := range []struct {
			name, family string
			splits       [][]byte
		}{
			{"users", "info", [][]byte{[]byte("bob")}},
			{"events", "e", [][]byte{[]byte("2026-11-10")}},
			{"stats", "c", nil},
		} {
			if exampleTables.err = cl.CreateTable(ctx, t.name, []string{t.family}, t.splits); exampleTables.err != nil {
				return
			}
		}
	})
	if exampleTables.err != nil {
		fmt.Fprintln(os.Stderr, "creating the example tables:", exampleTables.err)
		os.Exit(1)
	}
	return cl.ZKQuorum, cl.ZNodeParent
}
