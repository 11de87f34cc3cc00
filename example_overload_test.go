package hbase_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// A client for heavy ingest: a longer pause after an overloaded server's refusals, writes
// slowed down when the servers report load (their hbase.client.backpressure.enabled must be
// on), a connection attribute naming the application, and a priority and request attribute
// on one Put, which server-side code (quotas, coprocessors, audit) reads from the call.
func ExampleWithOverloadPause() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()),
		hbase.WithOverloadPause(200*time.Millisecond),
		hbase.WithBackpressure(time.Second),
		hbase.WithConnectionAttribute("application", []byte("ingest")))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	desc, _ := hrpc.NewTableDescriptor("events", hrpc.WithFamily("d"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.New(client).CreateTable(ctx, desc); err != nil {
		log.Fatal(err)
	}

	// The server's call queue is full once: the Put is sent again after 100-200 ms.
	srv.InjectError(fakehbase.Match{Op: "Put"}, "org.apache.hadoop.hbase.CallQueueTooBigException",
		"Call queue is full", 1)
	put, err := hrpc.NewPut("events", []byte("e1"), hrpc.Value([]byte("d"), []byte("v"), []byte("1")),
		hrpc.Priority(5), hrpc.RequestAttribute("tenant", []byte("acme")))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Put(ctx, put); hberr.IsOverloaded(err) {
		fmt.Println("still overloaded when the context ended:", err)
	} else if err != nil {
		log.Fatal(err)
	}
	st := client.Stats()
	fmt.Println("overload refusals:", st.OverloadErrors, "pauses:", st.OverloadPauses,
		"at least 100ms:", st.OverloadPauseTime >= 100*time.Millisecond)
	// Output:
	// overload refusals: 1 pauses: 1 at least 100ms: true
}
