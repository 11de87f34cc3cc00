package hbaseprom_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/bufwriter"
	hbaseprom "github.com/go-hbase/hbase/contrib/prometheus"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// busyClient is a client of srv that has put n rows into table "t", so that it has a
// connection, a cached region and bytes to show.
func busyClient(t *testing.T, srv *fakehbase.Server, opts ...hbase.Option) *hbase.Client {
	t.Helper()
	c, err := hbase.NewClient("", append([]hbase.Option{hbase.WithBootstrapServers(srv.Addr())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, row := range []string{"a", "b", "c"} {
		put, _ := hrpc.NewPut("t", []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if _, err := c.Put(ctx, put); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func gather(t *testing.T, reg *prometheus.Registry) []*dto.MetricFamily {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	return families
}

// A client Unwatched is not read any more nor kept alive, and the byte counters keep its
// bytes: they never go down.
func TestUnwatch(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	m, err := hbaseprom.New()
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	kept := busyClient(t, srv, hbase.WithHooks(m.Hooks()))
	defer kept.Close()
	gone := busyClient(t, srv, hbase.WithHooks(m.Hooks()))
	m.Watch(kept)
	m.Watch(gone)
	m.Watch(gone) // twice: still one
	m.Watch(nil)  // ignored

	before := gather(t, reg)
	if got, _ := value(before, "hbase_client_open_connections", nil); got != 2 {
		t.Fatalf("open_connections = %v with two clients watched, want 2", got)
	}
	written, _ := value(before, "hbase_client_written_bytes_total", nil)
	read, _ := value(before, "hbase_client_read_bytes_total", nil)
	if written == 0 || read == 0 {
		t.Fatalf("bytes written/read = %v/%v, want both above 0", written, read)
	}

	gone.Close()
	m.Unwatch(gone)
	m.Unwatch(gone) // again: nothing
	after := gather(t, reg)
	if got, _ := value(after, "hbase_client_open_connections", nil); got != 1 {
		t.Errorf("open_connections = %v after Unwatch, want 1 (the client still watched)", got)
	}
	if got, _ := value(after, "hbase_client_cached_regions", nil); got != 1 {
		t.Errorf("cached_regions = %v after Unwatch, want 1", got)
	}
	if got, _ := value(after, "hbase_client_written_bytes_total", nil); got < written {
		t.Errorf("written_bytes_total went down at Unwatch: %v, then %v", written, got)
	}
	if got, _ := value(after, "hbase_client_read_bytes_total", nil); got < read {
		t.Errorf("read_bytes_total went down at Unwatch: %v, then %v", read, got)
	}

	// Nothing of the Metrics holds the client: the garbage collector frees it.
	w := weak.Make(gone)
	gone = nil
	for i := 0; i < 20 && w.Value() != nil; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if w.Value() != nil {
		t.Error("the client Unwatched after Close is still reachable: the metrics keep it alive")
	}
	runtime.KeepAlive(m)
}

// Unwatch and Watch while scrapes run: no race (go test -race), and the byte counters never
// go down from one scrape to the next.
func TestUnwatchDuringScrapes(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	m, err := hbaseprom.New()
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var problems []string
	for range 2 {
		wg.Go(func() {
			var last float64
			for {
				select {
				case <-stop:
					return
				default:
				}
				families, err := reg.Gather()
				if err != nil {
					mu.Lock()
					problems = append(problems, err.Error())
					mu.Unlock()
					return
				}
				got, _ := value(families, "hbase_client_written_bytes_total", nil)
				if got < last {
					mu.Lock()
					problems = append(problems, "written_bytes_total went down")
					mu.Unlock()
				}
				last = got
			}
		})
	}
	for range 5 {
		c := busyClient(t, srv, hbase.WithHooks(m.Hooks()))
		m.Watch(c)
		time.Sleep(2 * time.Millisecond)
		c.Close()
		m.Unwatch(c)
	}
	close(stop)
	wg.Wait()
	for _, p := range problems {
		t.Error(p)
	}
	if got, _ := value(gather(t, reg), "hbase_client_open_connections", nil); got != 0 {
		t.Errorf("open_connections = %v with every client unwatched, want 0", got)
	}
}

// WithoutServerLabel: the RPC series have no server label, the in-flight gauge is one total,
// and the other series are as they were.
func TestWithoutServerLabel(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	m, err := hbaseprom.New(hbaseprom.WithoutServerLabel())
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	c := busyClient(t, srv, hbase.WithHooks(m.Hooks()))
	defer c.Close()
	m.Watch(c)
	srv.InjectError(fakehbase.Match{Op: "Get"}, "org.apache.hadoop.hbase.RegionTooBusyException", "busy", 1)
	get, _ := hrpc.NewGet("t", []byte("a"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Get(ctx, get); err != nil {
		t.Fatal(err)
	}
	families := gather(t, reg)
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			for _, lp := range metric.GetLabel() {
				if lp.GetName() == "server" {
					t.Errorf("%s has a server label (%s)", f.GetName(), lp.GetValue())
				}
			}
		}
	}
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"hbase_client_rpc_duration_seconds", map[string]string{"op": "Put"}, 3},
		{"hbase_client_rpc_duration_seconds", map[string]string{"op": "Get"}, 2},
		{"hbase_client_rpc_errors_total", map[string]string{"op": "Get", "class": "retryable"}, 1},
		{"hbase_client_in_flight_rpcs", nil, 0},
		{"hbase_client_calls_total", map[string]string{"op": "Get", "class": "ok"}, 1},
		{"hbase_client_open_connections", nil, 1},
	} {
		if got, ok := value(families, tc.name, tc.labels); !ok || got != tc.want {
			t.Errorf("%s%v = %v (present %v), want %v", tc.name, tc.labels, got, ok, tc.want)
		}
	}
}

// A watched buffered writer's bytes are read at each scrape; its flushes feed the writer
// series through the hooks; an unwatched one is not read.
func TestWatchWriter(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	m, err := hbaseprom.New()
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	c := busyClient(t, srv, hbase.WithHooks(m.Hooks()))
	defer c.Close()
	w, err := bufwriter.New(c, "t", bufwriter.WithFlushInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	m.WatchWriter(w)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, row := range []string{"x", "y"} {
		put, _ := hrpc.NewPut("t", []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if err := w.Write(ctx, put); err != nil {
			t.Fatal(err)
		}
	}
	want := float64(w.Stats().BufferedBytes)
	table := map[string]string{"table": "t"}
	fam := gather(t, reg)
	if got, ok := value(fam, "hbase_client_writer_buffered_bytes", table); !ok || got != want || want == 0 {
		t.Errorf("writer_buffered_bytes = %v (present %v), want %v", got, ok, want)
	}
	if got, _ := value(fam, "hbase_client_writer_held_bytes", table); got != want {
		t.Errorf("writer_held_bytes = %v, want %v", got, want)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	fam = gather(t, reg)
	if got, _ := value(fam, "hbase_client_writer_held_bytes", table); got != 0 {
		t.Errorf("writer_held_bytes after Close = %v, want 0", got)
	}
	if got, _ := value(fam, "hbase_client_writer_mutations_total", map[string]string{"table": "t", "outcome": "applied"}); got != 2 {
		t.Errorf("writer_mutations_total{outcome=applied} = %v, want 2", got)
	}
	m.UnwatchWriter(w)
	if _, ok := value(gather(t, reg), "hbase_client_writer_held_bytes", table); ok {
		t.Error("an unwatched writer is still read")
	}
}
