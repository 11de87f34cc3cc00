package main

import (
	"context"
	"math"
	"time"
)

// With -rate the run offers a fixed load: operation k (0, 1, 2, ... across all workers) is
// due at start + k/rate, whoever sends it. Its latency is measured from that intended start,
// not from when a worker got round to sending it, so a stall that keeps the workers busy
// shows in the latency of every operation that should have been sent during it (no
// coordinated omission).

// scheduleOffset is when operation k is due, after the start of the run.
func scheduleOffset(k int64, rate float64) time.Duration {
	return time.Duration(float64(k) * float64(time.Second) / rate)
}

// scheduledOps is how many operations a paced run offers: those due before duration (0: no
// limit), at most ops (0: no limit).
func scheduledOps(rate float64, duration time.Duration, ops int64) int64 {
	n := int64(math.MaxInt64)
	if duration > 0 {
		// Operation k is due before duration when k < duration*rate.
		n = int64(math.Ceil(duration.Seconds() * rate))
		if n > 0 && scheduleOffset(n-1, rate) >= duration {
			n--
		}
	}
	if ops > 0 {
		n = min(n, ops)
	}
	return n
}

// clock is the time a paced worker reads and waits on; tests replace it.
type clock interface {
	Now() time.Time
	// SleepUntil waits until t or until ctx ends, whichever is first.
	SleepUntil(ctx context.Context, t time.Time)
}

// realClock is the wall clock, with one reusable timer per worker.
type realClock struct{ timer *time.Timer }

func newRealClock() *realClock {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &realClock{timer: t}
}

func (*realClock) Now() time.Time { return time.Now() }

func (c *realClock) SleepUntil(ctx context.Context, t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	c.timer.Reset(d)
	select {
	case <-c.timer.C:
	case <-ctx.Done():
		c.timer.Stop()
	}
}
