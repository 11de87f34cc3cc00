package hbase_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
)

func ExampleClient_CacheRegions() {
	// A fake cluster with table "events" in four regions on two servers.
	srv, err := fakehbase.Start(fakehbase.WithRegionServers(2))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("events", []string{"d"}, []byte("e3"), []byte("e5"), []byte("e8")); err != nil {
		log.Fatal(err)
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	client.ClearRegionCache("events")
	fmt.Println("cached:", client.Stats().CachedRegions)
	// One scan of hbase:meta caches every region of the table, and connects to their servers.
	if err := client.CacheRegions(ctx, "events"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("cached:", client.Stats().CachedRegions)
	// Output:
	// cached: 0
	// cached: 4
}
