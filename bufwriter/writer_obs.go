package bufwriter

import (
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
)

// Stats is a snapshot of a Writer's state and counters, from its creation.
// Accepted = Applied + Failed + Indeterminate + the mutations not flushed yet (Buffered and
// those of the flushes being sent).
type Stats struct {
	Accepted      uint64 // mutations Write accepted
	Refused       uint64 // mutations Write refused: full (fail-fast or the context ended), closed
	Blocked       uint64 // times a Write waited for room
	Applied       uint64 // outcomes: applied
	Failed        uint64 // outcomes: failed (not applied)
	Indeterminate uint64 // outcomes: may or may not have been applied
	Flushes       uint64 // flushes ended
	// IntervalFlushes counts the flushes WithFlushInterval started.
	IntervalFlushes uint64
	// FlushTime sums the durations of the flushes ended (their waits for a slot included).
	FlushTime time.Duration

	Buffered      int   // mutations in the buffer, not yet in a flush
	BufferedBytes int64 // their bytes
	HeldBytes     int64 // bytes held: buffered and being sent (at most the write buffer)
	PeakHeldBytes int64 // the most HeldBytes has been
	Flushing      int   // flushes not ended
}

type writerCounters struct {
	accepted, refused, blocked          atomic.Uint64
	applied, failed, indeterminate      atomic.Uint64
	flushes, intervalFlushes, flushTime atomic.Uint64
	peak                                atomic.Int64
}

func (s *writerCounters) flushed(applied, failed, indet int) {
	s.applied.Add(uint64(applied))
	s.failed.Add(uint64(failed))
	s.indeterminate.Add(uint64(indet))
}

func (s *writerCounters) noteHeld(n int64) {
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

// Table is the table the writer writes to.
func (w *Writer) Table() string { return w.table }

// Stats returns the writer's counters and what it holds now.
func (w *Writer) Stats() Stats {
	s := Stats{
		Accepted: w.stats.accepted.Load(), Refused: w.stats.refused.Load(), Blocked: w.stats.blocked.Load(),
		Applied: w.stats.applied.Load(), Failed: w.stats.failed.Load(), Indeterminate: w.stats.indeterminate.Load(),
		Flushes: w.stats.flushes.Load(), IntervalFlushes: w.stats.intervalFlushes.Load(),
		FlushTime: time.Duration(w.stats.flushTime.Load()), PeakHeldBytes: w.stats.peak.Load(),
	}
	w.mu.Lock()
	s.Buffered, s.BufferedBytes, s.HeldBytes, s.Flushing = len(w.buf), w.bufBytes, w.held, len(w.flights)
	w.mu.Unlock()
	return s
}

// observeFlush counts a flush that ended and reports it to the WriterFlush hook.
func (w *Writer) observeFlush(f *writerFlush, applied, failed, indet int, d time.Duration, held int64) {
	w.stats.flushes.Add(1)
	w.stats.flushTime.Add(uint64(d))
	if w.e.Hooks == nil || w.e.Hooks.WriterFlush == nil {
		return
	}
	w.e.Hooks.WriterFlush(w.lifetime, hbasetrace.WriterFlushInfo{Table: w.table, Mutations: len(f.muts),
		Bytes: f.bytes, Applied: applied, Failed: failed, Indeterminate: indet, Duration: d, HeldBytes: held})
}
