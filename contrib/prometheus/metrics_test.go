package hbaseprom_test

import (
	"context"
	"errors"
	"testing"
	"time"

	hbaseprom "github.com/go-hbase/hbase/contrib/prometheus"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/prometheus/client_golang/prometheus"
)

// The hooks feed the series they are named for (the real-cluster test shows the client
// calling them).
func TestHooksFeedSeries(t *testing.T) {
	m, err := hbaseprom.New(hbaseprom.WithNamespace("x"))
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	h := m.Hooks()
	ctx := context.Background()
	h.Attempt(ctx, hbasetrace.AttemptInfo{Op: "Get", Server: "rs1:16020", Duration: time.Millisecond, Err: errors.New("moved"), Class: "region_unavailable"})
	h.Retry(ctx, hbasetrace.RetryInfo{Op: "Get", Class: "region_unavailable"})
	h.Backoff(ctx, hbasetrace.BackoffInfo{Pause: 250 * time.Millisecond})
	h.Backoff(ctx, hbasetrace.BackoffInfo{Pause: 500 * time.Millisecond, Overloaded: true})
	h.Backoff(ctx, hbasetrace.BackoffInfo{Pause: 125 * time.Millisecond, Backpressure: true, Server: "rs1:16020"})
	h.Attempt(ctx, hbasetrace.AttemptInfo{Op: "Get", Server: "rs2:16020", Duration: time.Millisecond, Class: "ok"})
	h.CallDone(ctx, hbasetrace.CallDoneInfo{Op: "Get", Duration: 300 * time.Millisecond, Class: "ok"})
	h.ConnClosed(hbasetrace.ConnClosedInfo{Addr: "rs1:16020", Err: errors.New("reset")})
	h.WriterFlush(ctx, hbasetrace.WriterFlushInfo{Table: "t", Mutations: 3, Bytes: 300, Applied: 2, Indeterminate: 1,
		Duration: 10 * time.Millisecond})
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{
		"x_client_rpc_errors_total":                 1,
		"x_client_retries_total":                    1,
		"x_client_backoff_seconds_total":            0.875,
		"x_client_overload_pause_seconds_total":     0.5,
		"x_client_backpressure_delay_seconds_total": 0.125,
		"x_client_calls_total":                      1,
		"x_client_connections_closed_total":         1,
		"x_client_open_connections":                 0, // no client watched
	} {
		if got, ok := value(families, name, nil); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	if got, _ := value(families, "x_client_rpc_duration_seconds", map[string]string{"server": "rs2:16020"}); got != 1 {
		t.Errorf("rpc_duration_seconds{server=rs2} count = %v, want 1", got)
	}
	for outcome, want := range map[string]float64{"applied": 2, "failed": 0, "indeterminate": 1} {
		if got, ok := value(families, "x_client_writer_mutations_total", map[string]string{"table": "t", "outcome": outcome}); !ok || got != want {
			t.Errorf("writer_mutations_total{outcome=%s} = %v (present %v), want %v", outcome, got, ok, want)
		}
	}
	if got, _ := value(families, "x_client_writer_flushed_bytes_total", map[string]string{"table": "t"}); got != 300 {
		t.Errorf("writer_flushed_bytes_total = %v, want 300", got)
	}
	if got, _ := value(families, "x_client_writer_flush_duration_seconds", map[string]string{"table": "t"}); got != 1 {
		t.Errorf("writer_flush_duration_seconds count = %v, want 1", got)
	}
	if _, err := hbaseprom.New(hbaseprom.WithBuckets(2, 1)); err == nil {
		t.Error("decreasing buckets accepted")
	}
}
