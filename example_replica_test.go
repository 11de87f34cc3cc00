package hbase_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hrpc"
)

// Timeline reads of a table with region replicas: a Get or Scan of consistency
// hrpc.Timeline goes to the region's primary replica and, when it has not answered within
// the hedge delay, to the secondary replicas too; a result a secondary gave is marked Stale.
// (fakehbase serves one replica per region, so here the primary answers.)
func ExampleWithHedgeDelay() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()),
		hbase.WithHedgeDelay(5*time.Millisecond), // Java's default is 10 ms
		hbase.WithHedgeBudget(0.05))              // at most 5% of Timeline reads hedged while primaries answer
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Three replicas of every region (the servers need
	// hbase.region.replica.replication.enabled for the secondaries to follow writes closely).
	desc, err := hrpc.NewTableDescriptor("profiles", hrpc.WithFamily("p"), hrpc.RegionReplication(3))
	if err != nil {
		log.Fatal(err)
	}
	if err := admin.New(client).CreateTable(ctx, desc); err != nil {
		log.Fatal(err)
	}
	put, err := hrpc.NewPut("profiles", []byte("bob"), hrpc.Value([]byte("p"), []byte("name"), []byte("Bob")))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Put(ctx, put); err != nil {
		log.Fatal(err)
	}

	get, err := hrpc.NewGet("profiles", []byte("bob"), hrpc.Consistency(hrpc.Timeline))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	if err != nil {
		log.Fatal(err)
	}
	// ReplicaID: the replica that answered (0 the primary); Hedged: the secondaries were asked.
	fmt.Printf("%s stale=%v replica=%d hedged=%v\n", res.Cells[0].Value, res.Stale, res.ReplicaID, res.Hedged)

	scan, err := hrpc.NewScan("profiles", hrpc.Consistency(hrpc.Timeline))
	if err != nil {
		log.Fatal(err)
	}
	for r, err := range client.Scan(ctx, scan) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("scan: %s stale=%v\n", r.Cells[0].Row, r.Stale)
	}
	st := client.Stats()
	fmt.Println("hedges sent:", st.HedgesSent, "won:", st.HedgesWon, "stale scan rows:", st.StaleScanRows)
	// Output:
	// Bob stale=false replica=0 hedged=false
	// scan: bob stale=false
	// hedges sent: 0 won: 0 stale scan rows: 0
}

// Region lookups spread over hbase:meta's replicas, for a cluster with hbase.meta.replica.count
// above 1. The registry lists the replicas: ZooKeeper (hbase.NewClient("zk1:2181,zk2:2181",
// hbase.WithMetaReplicaLookups())) or, as here, the bootstrap servers' connection registry.
// (fakehbase has one replica of hbase:meta, so here the primary answers every lookup.)
func ExampleWithMetaReplicaLookups() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()), hbase.WithMetaReplicaLookups())
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	desc, err := hrpc.NewTableDescriptor("events", hrpc.WithFamily("e"))
	if err != nil {
		log.Fatal(err)
	}
	if err := admin.New(client).CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"))); err != nil {
		log.Fatal(err)
	}
	for _, row := range []string{"a", "z"} {
		put, err := hrpc.NewPut("events", []byte(row), hrpc.Value([]byte("e"), []byte("q"), []byte("v-"+row)))
		if err != nil {
			log.Fatal(err)
		}
		// Each region's first call looks it up: on the primary or a replica of hbase:meta.
		if _, err := client.Put(ctx, put); err != nil {
			log.Fatal(err)
		}
	}
	get, err := hrpc.NewGet("events", []byte("z"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", res.Cells[0].Value)
	// Output:
	// v-z
}
