package main

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestScheduleOffset(t *testing.T) {
	for _, tc := range []struct {
		k    int64
		rate float64
		want time.Duration
	}{{0, 1000, 0}, {1, 1000, time.Millisecond}, {2500, 1000, 2500 * time.Millisecond}, {3, 3, time.Second}, {1, 0.5, 2 * time.Second}} {
		if got := scheduleOffset(tc.k, tc.rate); got != tc.want {
			t.Errorf("scheduleOffset(%d, %v) = %v, want %v", tc.k, tc.rate, got, tc.want)
		}
	}
}

func TestScheduledOps(t *testing.T) {
	for _, tc := range []struct {
		rate     float64
		duration time.Duration
		ops      int64
		want     int64
	}{
		{1000, time.Second, 0, 1000},                    // due at 0 .. 999 ms
		{1000, time.Second + time.Microsecond, 0, 1001}, // and one at 1 s
		{3, time.Second, 0, 3},
		{2.5, time.Second, 0, 3}, // 0, 400, 800 ms
		{1000, time.Second, 10, 10},
		{1000, 0, 42, 42},
		{0.5, time.Second, 0, 1},
	} {
		if got := scheduledOps(tc.rate, tc.duration, tc.ops); got != tc.want {
			t.Errorf("scheduledOps(%v, %v, %d) = %d, want %d", tc.rate, tc.duration, tc.ops, got, tc.want)
		}
	}
}

// fakeClock is time that passes only when a worker sleeps or an operation takes time.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) SleepUntil(_ context.Context, t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// slowStore is a store whose Gets take the fake time its plan says, one entry per call.
type slowStore struct {
	nopStore
	clock *fakeClock
	plan  []time.Duration
	calls int
}

func (s *slowStore) Get(context.Context, []byte) (bool, error) {
	s.clock.advance(s.plan[s.calls%len(s.plan)])
	s.calls++
	return true, nil
}

// TestPacedLatencyFromDueTime: one caller at 1000 ops/s (one due every ms) against a store
// whose first Get stalls 10 ms. The operations due during the stall are sent late, and their
// latency counts from when they were due: 10, 10, 9, 8, ... ms, not the 0 ms they took once
// sent.
func TestPacedLatencyFromDueTime(t *testing.T) {
	clk := &fakeClock{now: time.Unix(1000, 0)}
	st := &slowStore{clock: clk, plan: append([]time.Duration{10 * time.Millisecond}, make([]time.Duration, 99)...)}
	spec := testSpec(randRead)
	spec.Concurrency, spec.Ops, spec.Rate = 1, 20, 1000
	spec.newClock = func() clock { return clk }
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 20 || st.calls != 20 || r.Missed != 0 || r.OfferedRate != 1000 {
		t.Fatalf("ops %d calls %d missed %d offered %v; want 20, 20, 0, 1000", r.Ops, st.calls, r.Missed, r.OfferedRate)
	}
	// Latencies: op 0 took 10 ms; op k (1..10) was due at k ms, sent at 10 ms: 10-k ms;
	// ops 11..19 were sent when due: 0 ms (recorded as the histogram's 1 µs floor).
	var want []int64
	want = append(want, 10000)
	for k := int64(1); k < 20; k++ {
		want = append(want, max(10000-k*1000, 1))
	}
	got := r.hist
	if got.TotalCount() != 20 || got.Max() < 9990 || got.Max() > 10010 {
		t.Fatalf("histogram: %d samples, max %d µs; want 20 and 10 ms", got.TotalCount(), got.Max())
	}
	var sum int64
	for _, v := range want {
		sum += v
	}
	if mean := got.Mean(); mean < float64(sum)/20*0.99 || mean > float64(sum)/20*1.01 {
		t.Errorf("mean latency %.0f µs, want %.0f (from due times)", mean, float64(sum)/20)
	}
	if r.P50Micros > 1 {
		// 10 of 20 (ops 10..19) were on time.
		t.Errorf("p50 %d µs, want the on-time half at the floor", r.P50Micros)
	}
}

// TestUnpacedLatencyFromSend: the same store without -rate: latency is the call alone.
func TestUnpacedLatencyFromSend(t *testing.T) {
	clk := &fakeClock{now: time.Unix(1000, 0)}
	st := &slowStore{clock: clk, plan: append([]time.Duration{10 * time.Millisecond}, make([]time.Duration, 99)...)}
	spec := testSpec(randRead)
	spec.Concurrency, spec.Ops = 1, 20
	spec.newClock = func() clock { return clk }
	r, err := runWorkload(t.Context(), st, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.P95Micros > 1 || r.MaxMicros < 9990 {
		t.Errorf("p95 %d max %d µs, want one 10 ms call and the rest at the floor", r.P95Micros, r.MaxMicros)
	}
	if r.OfferedRate != 0 || r.Missed != 0 {
		t.Errorf("unpaced run reports offered %v missed %d", r.OfferedRate, r.Missed)
	}
}

// TestPacedRunOffersTheSchedule: a paced, duration-bound run sends exactly the operations due
// before its end (real clock, a fast store: the count, not the timing, is checked).
func TestPacedRunOffersTheSchedule(t *testing.T) {
	spec := testSpec(randWrite)
	spec.Concurrency, spec.Rate, spec.Duration = 4, 2000, 100*time.Millisecond
	r, err := runWorkload(t.Context(), newMemStore(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops+r.Errors+r.Missed != 200 || r.Errors != 0 {
		t.Errorf("ops %d errors %d missed %d, want 200 operations offered in all", r.Ops, r.Errors, r.Missed)
	}
}
