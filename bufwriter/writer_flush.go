package bufwriter

import (
	"context"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
)

// flushLocked starts a flush of the buffer, if it holds anything. w.mu is held.
func (w *Writer) flushLocked() {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.gen++
	if len(w.buf) == 0 {
		return
	}
	f := &writerFlush{muts: w.buf, tags: w.tags, bytes: w.bufBytes, done: make(chan struct{})}
	if w.o.flushTimeout > 0 {
		f.deadline = time.Now().Add(w.o.flushTimeout)
	}
	w.lastFlush = len(w.buf)
	w.buf, w.tags, w.bufBytes = nil, nil, 0
	w.flights[f] = struct{}{}
	w.wg.Add(1)
	go w.run(f)
}

// intervalFlush is WithFlushInterval's timer: it flushes the buffer it was set for, unless that
// buffer went out already.
func (w *Writer) intervalFlush(gen uint64) {
	w.mu.Lock()
	if w.gen == gen {
		w.stats.intervalFlushes.Add(1)
		w.flushLocked()
	}
	w.mu.Unlock()
}

// run sends one flush and delivers its outcomes. The flush's deadline (WithFlushTimeout, from
// the flush's start) bounds both its wait for a flush slot (WithMaxFlushes) and its sending,
// so that no mutation waits for its outcome longer than the timeout after its flush started.
// A flush that gets no slot before its deadline, or before the writer's lifetime ends (Close
// gave up), was never sent: its mutations fail with the deadline's error or hberr.ErrClosed.
func (w *Writer) run(f *writerFlush) {
	defer w.wg.Done()
	ctx := w.lifetime
	if !f.deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, f.deadline)
		defer cancel()
	}
	start := time.Now()
	var results []hrpc.BatchResult
	select {
	case w.sem <- struct{}{}:
		if ctx.Err() != nil { // the slot came as the deadline passed
			results = w.unsent(ctx, f)
		} else {
			results = w.send(ctx, f)
		}
		<-w.sem
	case <-ctx.Done():
		results = w.unsent(ctx, f)
	}
	w.finish(f, results, time.Since(start))
}

// send sends the mutations of f as one batch, bounded by ctx (the flush's deadline and the
// writer's lifetime), and returns their results.
func (w *Writer) send(ctx context.Context, f *writerFlush) []hrpc.BatchResult {
	calls := make([]hrpc.Batchable, len(f.muts))
	for i, m := range f.muts {
		calls[i] = m
	}
	maybe := make([]bool, len(calls))
	return w.e.SendBatchSent(ctx, calls, maybe)
}

// unsent returns the results of the mutations of f, never sent because ctx ended while f
// waited for a flush slot: the writer was closed, or the flush's deadline passed.
func (w *Writer) unsent(ctx context.Context, f *writerFlush) []hrpc.BatchResult {
	cause := fmt.Errorf("%w: the writer was closed before the mutation was sent", hberr.ErrClosed)
	if w.lifetime.Err() == nil {
		cause = fmt.Errorf("the flush timeout (%v) passed while the flush waited for its turn (WithMaxFlushes %d): %w",
			w.o.flushTimeout, w.o.maxFlushes, context.Cause(ctx))
	}
	results := make([]hrpc.BatchResult, len(f.muts))
	for i, m := range f.muts {
		results[i].Err = engine.OpError(hrpcwire.Batchable(m), cause)
	}
	return results
}

// finish delivers the outcomes of f, then gives its bytes back and wakes the writers waiting
// for room. Outcomes go first, so that Flush returns only once they are delivered.
func (w *Writer) finish(f *writerFlush, results []hrpc.BatchResult, d time.Duration) {
	var applied, failed, indet int
	w.deliver.Lock()
	for i, r := range results {
		o := Outcome{Mutation: f.muts[i], Result: r.Result, Err: r.Err}
		if f.tags != nil {
			o.Tag = f.tags[i]
		}
		switch {
		case o.Err == nil:
			applied++
		case o.Indeterminate():
			indet++
		default:
			failed++
		}
		if w.o.onOutcome != nil {
			w.o.onOutcome(o)
		} else if o.Err != nil {
			w.failures = append(w.failures, o.Err)
		}
	}
	w.deliver.Unlock()
	w.stats.flushed(applied, failed, indet)
	w.mu.Lock()
	w.held -= f.bytes
	delete(w.flights, f)
	held := w.held
	if !w.closed {
		close(w.room)
		w.room = make(chan struct{})
	}
	w.mu.Unlock()
	w.observeFlush(f, applied, failed, indet, d, held)
	close(f.done)
}
