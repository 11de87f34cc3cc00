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
	"github.com/go-hbase/hbase/admin"
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

// TestIntegrationPrometheusScrape: after a table created with the Admin, real Puts, Gets, a
// Get of a missing table, a batch and a scan, a scrape of the registry shows the calls by
// operation and class (the Admin's and the batch's too), the RPC latency of the one region
// server and of the master, the lookups, the cache and the connection. The same calls seen
// by a Metrics made WithoutServerLabel have no server label anywhere.
func TestIntegrationPrometheusScrape(t *testing.T) {
	cl := shared.Cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const table = "prom_scrape"

	m, err := hbaseprom.New()
	if err != nil {
		t.Fatal(err)
	}
	lean, err := hbaseprom.New(hbaseprom.WithoutServerLabel())
	if err != nil {
		t.Fatal(err)
	}
	c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent), hbase.WithHooks(m.Hooks()),
		hbase.WithHooks(lean.Hooks()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m.Watch(c)
	lean.Watch(c)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	leanReg := prometheus.NewPedanticRegistry()
	leanReg.MustRegister(lean)

	desc, err := hrpc.NewTableDescriptor(table, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.New(c).CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.DisableTable(ctx, table); _ = cl.DropTable(ctx, table) }()
	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions = %v, %v", regions, err)
	}
	server := regions[0].Addr

	const n = 10
	for i := range n {
		row := []byte{'r', byte('0' + i)}
		put, _ := hrpc.NewPut(table, row, hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if _, err := c.Put(ctx, put); err != nil {
			t.Fatal(err)
		}
		get, _ := hrpc.NewGet(table, row)
		if _, err := c.Get(ctx, get); err != nil {
			t.Fatal(err)
		}
	}
	missing, _ := hrpc.NewGet("no_such_table", []byte("r"))
	if _, err := c.Get(ctx, missing); !hberr.IsNotFound(err) {
		t.Fatalf("Get of a missing table = %v, want not found", err)
	}
	var batch []hrpc.Batchable
	for i := range n {
		get, _ := hrpc.NewGet(table, []byte{'r', byte('0' + i)})
		batch = append(batch, get)
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("batch action %d: %v", i, r.Err)
		}
	}
	scan, _ := hrpc.NewScan(table, hrpc.TrackScanMetrics())
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

	t.Logf("scrape:\n%s", scrape(t, reg, func(string) bool { return true }))
	t.Logf("scrape WithoutServerLabel, the series that had one:\n%s", scrape(t, leanReg, func(line string) bool {
		return strings.Contains(line, "_rpc")
	}))

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
	check("hbase_client_calls_total", map[string]string{"op": "Batch", "class": "ok"}, 1, false)
	check("hbase_client_calls_total", map[string]string{"op": "CreateTable", "class": "ok"}, 1, false)
	check("hbase_client_rpc_duration_seconds", map[string]string{"op": "Batch", "server": server}, 1, false)
	check("hbase_client_rpc_duration_seconds", map[string]string{"op": "CreateTable"}, 2, true)
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
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			for _, lp := range metric.GetLabel() {
				if lp.GetName() == "op" && lp.GetValue() == "Multi" {
					t.Errorf("%s has op=\"Multi\": a batch is \"Batch\"", f.GetName())
				}
			}
		}
	}

	leanFamilies, err := leanReg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	series := 0
	for _, f := range leanFamilies {
		for _, metric := range f.GetMetric() {
			series++
			for _, lp := range metric.GetLabel() {
				if lp.GetName() == "server" {
					t.Errorf("WithoutServerLabel: %s has a server label", f.GetName())
				}
			}
		}
	}
	got, _ := value(leanFamilies, "hbase_client_rpc_duration_seconds", map[string]string{"op": "Get"})
	want, _ := value(families, "hbase_client_rpc_duration_seconds", map[string]string{"op": "Get", "server": server})
	if got != want {
		t.Errorf("WithoutServerLabel: %v Get RPCs, the per-server metrics %v", got, want)
	}
	t.Logf("%d metric families; with WithoutServerLabel %d", len(families), len(leanFamilies))
}

// scrape is a real scrape of reg, over HTTP, as Prometheus does it, without the _bucket
// lines (docs/observability.md shows counts, not every bucket) and the lines keep refuses.
func scrape(t *testing.T, reg *prometheus.Registry, keep func(line string) bool) string {
	t.Helper()
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
		if !strings.Contains(line, "_bucket{") && keep(line) {
			shown = append(shown, line)
		}
	}
	return strings.Join(shown, "\n")
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
