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
	// writers and closedWriters count the buffered writers made and closed (-buffered).
	writers, closedWriters atomic.Int64
	counts                 map[string]int64
	checks                 map[string][]byte
}

var errInjected = errors.New("injected failure")

func newMemStore() *memStore {
	return &memStore{rows: map[string][]byte{}, counts: map[string]int64{}, checks: map[string][]byte{}}
}

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
	i, _ := slices.BinarySearch(m.keys(), string(start))
	return min(n, len(m.sorted)-i), nil
}

// keys is the sorted row keys; m.mu must be held.
func (m *memStore) keys() []string {
	if m.dirty {
		m.sorted = m.sorted[:0]
		for k := range m.rows {
			m.sorted = append(m.sorted, k)
		}
		slices.Sort(m.sorted)
		m.dirty = false
	}
	return m.sorted
}

func (m *memStore) ScanRange(ctx context.Context, start, stop []byte) (int, error) {
	if err := m.before(ctx); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keysIn(start, stop)), nil
}

// keysIn returns the sorted keys of [start, stop) (stop nil: to the end); m.mu is held.
func (m *memStore) keysIn(start, stop []byte) []string {
	keys := m.keys()
	i, _ := slices.BinarySearch(keys, string(start))
	j := len(keys)
	if stop != nil {
		j, _ = slices.BinarySearch(keys, string(stop))
	}
	return keys[i:max(i, j)]
}

func (m *memStore) Increment(ctx context.Context, row []byte) (int64, error) {
	if err := m.before(ctx); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[string(row)]++
	return m.counts[string(row)], nil
}

func (m *memStore) CheckAndMutate(ctx context.Context, row []byte) (bool, error) {
	if err := m.before(ctx); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.checks[string(row)] = bytes.Clone(row)
	return bytes.Equal(m.checks[string(row)], row), nil
}

func (m *memStore) FilterScan(ctx context.Context, value []byte) (int, error) {
	if err := m.before(ctx); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, v := range m.rows {
		if bytes.Equal(v, value) {
			n++
		}
	}
	return n, nil
}

// OpenScan snapshots the keys of [start, stop); each Next is a call of its own.
func (m *memStore) OpenScan(ctx context.Context, start, stop []byte) rowCursor {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &memCursor{m: m, ctx: ctx, keys: slices.Clone(m.keysIn(start, stop))}
}

type memCursor struct {
	m    *memStore
	ctx  context.Context
	keys []string
	read []string // the keys Next returned, in order
}

func (c *memCursor) Next() (bool, error) {
	if err := c.m.before(c.ctx); err != nil {
		return false, err
	}
	if len(c.read) == len(c.keys) {
		return false, nil
	}
	c.read = append(c.read, c.keys[len(c.read)])
	return true, nil
}

func (c *memCursor) Close() {}

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

// memWriter buffers Puts and applies them to its memStore when closed (-buffered).
type memWriter struct {
	m    *memStore
	rows [][2][]byte
}

func (m *memStore) NewPutWriter(writeBuffer int64) (putWriter, error) {
	m.writers.Add(1)
	return &memWriter{m: m}, nil
}

func (w *memWriter) Put(_ context.Context, row, value []byte) error {
	w.rows = append(w.rows, [2][]byte{bytes.Clone(row), value})
	return nil
}

func (w *memWriter) Close(ctx context.Context) (int64, error) {
	var failed int64
	for _, r := range w.rows {
		if err := w.m.Put(ctx, r[0], r[1]); err != nil {
			failed++
		}
	}
	w.m.closedWriters.Add(1)
	return failed, nil
}
