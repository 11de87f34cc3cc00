// Package hbaseprom exports the metrics of go-hbase clients to Prometheus
// (github.com/prometheus/client_golang). It is a module of its own, so that the client does
// not depend on Prometheus:
//
//	m, err := hbaseprom.New() // an error only for a bad option
//	if err != nil {
//		return err
//	}
//	client, err := hbase.NewClient(quorum, hbase.WithHooks(m.Hooks()))
//	if err != nil {
//		return err
//	}
//	defer client.Close()
//	m.Watch(client) // connections, in-flight calls, cached regions, bytes: read at each scrape
//	defer m.Unwatch(client) // before the client goes: the metrics stop reading it and let it go
//	prometheus.MustRegister(m)
//
// Latency is in seconds: per call and operation (hbase_client_call_duration_seconds) and per
// RPC, operation and server (hbase_client_rpc_duration_seconds), so that one slow server
// stands out. Calls are counted by operation and outcome class (hberr.Class: "ok",
// "timeout", "not_found"...), retries by operation and class.
//
// The op label is the operation as the caller names it: "Get", "Put", "Scan", "Batch" (a
// SendBatch, and each of its MultiRequests), and the admin.Admin methods ("CreateTable",
// "ListTables", "FlushRegion"...), whose RPCs go to the master (procedure polls included)
// or to region servers. It has a few dozen values at most.
//
// Buffered writers (package bufwriter): their flushes feed
// hbase_client_writer_flush_duration_seconds, hbase_client_writer_flushed_bytes_total and
// hbase_client_writer_mutations_total (by outcome) through the hooks, per table; WatchWriter
// adds a writer's bytes, buffered and held, read at each scrape.
//
// # Cardinality
//
// The server label (host:port) of hbase_client_rpc_duration_seconds,
// hbase_client_rpc_errors_total and hbase_client_in_flight_rpcs multiplies their series by
// the number of region servers: the latency histogram is 20 series (the default 17 buckets,
// +Inf, sum, count) per operation and server, so 5 operations in use on a 200-server cluster
// make 20,000 series per client process. WithoutServerLabel
// drops it: those series are then per operation only (the in-flight gauge a single total).
// What is lost is which server is slow, failing or loaded: a dashboard can no longer single
// out one region server. The process still knows it: hbase.Client.ServerLatency gives the
// latency per server and operation (p50 to max) for a log line or a debug page, and hooks of
// your own can log the server of slow or failed calls (hbasetrace.CallDoneInfo.Server).
package hbaseprom

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/prometheus/client_golang/prometheus"
)

// Option configures Metrics.
type Option func(*options) error

type options struct {
	namespace string
	buckets   []float64
	labels    prometheus.Labels
	noServer  bool
}

// WithNamespace sets the prefix of every metric name (default "hbase": hbase_client_...).
func WithNamespace(ns string) Option {
	return func(o *options) error {
		if ns == "" {
			return errors.New("hbaseprom: empty namespace")
		}
		o.namespace = ns
		return nil
	}
}

// WithBuckets sets the latency histograms' buckets, in seconds, increasing (default: 100 µs
// to about 6.5 s, doubling).
func WithBuckets(b ...float64) Option {
	return func(o *options) error {
		if len(b) == 0 || !slices.IsSorted(b) {
			return errors.New("hbaseprom: buckets must be given in increasing order")
		}
		o.buckets = slices.Clone(b)
		return nil
	}
}

// WithConstLabels adds labels to every metric (a client name when a process has several).
func WithConstLabels(l prometheus.Labels) Option {
	return func(o *options) error {
		o.labels = l
		return nil
	}
}

// WithoutServerLabel drops the per-server label, whose series grow with the cluster: RPC
// latency and errors are then per operation (and class) only, and RPCs in flight one total.
// See the package doc for what is lost and where to find it.
func WithoutServerLabel() Option {
	return func(o *options) error {
		o.noServer = true
		return nil
	}
}

// Metrics are the Prometheus metrics of the go-hbase clients it hooks into and watches. It is
// a prometheus.Collector: register it once.
type Metrics struct {
	perServer bool // the server label is on (not WithoutServerLabel)

	callDuration *prometheus.HistogramVec // op
	rpcDuration  *prometheus.HistogramVec // op[, server]
	calls        *prometheus.CounterVec   // op, class
	rpcErrors    *prometheus.CounterVec   // op[, server], class
	retries      *prometheus.CounterVec   // op, class
	backoff      prometheus.Counter
	overload     prometheus.Counter     // the part of backoff after overload refusals
	backpressure prometheus.Counter     // the part of backoff holding writes for servers' load
	lookups      *prometheus.CounterVec // result
	cache        *prometheus.CounterVec // result
	connects     *prometheus.CounterVec // result
	closed       *prometheus.CounterVec // result
	rowsScanned  prometheus.Counter
	rowsFiltered prometheus.Counter
	// The buffered writers' flushes (bufwriter.Writer).
	flushDuration *prometheus.HistogramVec // table
	flushedBytes  *prometheus.CounterVec   // table
	writerOutcome *prometheus.CounterVec   // table, outcome

	openConns *prometheus.Desc
	inFlight  *prometheus.Desc // [server]
	regions   *prometheus.Desc
	bytesOut  *prometheus.Desc
	bytesIn   *prometheus.Desc
	// The watched buffered writers' bytes (WatchWriter), per table.
	writerBuffered, writerHeld *prometheus.Desc
	collectors                 []prometheus.Collector

	// mu guards the watched clients; Collect holds it while it reads them, so that once
	// Unwatch has returned no scrape reads that client any more.
	mu      sync.Mutex
	clients []*hbase.Client
	writers []*bufwriter.Writer
	// the bytes of clients no longer watched, so that the byte counters never go down
	unwatchedOut, unwatchedIn uint64
}

// New returns the metrics; it fails only on a bad option.
func New(opts ...Option) (*Metrics, error) {
	o, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	f := metricMaker{ns: o.namespace, labels: o.labels, buckets: o.buckets}
	m := &Metrics{perServer: !o.noServer}
	m.makeCallMetrics(f)
	m.makeBackoffMetrics(f)
	m.makeConnectionMetrics(f)
	m.makeScanMetrics(f)
	m.makeWriterMetrics(f)
	m.makeScrapedDescs(f)
	m.collectors = []prometheus.Collector{m.callDuration, m.rpcDuration, m.calls, m.rpcErrors,
		m.retries, m.backoff, m.overload, m.backpressure, m.lookups, m.cache, m.connects, m.closed, m.rowsScanned, m.rowsFiltered,
		m.flushDuration, m.flushedBytes, m.writerOutcome}
	return m, nil
}

// applyOptions applies opts to the defaults.
func applyOptions(opts []Option) (options, error) {
	o := options{namespace: "hbase", buckets: prometheus.ExponentialBuckets(0.0001, 2, 17)}
	for _, opt := range opts {
		if opt == nil {
			return o, errors.New("hbaseprom: nil Option")
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

// metricMaker makes metrics named namespace_client_name, with the constant labels and the
// histograms' buckets of the options.
type metricMaker struct {
	ns      string
	labels  prometheus.Labels
	buckets []float64
}

const subsystem = "client"

func (f metricMaker) histogramVec(name, help string, labels ...string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: f.ns, Subsystem: subsystem,
		Name: name, Help: help, Buckets: f.buckets, ConstLabels: f.labels}, labels)
}

func (f metricMaker) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: f.ns, Subsystem: subsystem,
		Name: name, Help: help, ConstLabels: f.labels}, labels)
}

func (f metricMaker) counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Namespace: f.ns, Subsystem: subsystem,
		Name: name, Help: help, ConstLabels: f.labels})
}

func (f metricMaker) desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(f.ns, subsystem, name), help, labels, f.labels)
}

// makeCallMetrics makes the calls' and RPCs' latency and outcome metrics; the RPCs' are per
// server unless WithoutServerLabel.
func (m *Metrics) makeCallMetrics(f metricMaker) {
	rpcLabels, errLabels, per := []string{"op", "server"}, []string{"op", "server", "class"}, " per operation and server"
	if !m.perServer {
		rpcLabels, errLabels, per = []string{"op"}, []string{"op", "class"}, " per operation"
	}
	m.callDuration = f.histogramVec("call_duration_seconds",
		"Duration of calls (Get, Put, Scan, Batch, Admin calls...), retries included.", "op")
	m.rpcDuration = f.histogramVec("rpc_duration_seconds",
		"Duration of RPCs to region servers and the master,"+per+".", rpcLabels...)
	m.calls = f.counterVec("calls_total",
		"Calls by operation and outcome class (ok, timeout, not_found...).", "op", "class")
	m.rpcErrors = f.counterVec("rpc_errors_total",
		"Failed RPCs to region servers and the master by error class,"+per+".", errLabels...)
	m.retries = f.counterVec("retries_total",
		"Failed attempts that were retried, by operation and error class.", "op", "class")
}

// makeBackoffMetrics makes the counters of time spent pausing and holding writes.
func (m *Metrics) makeBackoffMetrics(f metricMaker) {
	m.backoff = f.counter("backoff_seconds_total",
		"Time spent pausing between retries and holding writes for servers' load.")
	m.overload = f.counter("overload_pause_seconds_total",
		"Time spent pausing after overloaded servers refused calls (part of backoff_seconds_total).")
	m.backpressure = f.counter("backpressure_delay_seconds_total",
		"Time writes were held for their servers' load statistics (part of backoff_seconds_total).")
}

// makeConnectionMetrics makes the counters of region lookups, the region cache and
// connections.
func (m *Metrics) makeConnectionMetrics(f metricMaker) {
	m.lookups = f.counterVec("region_lookups_total",
		"Region lookups in hbase:meta by result (ok, error).", "result")
	m.cache = f.counterVec("region_cache_total",
		"Looks into the region cache by result (hit, miss).", "result")
	m.connects = f.counterVec("connections_opened_total",
		"Connection setups to servers by result (ok, error).", "result")
	m.closed = f.counterVec("connections_closed_total",
		"Connections closed, by reason (broken, closed).", "reason")
}

// makeScanMetrics makes the counters of the scan metrics servers return.
func (m *Metrics) makeScanMetrics(f metricMaker) {
	m.rowsScanned = f.counter("scan_rows_scanned_total",
		"Rows read by the servers for scans that track scan metrics.")
	m.rowsFiltered = f.counter("scan_rows_filtered_total",
		"Rows dropped by the servers' filters for scans that track scan metrics.")
}

// makeWriterMetrics makes the metrics of the buffered writers' flushes.
func (m *Metrics) makeWriterMetrics(f metricMaker) {
	m.flushDuration = f.histogramVec("writer_flush_duration_seconds",
		"Duration of the buffered writers' flushes, per table.", "table")
	m.flushedBytes = f.counterVec("writer_flushed_bytes_total",
		"Bytes of mutations the buffered writers flushed, per table.", "table")
	m.writerOutcome = f.counterVec("writer_mutations_total",
		"Outcomes of the buffered writers' mutations (applied, failed, indeterminate), per table.", "table", "outcome")
}

// makeScrapedDescs makes the descriptions of what Collect reads from the watched clients and
// writers at each scrape; RPCs in flight are per server unless WithoutServerLabel.
func (m *Metrics) makeScrapedDescs(f metricMaker) {
	flightLabels, flightHelp := []string{"server"}, "RPCs to region servers waiting for their response, per server."
	if !m.perServer {
		flightLabels, flightHelp = nil, "RPCs to region servers waiting for their response."
	}
	m.openConns = f.desc("open_connections", "Open connections to region servers.")
	m.inFlight = f.desc("in_flight_rpcs", flightHelp, flightLabels...)
	m.regions = f.desc("cached_regions", "Regions in the region cache.")
	m.bytesOut = f.desc("written_bytes_total", "Bytes written to region server connections.")
	m.bytesIn = f.desc("read_bytes_total", "Bytes read from region server connections.")
	m.writerBuffered = f.desc("writer_buffered_bytes",
		"Bytes of mutations in the watched buffered writers' buffers, not yet in a flush, per table.", "table")
	m.writerHeld = f.desc("writer_held_bytes",
		"Bytes of mutations the watched buffered writers hold, buffered and being sent, per table.", "table")
}

// Hooks returns the hooks to give hbase.NewClient (hbase.WithHooks). One Metrics may serve
// several clients.
func (m *Metrics) Hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		CallDone: func(_ context.Context, ev hbasetrace.CallDoneInfo) {
			m.callDuration.WithLabelValues(ev.Op).Observe(ev.Duration.Seconds())
			m.calls.WithLabelValues(ev.Op, ev.Class).Inc()
		},
		Attempt: m.attempt,
		Retry: func(_ context.Context, ev hbasetrace.RetryInfo) {
			m.retries.WithLabelValues(ev.Op, ev.Class).Inc()
		},
		Backoff: func(_ context.Context, ev hbasetrace.BackoffInfo) {
			m.backoff.Add(ev.Pause.Seconds())
			switch {
			case ev.Overloaded:
				m.overload.Add(ev.Pause.Seconds())
			case ev.Backpressure:
				m.backpressure.Add(ev.Pause.Seconds())
			}
		},
		Lookup: func(ev hbasetrace.LookupInfo) {
			m.lookups.WithLabelValues(result(ev.Err)).Inc()
		},
		RegionCache: func(_ context.Context, ev hbasetrace.RegionCacheInfo) {
			if ev.Hit {
				m.cache.WithLabelValues("hit").Inc()
			} else {
				m.cache.WithLabelValues("miss").Inc()
			}
		},
		Connect: func(ev hbasetrace.ConnectInfo) { m.connects.WithLabelValues(result(ev.Err)).Inc() },
		ConnClosed: func(ev hbasetrace.ConnClosedInfo) {
			if ev.Err != nil {
				m.closed.WithLabelValues("broken").Inc()
			} else {
				m.closed.WithLabelValues("closed").Inc()
			}
		},
		ScanMetrics: func(_ context.Context, ev hbasetrace.ScanMetricsInfo) {
			m.rowsScanned.Add(float64(ev.Metrics.RowsScanned))
			m.rowsFiltered.Add(float64(ev.Metrics.RowsFiltered))
		},
		WriterFlush: func(_ context.Context, ev hbasetrace.WriterFlushInfo) {
			table := ev.Table
			m.flushDuration.WithLabelValues(table).Observe(ev.Duration.Seconds())
			m.flushedBytes.WithLabelValues(table).Add(float64(ev.Bytes))
			m.writerOutcome.WithLabelValues(table, "applied").Add(float64(ev.Applied))
			m.writerOutcome.WithLabelValues(table, "failed").Add(float64(ev.Failed))
			m.writerOutcome.WithLabelValues(table, "indeterminate").Add(float64(ev.Indeterminate))
		},
	}
}

func (m *Metrics) attempt(_ context.Context, ev hbasetrace.AttemptInfo) {
	if !m.perServer {
		m.rpcDuration.WithLabelValues(ev.Op).Observe(ev.Duration.Seconds())
		if ev.Err != nil {
			m.rpcErrors.WithLabelValues(ev.Op, ev.Class).Inc()
		}
		return
	}
	m.rpcDuration.WithLabelValues(ev.Op, ev.Server).Observe(ev.Duration.Seconds())
	if ev.Err != nil {
		m.rpcErrors.WithLabelValues(ev.Op, ev.Server, ev.Class).Inc()
	}
}

func result(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// Watch adds a client whose state (hbase.Client.Stats: open connections, RPCs in flight per
// server, cached regions, bytes) is read at each scrape, until Unwatch. Watching a client
// twice, or a nil one, does nothing.
func (m *Metrics) Watch(c *hbase.Client) {
	if c == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.clients, c) {
		m.clients = append(m.clients, c)
	}
}

// Unwatch stops reading c: once it returns, no scrape reads c and the Metrics hold no
// reference to it. Call it when c is closed (before or after Close). Its bytes stay in
// hbase_client_written_bytes_total and hbase_client_read_bytes_total, which never go down:
// Unwatch reads c's byte counts one last time (the bytes it moves afterwards are not
// counted). A client not watched is ignored. It is safe to call at any time, a scrape
// running or not.
func (m *Metrics) Unwatch(c *hbase.Client) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.Index(m.clients, c)
	if i < 0 {
		return
	}
	st := c.Stats()
	m.unwatchedOut += st.BytesWritten
	m.unwatchedIn += st.BytesRead
	m.clients = slices.Delete(m.clients, i, i+1)
}

// WatchWriter makes every scrape read w's bytes (buffered, and held: buffered and being sent)
// into hbase_client_writer_buffered_bytes{table} and hbase_client_writer_held_bytes{table},
// summed over the watched writers of a table. Its flushes feed the writer series through the
// hooks without it. Call UnwatchWriter when w is closed. Watching a writer twice is watching it
// once.
func (m *Metrics) WatchWriter(w *bufwriter.Writer) {
	if w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.writers, w) {
		m.writers = append(m.writers, w)
	}
}

// UnwatchWriter stops reading w: once it returns, no scrape reads w and the Metrics hold no
// reference to it.
func (m *Metrics) UnwatchWriter(w *bufwriter.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i := slices.Index(m.writers, w); i >= 0 {
		m.writers = slices.Delete(m.writers, i, i+1)
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range m.collectors {
		c.Describe(ch)
	}
	for _, d := range []*prometheus.Desc{m.openConns, m.inFlight, m.regions, m.bytesOut, m.bytesIn, m.writerBuffered, m.writerHeld} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	for _, c := range m.collectors {
		c.Collect(ch)
	}
	var open, regions, inFlightAll int
	inFlight := map[string]int{}
	m.mu.Lock()
	out, in := m.unwatchedOut, m.unwatchedIn
	for _, c := range m.clients {
		st := c.Stats()
		open += st.OpenConnections
		regions += st.CachedRegions
		out += st.BytesWritten
		in += st.BytesRead
		inFlightAll += st.InFlight
		if m.perServer {
			for _, s := range st.Servers {
				inFlight[s.Addr] += s.InFlight
			}
		}
	}
	buffered, held := map[string]int64{}, map[string]int64{}
	for _, w := range m.writers {
		st := w.Stats()
		buffered[w.Table()] += st.BufferedBytes
		held[w.Table()] += st.HeldBytes
	}
	m.mu.Unlock()
	for table, n := range buffered {
		ch <- prometheus.MustNewConstMetric(m.writerBuffered, prometheus.GaugeValue, float64(n), table)
		ch <- prometheus.MustNewConstMetric(m.writerHeld, prometheus.GaugeValue, float64(held[table]), table)
	}
	ch <- prometheus.MustNewConstMetric(m.openConns, prometheus.GaugeValue, float64(open))
	ch <- prometheus.MustNewConstMetric(m.regions, prometheus.GaugeValue, float64(regions))
	ch <- prometheus.MustNewConstMetric(m.bytesOut, prometheus.CounterValue, float64(out))
	ch <- prometheus.MustNewConstMetric(m.bytesIn, prometheus.CounterValue, float64(in))
	if !m.perServer {
		ch <- prometheus.MustNewConstMetric(m.inFlight, prometheus.GaugeValue, float64(inFlightAll))
		return
	}
	for addr, n := range inFlight {
		ch <- prometheus.MustNewConstMetric(m.inFlight, prometheus.GaugeValue, float64(n), addr)
	}
}
