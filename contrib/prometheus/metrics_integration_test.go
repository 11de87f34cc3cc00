package hbaseprom_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	hbaseprom "github.com/go-hbase/hbase/contrib/prometheus"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// One real single-server HBase mini cluster for the package's tests.
var shared = hbasetest.NewShared(hbasetest.Options{RegionServers: 1})

func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }

// TestIntegrationPrometheusScrape: after real Puts, Gets, a Get of a missing table and a scan,
// a scrape of the registry shows the calls by operation and class, the RPC latency of the one
// region server, the lookups, the cache and the connection.
func TestIntegrationPrometheusScrape(t *testing.T) {
	cl := shared.Cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const table = "prom_scrape"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.DisableTable(ctx, table); _ = cl.DropTable(ctx, table) }()
	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions = %v, %v", regions, err)
	}
	server := regions[0].Addr

	m, err := hbaseprom.New()
	if err != nil {
		t.Fatal(err)
	}
	c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent), hbase.WithHooks(m.Hooks()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m.Watch(c)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)

	const n = 10
	for i := range n {
		row := []byte{'r', byte('0' + i)}
		put, _ := hrpc.NewPut([]byte(table), row, hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if _, err := c.Put(ctx, put); err != nil {
			t.Fatal(err)
		}
		get, _ := hrpc.NewGet([]byte(table), row)
		if _, err := c.Get(ctx, get); err != nil {
			t.Fatal(err)
		}
	}
	missing, _ := hrpc.NewGet([]byte("no_such_table"), []byte("r"))
	if _, err := c.Get(ctx, missing); !hberr.IsNotFound(err) {
		t.Fatalf("Get of a missing table = %v, want not found", err)
	}
	scan, _ := hrpc.NewScan([]byte(table), hrpc.TrackScanMetrics())
	rows := 0
	for _, err := range c.Scan(ctx, scan) {
		if err != nil {
			t.Fatal(err)
		}
		rows++
	}
	if rows != n {
		t.Fatalf("scan returned %d rows, want %d", rows, n)
	}

	// A real scrape, over HTTP, as Prometheus does it.
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var shown []string
	for line := range strings.SplitSeq(string(body), "\n") {
		if !strings.Contains(line, "_bucket{") { // docs/observability.md shows counts, not every bucket
			shown = append(shown, line)
		}
	}
	t.Logf("scrape:\n%s", strings.Join(shown, "\n"))

	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, labels map[string]string, want float64, atLeast bool) {
		t.Helper()
		got, ok := value(families, name, labels)
		switch {
		case !ok:
			t.Errorf("%s%v: no such series", name, labels)
		case atLeast && got < want:
			t.Errorf("%s%v = %v, want at least %v", name, labels, got, want)
		case !atLeast && got != want:
			t.Errorf("%s%v = %v, want %v", name, labels, got, want)
		}
	}
	check("hbase_client_calls_total", map[string]string{"op": "Put", "class": "ok"}, n, false)
	check("hbase_client_calls_total", map[string]string{"op": "Get", "class": "ok"}, n, false)
	check("hbase_client_calls_total", map[string]string{"op": "Get", "class": "not_found"}, 1, false)
	check("hbase_client_calls_total", map[string]string{"op": "Scan", "class": "ok"}, 1, false)
	check("hbase_client_call_duration_seconds", map[string]string{"op": "Get"}, n+1, false)
	check("hbase_client_rpc_duration_seconds", map[string]string{"op": "Get", "server": server}, n, false)
	check("hbase_client_rpc_duration_seconds", map[string]string{"op": "Put", "server": server}, n, false)
	check("hbase_client_rpc_duration_seconds", map[string]string{"op": "Scan", "server": server}, 1, true)
	check("hbase_client_region_lookups_total", map[string]string{"result": "ok"}, 1, true)
	check("hbase_client_region_lookups_total", map[string]string{"result": "error"}, 1, true)
	check("hbase_client_region_cache_total", map[string]string{"result": "hit"}, 2*n-1, true)
	check("hbase_client_connections_opened_total", map[string]string{"result": "ok"}, 1, false)
	check("hbase_client_open_connections", nil, 1, false)
	check("hbase_client_in_flight_rpcs", map[string]string{"server": server}, 0, false)
	check("hbase_client_cached_regions", nil, 1, false)
	check("hbase_client_scan_rows_scanned_total", nil, n, false)
	check("hbase_client_written_bytes_total", nil, 1, true)
	if _, ok := value(families, "hbase_client_retries_total", nil); ok {
		t.Errorf("retries counted without any retry")
	}
}

// value returns the value of the series name{labels} (a histogram's sample count), and
// whether it exists.
func value(families []*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	next:
		for _, m := range f.GetMetric() {
			for k, v := range labels {
				found := false
				for _, lp := range m.GetLabel() {
					if lp.GetName() == k && lp.GetValue() == v {
						found = true
					}
				}
				if !found {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue(), true
			case m.Gauge != nil:
				return m.Gauge.GetValue(), true
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount()), true
			}
		}
	}
	return 0, false
}
