package hbase_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
)

// The examples need a running cluster, so they are compiled but not run.

func Example() {
	client, err := hbase.NewClient("zk1:2181,zk2:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	put, err := hrpc.NewPut([]byte("users"), []byte("alice"),
		hrpc.Value([]byte("info"), []byte("email"), []byte("alice@example.com")))
	if err != nil {
		log.Fatal(err) // bad input is reported here, before anything is sent
	}
	if _, err := client.Put(ctx, put); err != nil {
		log.Fatal(err)
	}
	get, err := hrpc.NewGet([]byte("users"), []byte("alice"), hrpc.Families([]byte("info")))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	switch {
	case errors.Is(err, hbase.ErrTableNotFound):
		log.Fatal("create the table first")
	case err != nil:
		log.Fatal(err)
	}
	for _, c := range res.Cells {
		fmt.Printf("%s:%s = %s\n", c.Family, c.Qualifier, c.Value)
	}
}

func ExampleClient_Scan() {
	client, err := hbase.NewClient("localhost:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	scan, err := hrpc.NewScan([]byte("events"), hrpc.Prefix([]byte("2026-11-")), hrpc.Reversed(), hrpc.Limit(100))
	if err != nil {
		log.Fatal(err)
	}
	sc := client.Scan(ctx, scan)
	defer sc.Close() // closes the scanner on the server if the loop stops early
	for {
		row, err := sc.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s\n", row.Cells[0].Row)
	}
}

func ExampleClient_SendBatch() {
	client, err := hbase.NewClient("localhost:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	var calls []hrpc.Batchable
	for _, user := range []string{"alice", "bob", "carol"} {
		g, err := hrpc.NewGet([]byte("users"), []byte(user))
		if err != nil {
			log.Fatal(err)
		}
		calls = append(calls, g)
	}
	inc, err := hrpc.NewIncrement([]byte("stats"), []byte("lookups"), hrpc.Amount([]byte("c"), []byte("n"), 3))
	if err != nil {
		log.Fatal(err)
	}
	calls = append(calls, inc)
	// One MultiRequest per region server, sent in parallel; results come back in call order.
	for i, r := range client.SendBatch(ctx, calls) {
		if r.Err != nil {
			fmt.Printf("call %d failed: %v\n", i, r.Err)
			continue
		}
		fmt.Printf("call %d: %d cells\n", i, len(r.Result.Cells))
	}
}
