package hbase_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
)

// hbasetrace.Hooks that log slow calls and every retry; these examples compile but do not run: they
// need a real deployment (contrib/prometheus and contrib/otel are hooks of this kind).
func ExampleWithHooks() {
	hooks := &hbasetrace.Hooks{
		CallDone: func(ctx context.Context, ev hbasetrace.CallDoneInfo) {
			if ev.Duration > 100*time.Millisecond {
				slog.WarnContext(ctx, "slow HBase call", "op", ev.Op, "table", string(ev.Table),
					"server", ev.Server, "attempts", ev.Attempts, "took", ev.Duration, "class", ev.Class)
			}
		},
		Retry: func(ctx context.Context, ev hbasetrace.RetryInfo) {
			slog.InfoContext(ctx, "HBase retry", "op", ev.Op, "server", ev.Server, "class", ev.Class)
		},
	}
	client, err := hbase.NewClient("zk1:2181,zk2:2181,zk3:2181", hbase.WithHooks(hooks))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// The client's state, and the latency of each region server: a slow one stands out.
func ExampleClient_ServerLatency() {
	client, err := hbase.NewClient("zk1:2181,zk2:2181,zk3:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	// ... calls ...
	st := client.Stats()
	fmt.Printf("%d connections, %d regions cached, %d retries\n", st.OpenConnections, st.CachedRegions, st.Retries)
	for _, s := range st.Servers {
		fmt.Printf("%s: %d in flight\n", s.Addr, s.InFlight)
	}
	for _, l := range client.ServerLatency() {
		fmt.Printf("%s %s: %d RPCs, p50 %v, p99 %v\n", l.Server, l.Op, l.Count, l.P50, l.P99)
	}
}

// Server-side scan metrics: rows the servers read and filtered for this scan.
func ExampleScanner_Metrics() {
	client, err := hbase.NewClient("zk1:2181,zk2:2181,zk3:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	scan, err := hrpc.NewScan([]byte("users"), hrpc.TrackScanMetrics(),
		hrpc.WithFilter(hrpc.RowFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "^a.*"}}))
	if err != nil {
		log.Fatal(err)
	}
	sc := client.NewScanner(context.Background(), scan)
	defer sc.Close()
	for sc.Next() {
		_ = sc.Result()
	}
	m := sc.Metrics()
	fmt.Printf("%d rows scanned, %d filtered, %d RPCs over %d regions\n", m.RowsScanned, m.RowsFiltered, m.RPCs, m.Regions)
}
