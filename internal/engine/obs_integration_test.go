package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
)

// TestIntegrationScanMetrics: the servers' scan metrics, added up over the regions of a scan,
// match the rows of the table; a filter's dropped rows show as filtered.
func TestIntegrationScanMetrics(t *testing.T) {
	const n, regions = 300, 3
	table := createTable(t, []string{"f"}, splitKeys(n, regions))
	var mu sync.Mutex
	var reported []hbasetrace.ScanMetricsInfo
	c := newTestClient(t, WithHooks(&hbasetrace.Hooks{ScanMetrics: func(_ context.Context, ev hbasetrace.ScanMetricsInfo) {
		mu.Lock()
		reported = append(reported, ev)
		mu.Unlock()
	}}))
	rows := loadRows(t, c, table, n)

	s, err := hrpc.NewScan(table, hrpc.TrackScanMetrics(), hrpc.NumberOfRows(50))
	if err != nil {
		t.Fatal(err)
	}
	sc := c.NewScanner(testContext(t, time.Minute), s)
	got := 0
	for sc.Next() {
		got++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	m := sc.Metrics()
	sc.Close()
	t.Logf("plain scan: %d rows, metrics %+v", got, m)
	if got != len(rows) || m.RowsScanned != int64(n) || m.RowsFiltered != 0 || m.Regions != regions {
		t.Errorf("scan returned %d rows; metrics %+v; want %d rows scanned over %d regions, none filtered", got, m, n, regions)
	}
	// 100 rows per region at 50 per RPC: at least 2 RPCs per region.
	if m.RPCs < 2*regions || m.ResponseBytes == 0 || m.Retries != 0 {
		t.Errorf("metrics %+v; want at least %d RPCs, response bytes, no retries", m, 2*regions)
	}

	filtered, err := hrpc.NewScan(table, hrpc.TrackScanMetrics(), hrpc.WithFilter(hrpc.RowFilter{
		Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: ".*5$"}}))
	if err != nil {
		t.Fatal(err)
	}
	kept := scanAll(t, c, filtered, nil)
	mu.Lock()
	last := reported[len(reported)-1].Metrics
	mu.Unlock()
	t.Logf("filtered scan: %d rows, metrics %+v", len(kept), last)
	if len(kept) != n/10 || last.RowsScanned != n || last.RowsFiltered != n-n/10 {
		t.Errorf("filtered scan returned %d rows; metrics %+v; want %d returned, %d scanned, %d filtered",
			len(kept), last, n/10, n, n-n/10)
	}

	// Without TrackScanMetrics the servers send none; the client's counts are still kept.
	plain, _ := hrpc.NewScan(table)
	sc = c.NewScanner(testContext(t, time.Minute), plain)
	for sc.Next() {
	}
	if m := sc.Metrics(); m.RowsScanned != 0 || m.Server != nil || m.Regions != regions || m.RPCs < regions {
		t.Errorf("untracked scan metrics %+v; want no server metrics, %d regions", m, regions)
	}
	sc.Close()
}

// TestIntegrationServerLatencyAndStats: after Gets on regions spread over the three region
// servers, the client shows latency per server and the connections, regions and counters.
func TestIntegrationServerLatencyAndStats(t *testing.T) {
	cl := testCluster(t)
	const n, regions = 30, 3
	table := createTable(t, []string{"f"}, splitKeys(n, regions))
	ctx := testContext(t, 2*time.Minute)
	rs, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Server != i%3 {
			if err := cl.Move(ctx, r.EncodedName, i%3); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := newTestClient(t)
	rows := loadRows(t, c, table, n)
	for _, row := range rows {
		get, _ := hrpc.NewGet(table, []byte(row))
		if _, err := c.Get(ctx, get); err != nil {
			t.Fatal(err)
		}
	}
	servers := map[string]int64{}
	for _, l := range c.ServerLatency() {
		t.Logf("%s %-5s n=%d p50=%v p99=%v max=%v", l.Server, l.Op, l.Count, l.P50, l.P99, l.Max)
		if l.Op == "Get" {
			servers[l.Server] += l.Count
			if l.P50 <= 0 || l.P99 < l.P50 {
				t.Errorf("%s: p50 %v, p99 %v", l.Server, l.P50, l.P99)
			}
		}
	}
	if len(servers) != 3 {
		t.Errorf("Gets seen on %d servers (%v), want 3", len(servers), servers)
	}
	for addr, cnt := range servers {
		if cnt != n/regions {
			t.Errorf("%s: %d Gets, want %d", addr, cnt, n/regions)
		}
	}
	st := c.Stats()
	t.Logf("stats: %+v", st)
	// hbase:meta is on one of the three servers: three connections in all.
	if st.OpenConnections != 3 || st.CachedRegions != regions || st.Lookups < regions ||
		st.InFlight != 0 || st.BytesWritten == 0 || st.BytesRead == 0 {
		t.Errorf("Stats = %+v; want 3 connections, %d cached regions, at least %d lookups", st, regions, regions)
	}
	var calls uint64
	for _, s := range st.Servers {
		calls += s.Calls
	}
	if calls < uint64(n+regions) {
		t.Errorf("calls over the servers = %d, want at least %d", calls, n+regions)
	}
}
