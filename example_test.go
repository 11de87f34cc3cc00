package hbase_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// The examples run against an in-process HBase (package fakehbase: no JVM, milliseconds to
// start), which the client reaches as it reaches a cluster; a program passes its cluster's
// ZooKeeper quorum (or its bootstrap servers) instead. ExampleAdmin runs against a real mini
// cluster (package hbasetest).

func Example() {
	// An in-process HBase; a program connects to its own cluster instead:
	// hbase.NewClient("zk1:2181,zk2:2181,zk3:2181").
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	// The table "users", made through the admin API (see ExampleAdmin).
	desc, err := hrpc.NewTableDescriptor("users", hrpc.WithFamily("info"))
	if err != nil {
		log.Fatal(err)
	}
	actx, acancel := context.WithTimeout(context.Background(), time.Minute)
	defer acancel()
	if err := admin.New(client).CreateTable(actx, desc); err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	put, err := hrpc.NewPut("users", []byte("alice"),
		hrpc.Value([]byte("info"), []byte("email"), []byte("alice@example.com")))
	if err != nil {
		log.Fatal(err) // bad input is reported here, before anything is sent
	}
	if _, err := client.Put(ctx, put); err != nil {
		log.Fatal(err)
	}
	get, err := hrpc.NewGet("users", []byte("alice"), hrpc.Families([]byte("info")))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	switch {
	case errors.Is(err, hberr.ErrTableNotFound):
		log.Fatal("create the table first")
	case err != nil:
		log.Fatal(err)
	}
	for _, c := range res.Cells {
		fmt.Printf("%s:%s = %s\n", c.Family, c.Qualifier, c.Value)
	}
	// Output: info:email = alice@example.com
}

func ExampleClient_Scan() {
	// An in-process HBase with a table "events" split at 2026-11-10.
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	desc, err := hrpc.NewTableDescriptor("events", hrpc.WithFamily("e"))
	if err != nil {
		log.Fatal(err)
	}
	actx, acancel := context.WithTimeout(context.Background(), time.Minute)
	defer acancel()
	if err := admin.New(client).CreateTable(actx, desc, hrpc.SplitKeys([]byte("2026-11-10"))); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	for _, day := range []string{"2026-10-31", "2026-11-01", "2026-11-15", "2026-12-01"} {
		put, err := hrpc.NewPut("events", []byte(day), hrpc.Value([]byte("e"), []byte("n"), []byte("1")))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := client.Put(ctx, put); err != nil {
			log.Fatal(err)
		}
	}
	// November's events, newest first; the table is split at 2026-11-10, so the scan crosses
	// a region boundary.
	scan, err := hrpc.NewScan("events", hrpc.Prefix([]byte("2026-11-")), hrpc.Reversed(), hrpc.Limit(100))
	if err != nil {
		log.Fatal(err)
	}
	// Breaking out of the loop early closes the scanner on the server.
	for row, err := range client.Scan(ctx, scan) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s\n", row.Cells[0].Row)
	}
	// Output:
	// 2026-11-15
	// 2026-11-01
}

func ExampleClient_SendBatch() {
	// An in-process HBase with a table "users" split at "bob", so that the batch spans two regions.
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	desc, err := hrpc.NewTableDescriptor("users", hrpc.WithFamily("info"))
	if err != nil {
		log.Fatal(err)
	}
	actx, acancel := context.WithTimeout(context.Background(), time.Minute)
	defer acancel()
	if err := admin.New(client).CreateTable(actx, desc, hrpc.SplitKeys([]byte("bob"))); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	users := []string{"alice", "bob", "carol"}
	var puts []hrpc.Batchable
	for _, user := range users {
		p, err := hrpc.NewPut("users", []byte(user),
			hrpc.Value([]byte("info"), []byte("email"), []byte(user+"@example.com")))
		if err != nil {
			log.Fatal(err)
		}
		puts = append(puts, p)
	}
	// One MultiRequest per region server, sent in parallel; results come back in call order.
	for i, r := range client.SendBatch(ctx, puts) {
		if r.Err != nil {
			log.Fatalf("put %s: %v", users[i], r.Err)
		}
	}

	var gets []hrpc.Batchable
	for _, user := range append(users, "zed") {
		g, err := hrpc.NewGet("users", []byte(user))
		if err != nil {
			log.Fatal(err)
		}
		gets = append(gets, g)
	}
	for i, r := range client.SendBatch(ctx, gets) {
		if r.Err != nil {
			fmt.Printf("get %d failed: %v\n", i, r.Err)
			continue
		}
		fmt.Printf("get %d: %d cells\n", i, len(r.Result.Cells))
	}
	// Output:
	// get 0: 1 cells
	// get 1: 1 cells
	// get 2: 1 cells
	// get 3: 0 cells
}
