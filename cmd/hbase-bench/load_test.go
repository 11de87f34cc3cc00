package main

import (
	"errors"
	"io"
	"testing"
)

func TestLoadRows(t *testing.T) {
	c, err := parseConfig([]string{"-zk", "127.0.0.1:1", "-rows", "1001", "-concurrency", "3"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for name, wrap := range map[string]func(*memStore) store{
		"batched":    func(m *memStore) store { return m },
		"one by one": func(m *memStore) store { return plainStore{m} },
	} {
		t.Run(name, func(t *testing.T) {
			m := newMemStore()
			if _, err := loadRows(t.Context(), wrap(m), c); err != nil {
				t.Fatal(err)
			}
			if m.len() != 1001 {
				t.Errorf("%d rows loaded, want 1001", m.len())
			}
			for _, n := range []uint64{0, 500, 1000} {
				if found, _ := m.Get(t.Context(), appendKey(nil, n, c.KeySize)); !found {
					t.Errorf("row %d missing", n)
				}
			}
			if name == "batched" && m.calls.Load() > 1001/loadBatchRows+1+3 {
				t.Errorf("%d requests for 1001 rows: not batched", m.calls.Load())
			}
		})
	}
}

func TestLoadRowsFails(t *testing.T) {
	c, err := parseConfig([]string{"-zk", "127.0.0.1:1", "-rows", "5000"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	m := newMemStore()
	m.failN = 3
	if _, err := loadRows(t.Context(), m, c); !errors.Is(err, errInjected) {
		t.Errorf("error %v, want the injected failure", err)
	}
	if _, err := loadRows(t.Context(), plainStore{m}, c); err == nil {
		t.Error("one-by-one load with failures: no error")
	}
}
