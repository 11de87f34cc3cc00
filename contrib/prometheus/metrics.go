// Package hbaseprom exports the metrics of go-hbase clients to Prometheus
// (github.com/prometheus/client_golang). It is a module of its own, so that the client does
// not depend on Prometheus:
//
//	m, err := hbaseprom.New() // an error only for a bad option
//	...
//	client, err := hbase.NewClient(quorum, hbase.WithHooks(m.Hooks()))
//	...
//	m.Watch(client) // connections, in-flight calls, cached regions, bytes: read at each scrape
//	prometheus.MustRegister(m)
//
// Latency is in seconds: per call and operation (hbase_client_call_duration_seconds) and per
// RPC, operation and region server (hbase_client_rpc_duration_seconds), so that one slow server
// stands out. Calls are counted by operation and outcome class (hberr.Class: "ok",
// "timeout", "not_found"...), retries by operation and class.
package hbaseprom

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/prometheus/client_golang/prometheus"
)

// Option configures Metrics.
type Option func(*options) error

type options struct {
	namespace string
	buckets   []float64
	labels    prometheus.Labels
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

// Metrics are the Prometheus metrics of the go-hbase clients it hooks into and watches. It is
// a prometheus.Collector: register it once.
type Metrics struct {
	callDuration *prometheus.HistogramVec // op
	rpcDuration  *prometheus.HistogramVec // op, server
	calls        *prometheus.CounterVec   // op, class
	rpcErrors    *prometheus.CounterVec   // op, server, class
	retries      *prometheus.CounterVec   // op, class
	backoff      prometheus.Counter
	lookups      *prometheus.CounterVec // result
	cache        *prometheus.CounterVec // result
	connects     *prometheus.CounterVec // result
	closed       *prometheus.CounterVec // result
	rowsScanned  prometheus.Counter
	rowsFiltered prometheus.Counter

	openConns  *prometheus.Desc
	inFlight   *prometheus.Desc
	regions    *prometheus.Desc
	bytesOut   *prometheus.Desc
	bytesIn    *prometheus.Desc
	collectors []prometheus.Collector

	mu      sync.Mutex
	clients []*hbase.Client
}

// New returns the metrics; it fails only on a bad option.
func New(opts ...Option) (*Metrics, error) {
	o := options{namespace: "hbase", buckets: prometheus.ExponentialBuckets(0.0001, 2, 17)}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("hbaseprom: nil Option")
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	ns, sub, cl := o.namespace, "client", o.labels
	m := &Metrics{
		callDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub,
			Name: "call_duration_seconds", Help: "Duration of calls (Get, Put, Scan, Batch...), retries included.",
			Buckets: o.buckets, ConstLabels: cl}, []string{"op"}),
		rpcDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub,
			Name: "rpc_duration_seconds", Help: "Duration of RPCs to region servers, per operation and server.",
			Buckets: o.buckets, ConstLabels: cl}, []string{"op", "server"}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "calls_total", Help: "Calls by operation and outcome class (ok, timeout, not_found...).",
			ConstLabels: cl}, []string{"op", "class"}),
		rpcErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "rpc_errors_total", Help: "Failed RPCs to region servers by operation, server and error class.",
			ConstLabels: cl}, []string{"op", "server", "class"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "retries_total", Help: "Failed attempts that were retried, by operation and error class.",
			ConstLabels: cl}, []string{"op", "class"}),
		backoff: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "backoff_seconds_total", Help: "Time spent pausing between retries.", ConstLabels: cl}),
		lookups: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "region_lookups_total", Help: "Region lookups in hbase:meta by result (ok, error).",
			ConstLabels: cl}, []string{"result"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "region_cache_total", Help: "Looks into the region cache by result (hit, miss).",
			ConstLabels: cl}, []string{"result"}),
		connects: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "connections_opened_total", Help: "Connection setups to servers by result (ok, error).",
			ConstLabels: cl}, []string{"result"}),
		closed: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "connections_closed_total", Help: "Connections closed, by reason (broken, closed).",
			ConstLabels: cl}, []string{"reason"}),
		rowsScanned: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "scan_rows_scanned_total", Help: "Rows read by the servers for scans that track scan metrics.",
			ConstLabels: cl}),
		rowsFiltered: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub,
			Name: "scan_rows_filtered_total", Help: "Rows dropped by the servers' filters for scans that track scan metrics.",
			ConstLabels: cl}),
		openConns: prometheus.NewDesc(prometheus.BuildFQName(ns, sub, "open_connections"),
			"Open connections to region servers.", nil, cl),
		inFlight: prometheus.NewDesc(prometheus.BuildFQName(ns, sub, "in_flight_rpcs"),
			"RPCs waiting for their response, per server.", []string{"server"}, cl),
		regions: prometheus.NewDesc(prometheus.BuildFQName(ns, sub, "cached_regions"),
			"Regions in the region cache.", nil, cl),
		bytesOut: prometheus.NewDesc(prometheus.BuildFQName(ns, sub, "written_bytes_total"),
			"Bytes written to region server connections.", nil, cl),
		bytesIn: prometheus.NewDesc(prometheus.BuildFQName(ns, sub, "read_bytes_total"),
			"Bytes read from region server connections.", nil, cl),
	}
	m.collectors = []prometheus.Collector{m.callDuration, m.rpcDuration, m.calls, m.rpcErrors,
		m.retries, m.backoff, m.lookups, m.cache, m.connects, m.closed, m.rowsScanned, m.rowsFiltered}
	return m, nil
}

// Hooks returns the hooks to give hbase.NewClient (hbase.WithHooks). One Metrics may serve
// several clients.
func (m *Metrics) Hooks() *hbasetrace.Hooks {
	return &hbasetrace.Hooks{
		CallDone: func(_ context.Context, ev hbasetrace.CallDoneInfo) {
			m.callDuration.WithLabelValues(ev.Op).Observe(ev.Duration.Seconds())
			m.calls.WithLabelValues(ev.Op, ev.Class).Inc()
		},
		Attempt: func(_ context.Context, ev hbasetrace.AttemptInfo) {
			m.rpcDuration.WithLabelValues(ev.Op, ev.Server).Observe(ev.Duration.Seconds())
			if ev.Err != nil {
				m.rpcErrors.WithLabelValues(ev.Op, ev.Server, ev.Class).Inc()
			}
		},
		Retry: func(_ context.Context, ev hbasetrace.RetryInfo) {
			m.retries.WithLabelValues(ev.Op, ev.Class).Inc()
		},
		Backoff: func(_ context.Context, ev hbasetrace.BackoffInfo) { m.backoff.Add(ev.Pause.Seconds()) },
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
	}
}

func result(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// Watch adds a client whose state (hbase.Client.Stats: open connections, RPCs in flight per
// server, cached regions, bytes) is read at each scrape. A closed client reads as empty.
func (m *Metrics) Watch(c *hbase.Client) {
	m.mu.Lock()
	m.clients = append(m.clients, c)
	m.mu.Unlock()
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range m.collectors {
		c.Describe(ch)
	}
	for _, d := range []*prometheus.Desc{m.openConns, m.inFlight, m.regions, m.bytesOut, m.bytesIn} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	for _, c := range m.collectors {
		c.Collect(ch)
	}
	m.mu.Lock()
	clients := slices.Clone(m.clients)
	m.mu.Unlock()
	var open, regions int
	var out, in uint64
	inFlight := map[string]int{}
	for _, c := range clients {
		st := c.Stats()
		open += st.OpenConnections
		regions += st.CachedRegions
		out += st.BytesWritten
		in += st.BytesRead
		for _, s := range st.Servers {
			inFlight[s.Addr] += s.InFlight
		}
	}
	ch <- prometheus.MustNewConstMetric(m.openConns, prometheus.GaugeValue, float64(open))
	ch <- prometheus.MustNewConstMetric(m.regions, prometheus.GaugeValue, float64(regions))
	ch <- prometheus.MustNewConstMetric(m.bytesOut, prometheus.CounterValue, float64(out))
	ch <- prometheus.MustNewConstMetric(m.bytesIn, prometheus.CounterValue, float64(in))
	for addr, n := range inFlight {
		ch <- prometheus.MustNewConstMetric(m.inFlight, prometheus.GaugeValue, float64(n), addr)
	}
}
