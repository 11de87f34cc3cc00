package hbase_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
)

// Hooks that log slow calls and every retry, and count calls by operation and outcome
// (contrib/prometheus and contrib/otel are hooks of this kind).
func ExampleWithHooks() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}

	hooks := &hbasetrace.Hooks{
		CallDone: func(ctx context.Context, ev hbasetrace.CallDoneInfo) {
			if ev.Duration > 100*time.Millisecond {
				slog.WarnContext(ctx, "slow HBase call", "op", ev.Op, "table", ev.Table,
					"server", ev.Server, "attempts", ev.Attempts, "took", ev.Duration, "class", ev.Class)
			}
			fmt.Printf("%s %s: %s after %d attempt(s)\n", ev.Op, ev.Table, ev.Class, ev.Attempts)
		},
		Retry: func(ctx context.Context, ev hbasetrace.RetryInfo) {
			slog.InfoContext(ctx, "HBase retry", "op", ev.Op, "server", ev.Server, "class", ev.Class)
		},
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()), hbase.WithHooks(hooks))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	put, err := hrpc.NewPut("users", []byte("alice"), hrpc.Value([]byte("info"), []byte("email"), []byte("a@example.com")))
	if err != nil {
		log.Fatal(err)
	}
	client.Put(ctx, put)
	get, err := hrpc.NewGet("nosuch", []byte("alice"))
	if err != nil {
		log.Fatal(err)
	}
	client.Get(ctx, get) // the region lookup finds no table: no RPC to a region server
	// Output:
	// Put users: ok after 1 attempt(s)
	// Get nosuch: not_found after 0 attempt(s)
}

// The client's state, and the latency of each region server: a slow one stands out.
func ExampleClient_ServerLatency() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range 10 {
		get, err := hrpc.NewGet("users", []byte("alice"))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := client.Get(ctx, get); err != nil {
			log.Fatal(err)
		}
	}
	st := client.Stats()
	fmt.Printf("%d regions cached, %d retries\n", st.CachedRegions, st.Retries)
	for _, l := range client.ServerLatency() {
		// l.Server is the server's host:port; l.P50, l.P99 and l.Max its latencies.
		fmt.Printf("%s: %d RPCs\n", l.Op, l.Count)
	}
	// Output:
	// 1 regions cached, 0 retries
	// Get: 10 RPCs
}

// Server-side scan metrics: rows the servers read and filtered for this scan.
func ExampleScanner_Metrics() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, user := range []string{"alice", "anna", "bob", "carol"} {
		put, err := hrpc.NewPut("users", []byte(user), hrpc.Value([]byte("info"), []byte("n"), []byte(user)))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := client.Put(ctx, put); err != nil {
			log.Fatal(err)
		}
	}

	scan, err := hrpc.NewScan("users", hrpc.TrackScanMetrics(),
		hrpc.WithFilter(hrpc.RowFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "^a.*"}}))
	if err != nil {
		log.Fatal(err)
	}
	sc := client.NewScanner(ctx, scan)
	defer sc.Close()
	for sc.Next() {
		fmt.Printf("%s\n", sc.Result().Cells[0].Row)
	}
	m := sc.Metrics()
	fmt.Printf("%d rows scanned, %d filtered, over %d region(s)\n", m.RowsScanned, m.RowsFiltered, m.Regions)
	// Output:
	// alice
	// anna
	// 4 rows scanned, 2 filtered, over 1 region(s)
}
