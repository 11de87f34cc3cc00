package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
)

func memOpener(st *memStore, opened *[]securityFlags) openFunc {
	return func(_ context.Context, _ *config, sec securityFlags) (store, io.Closer, error) {
		*opened = append(*opened, sec)
		return st, io.NopCloser(nil), nil
	}
}

func TestBenchmarkCompareSecurity(t *testing.T) {
	c, err := parseConfig([]string{"-local", "-compare-security", "-warmup", "0", "-ops", "300", "-rows", "500", "-regions", "2", "-concurrency", "3"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	st := newMemStore()
	var opened []securityFlags
	rep, err := benchmark(t.Context(), c, modesFor(c), memOpener(st, &opened), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 4 {
		t.Fatalf("%d clients opened, want one per mode", len(opened))
	}
	if st.len() != 500 {
		t.Errorf("load wrote %d rows, want all 500", st.len())
	}
	if len(rep.Results) != 8 {
		t.Fatalf("%d results, want 2 workloads x 4 modes", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Ops != 300 || r.Errors != 0 {
			t.Errorf("%s/%s: ops %d errors %d, want 300 and 0 over 3 rounds", r.Workload, r.Mode, r.Ops, r.Errors)
		}
		if r.Workload == string(randRead) && r.Empty != 0 {
			t.Errorf("%s/%s: %d reads found nothing after the load", r.Workload, r.Mode, r.Empty)
		}
	}
	if len(rep.Comparison) != 8 {
		t.Errorf("%d comparisons, want 8", len(rep.Comparison))
	}
	if exitCode(rep, nil) != 0 {
		t.Error("a clean run must exit 0")
	}
}

func TestBenchmarkErrorsExitNonZero(t *testing.T) {
	c, err := parseConfig([]string{"-zk", "127.0.0.1:1", "-workload", "randwrite", "-ops", "100"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	st := newMemStore()
	st.failN = 7
	var opened []securityFlags
	rep, err := benchmark(t.Context(), c, modesFor(c), memOpener(st, &opened), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if rep.totalErrors() != 14 {
		t.Errorf("%d errors, want 14", rep.totalErrors())
	}
	if exitCode(rep, nil) != 1 {
		t.Error("a run with failed operations must exit 1")
	}
}

func TestBenchmarkOpenFails(t *testing.T) {
	c, err := parseConfig([]string{"-zk", "127.0.0.1:1", "-ops", "10"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("no route")
	_, err = benchmark(t.Context(), c, modesFor(c), func(context.Context, *config, securityFlags) (store, io.Closer, error) {
		return nil, nil, boom
	}, slog.New(slog.DiscardHandler))
	if !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap the connect failure", err)
	}
}

func TestBenchmarkWarmupIsNotMeasured(t *testing.T) {
	c, err := parseConfig([]string{"-zk", "127.0.0.1:1", "-workload", "randwrite,scan", "-ops", "50", "-warmup", "30ms"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	st := newMemStore()
	var opened []securityFlags
	rep, err := benchmark(t.Context(), c, modesFor(c), memOpener(st, &opened), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if calls := st.calls.Load(); calls <= 100 {
		t.Errorf("%d calls: the warm-up did not run", calls)
	}
	for _, r := range rep.Results {
		if r.Ops != 50 {
			t.Errorf("%s: %d ops measured, want the 50 after the warm-up", r.Workload, r.Ops)
		}
	}
	if rep.Settings.WarmupSec != 0.03 {
		t.Errorf("settings warm-up %v s", rep.Settings.WarmupSec)
	}
}
