package main

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// memStore is an in-memory table for the runner's tests: a sorted key list under a mutex,
// with optional injected failures and latency.
type memStore struct {
	mu      sync.Mutex
	rows    map[string][]byte
	sorted  []string // keys of rows in order, rebuilt lazily
	dirty   bool
	calls   atomic.Int64
	failN   int64 // every failN-th call fails (0: never)
	delay   time.Duration
	putKeys chan []byte // when set, every Put's key is sent here
}

var errInjected = errors.New("injected failure")

func newMemStore() *memStore { return &memStore{rows: map[string][]byte{}} }

func (m *memStore) before(ctx context.Context) error {
	n := m.calls.Add(1)
	if m.delay > 0 {
		select {
		case <-time.After(m.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if m.failN > 0 && n%m.failN == 0 {
		return errInjected
	}
	return ctx.Err()
}

func (m *memStore) Get(ctx context.Context, row []byte) (bool, error) {
	if err := m.before(ctx); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.rows[string(row)]
	return ok, nil
}

func (m *memStore) Put(ctx context.Context, row, value []byte) error {
	if err := m.before(ctx); err != nil {
		return err
	}
	if m.putKeys != nil {
		m.putKeys <- bytes.Clone(row)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.rows[string(row)]; !ok {
		m.dirty = true
	}
	m.rows[string(row)] = bytes.Clone(value)
	return nil
}

func (m *memStore) Scan(ctx context.Context, start []byte, n int) (int, error) {
	if err := m.before(ctx); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dirty {
		m.sorted = m.sorted[:0]
		for k := range m.rows {
			m.sorted = append(m.sorted, k)
		}
		slices.Sort(m.sorted)
		m.dirty = false
	}
	i, _ := slices.BinarySearch(m.sorted, string(start))
	return min(n, len(m.sorted)-i), nil
}

func (m *memStore) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.rows)
}

func (m *memStore) PutBatch(ctx context.Context, rows [][]byte, value []byte) error {
	if err := m.before(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, row := range rows {
		if _, ok := m.rows[string(row)]; !ok {
			m.dirty = true
		}
		m.rows[string(row)] = bytes.Clone(value)
	}
	return nil
}

// plainStore hides memStore's PutBatch (only the store methods are promoted), for the
// one-Put-per-row load path.
type plainStore struct{ store }
