package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// runSpec is one bounded run of one workload.
type runSpec struct {
	Kind        workloadKind
	Mode        string // security mode label, "" outside -compare-security
	Label       string // what the progress line calls the run (default: Kind and Mode)
	Concurrency int
	Duration    time.Duration // 0: no time limit
	Ops         int64         // 0: no operation limit
	OpTimeout   time.Duration
	Rows        int64
	KeySize     int
	ValueSize   int
	ScanRows    int
	ReadRatio   float64 // mixed: the share of operations that are Gets
	// Buffered: each worker writes through a putWriter of its own (the store must be a
	// bufferedStore) flushing WriteBuffer bytes at a time, closed at the end of the run.
	Buffered    bool
	WriteBuffer int64
	// Rate, when positive, paces the run at this many operations per second across all
	// workers, latency measured from each operation's due time (pace.go).
	Rate float64
	// Interval is the width of the windows of the time series (0: no series).
	Interval time.Duration
	// Progress, when set, is called after each window.
	Progress func(progressUpdate)
	Seed     uint64
	// Seq is the next row of sequentialWrite, shared by its workers and by its rounds.
	Seq *atomic.Uint64
	// ServerCPU, when set, reads the server's CPU time before and after the run.
	ServerCPU func() (time.Duration, error)
	// newClock gives each worker its clock (tests: a fake one); nil: the wall clock.
	newClock func() clock
}

// errInterrupted is returned when the caller's context ended before the run did.
var errInterrupted = errors.New("interrupted")

// worker is one goroutine's share of a run: counters and histograms of its own, merged after
// the run so that recording a sample never contends with another worker. mu guards what the
// sampler takes each window (win, winOps, winErrs) and the totals it reads.
type worker struct {
	id     int
	rng    *rand.Rand
	clock  clock
	key    []byte
	stop   []byte
	value  []byte
	probe  []byte // filterScan's random value
	cursor rowCursor
	writer putWriter // -buffered
	// writeCtx bounds the buffered writer's Writes (writeContext); writeEnd is its deadline.
	writeCtx    context.Context
	writeCancel context.CancelFunc
	writeEnd    time.Time
	writes      int
	casN        uint64 // increment and checkAndMutate: this worker's next row
	empty       int64
	rows        int64
	reads       int64
	samples     []string

	mu      sync.Mutex
	hist    *hdrhistogram.Histogram
	win     *hdrhistogram.Histogram
	ops     int64
	errs    int64
	winOps  int64
	winErrs int64
}

// runWorkload runs spec against st until its duration or operation count is reached, and
// measures it. It returns errInterrupted (with the partial result) when ctx ends first.
// Failed operations are counted in the result, not returned.
func runWorkload(ctx context.Context, st store, spec runSpec) (*result, error) {
	if spec.Duration <= 0 && spec.Ops <= 0 {
		return nil, errors.New("unbounded run: neither a duration nor an operation count")
	}
	spec.fillDefaults()
	// Everything a worker needs is allocated before the first reading, so that the figures
	// per operation hold the operations' cost alone.
	cr := newCrew(&spec)
	if spec.Buffered {
		if err := giveWriters(st, cr.workers, spec.WriteBuffer); err != nil {
			return nil, err
		}
	}
	limit := spec.opLimit()
	var cost runCost
	cost.readBefore(&spec)
	start := time.Now()
	if spec.Duration > 0 {
		t := time.AfterFunc(spec.timeLimit(), func() { cr.stop.Store(true) })
		defer t.Stop()
	}
	smp := newSampler(cr.workers, start)
	stopSampling := spec.sample(smp)
	cr.run(ctx, st, &spec, limit)
	elapsed := time.Since(start)
	cost.readAfter(&spec)
	stopSampling()

	r := newResult(spec.Kind, spec.Mode)
	r.elapsed = elapsed
	cost.record(r)
	for _, w := range cr.workers {
		r.addWorker(w)
	}
	if spec.Interval > 0 {
		r.Series = smp.series
	}
	if spec.Rate > 0 {
		r.OfferedRate = spec.Rate
		if ctx.Err() == nil {
			r.Missed = max(0, limit-r.Ops-r.Errors)
		}
	}
	r.finish()
	if ctx.Err() != nil {
		return r, fmt.Errorf("%s: %w: %v", spec.Kind, errInterrupted, context.Cause(ctx))
	}
	return r, nil
}

// fillDefaults gives a spec without them a sequence of its own and the wall clock.
func (s *runSpec) fillDefaults() {
	if s.Seq == nil {
		s.Seq = new(atomic.Uint64)
	}
	if s.newClock == nil {
		s.newClock = func() clock { return newRealClock() }
	}
}

// crew is a run's workers and what they share: the stop signal of the run's time limit and
// the count of operations claimed. It is allocated with the workers, before the run's cost
// is read.
type crew struct {
	workers []*worker
	stop    atomic.Bool
	claimed atomic.Int64
	wg      sync.WaitGroup
}

// newCrew makes the spec's workers, each with its buffers, histograms and random source.
func newCrew(spec *runSpec) *crew {
	workers := make([]*worker, spec.Concurrency)
	for i := range workers {
		rng := rand.New(rand.NewPCG(spec.Seed, uint64(i)+1))
		w := &worker{
			id:      i,
			hist:    newHistogram(),
			win:     newWindowHistogram(),
			rng:     rng,
			clock:   spec.newClock(),
			key:     make([]byte, 0, spec.KeySize),
			stop:    make([]byte, 0, spec.KeySize),
			value:   make([]byte, spec.ValueSize),
			probe:   make([]byte, spec.ValueSize),
			samples: make([]string, 0, maxErrorSamples),
		}
		fillValue(rng, w.value)
		workers[i] = w
	}
	return &crew{workers: workers}
}

// giveWriters gives each worker a buffered writer of st that flushes writeBuffer bytes at a
// time (-buffered).
func giveWriters(st store, workers []*worker, writeBuffer int64) error {
	bs, ok := st.(bufferedStore)
	if !ok {
		return fmt.Errorf("-buffered: %T cannot write through a buffer", st)
	}
	for _, w := range workers {
		pw, err := bs.NewPutWriter(writeBuffer)
		if err != nil {
			return err
		}
		w.writer = pw
	}
	return nil
}

// opLimit is how many operations the run may claim (0: no limit): Ops, or for a paced run
// those its schedule holds.
func (s *runSpec) opLimit() int64 {
	if s.Rate > 0 {
		return scheduledOps(s.Rate, s.Duration, s.Ops)
	}
	return s.Ops
}

// timeLimit is how long after its start a run with a Duration is stopped. A paced run sends
// every operation due before the end, late or not; those still unsent an operation timeout
// after it are counted as missed.
func (s *runSpec) timeLimit() time.Duration {
	end := s.Duration
	if s.Rate > 0 {
		end += s.OpTimeout
	}
	return end
}

// run runs every worker in a goroutine of its own until the stop signal, the limit or ctx's
// end, then closes its buffered writer, and waits for them all.
func (cr *crew) run(ctx context.Context, st store, spec *runSpec, limit int64) {
	paceStart := cr.workers[0].clock.Now()
	for _, w := range cr.workers {
		cr.wg.Go(func() {
			w.run(ctx, st, spec, &cr.stop, &cr.claimed, limit, paceStart)
			w.closeWriter(ctx, spec)
		})
	}
	cr.wg.Wait()
}

// runCost holds the readings a run's cost is computed from: this process's allocations and
// CPU time, and the server's CPU time. readAfter reads them in the reverse order of
// readBefore, so that the two nest around the run.
type runCost struct {
	ms0, ms1             runtime.MemStats
	cpu0, cpu1           time.Duration
	cpuErr0, cpuErr1     error
	server0, server1     time.Duration
	serverOK0, serverOK1 bool
}

func (c *runCost) readBefore(spec *runSpec) {
	runtime.ReadMemStats(&c.ms0)
	c.server0, c.serverOK0 = spec.serverCPU()
	c.cpu0, c.cpuErr0 = selfCPU()
}

func (c *runCost) readAfter(spec *runSpec) {
	c.cpu1, c.cpuErr1 = selfCPU()
	c.server1, c.serverOK1 = spec.serverCPU()
	runtime.ReadMemStats(&c.ms1)
}

// record puts the run's cost into r: the CPU times when both their readings were made, and
// the allocations.
func (c *runCost) record(r *result) {
	if c.cpuErr0 == nil && c.cpuErr1 == nil {
		r.cpu = c.cpu1 - c.cpu0
	}
	if c.serverOK0 && c.serverOK1 {
		r.server, r.serverKnown = c.server1-c.server0, true
	}
	r.mallocs = c.ms1.Mallocs - c.ms0.Mallocs
	r.bytes = c.ms1.TotalAlloc - c.ms0.TotalAlloc
}

// addWorker adds w's counts, latencies and error samples into r.
func (r *result) addWorker(w *worker) {
	r.Ops += w.ops
	r.Errors += w.errs
	r.Empty += w.empty
	r.Rows += w.rows
	r.Reads += w.reads
	r.hist.Merge(w.hist)
	for _, s := range w.samples {
		r.addErrorSample(s)
	}
}

// sample starts the sampler's ticker when the spec asks for a time series; the function it
// returns stops it and closes the last, partial window.
func (s *runSpec) sample(smp *sampler) func() {
	if s.Interval <= 0 {
		return func() {}
	}
	label := s.Label
	if label == "" {
		label = string(s.Kind)
		if s.Mode != "" {
			label += " " + s.Mode
		}
	}
	done, exited := make(chan struct{}), make(chan struct{})
	report := func(p point) {
		if s.Progress != nil {
			s.Progress(progressUpdate{Label: label, Elapsed: time.Duration(p.T * float64(time.Second)),
				Planned: s.Duration, Ops: smp.ops, Errors: smp.errs, Window: p})
		}
	}
	go func() {
		defer close(exited)
		t := time.NewTicker(s.Interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				report(smp.collect(now))
			}
		}
	}()
	return func() {
		close(done)
		<-exited
		prev := smp.last
		now := time.Now()
		p := smp.collect(now)
		// A last window much shorter than the others holds too few operations for its
		// percentiles to mean much: the series (and the chart, and the progress line) leave
		// it out, unless it is the only one.
		if now.Sub(prev) < s.Interval/2 && len(smp.series) > 1 {
			smp.series = smp.series[:len(smp.series)-1]
			return
		}
		if p.Ops+p.Errors > 0 {
			report(p)
		}
	}
}

func (w *worker) run(ctx context.Context, st store, spec *runSpec, stop *atomic.Bool, claimed *atomic.Int64, limit int64, paceStart time.Time) {
	defer w.closeCursor()
	paced := spec.Rate > 0
	for !stop.Load() && ctx.Err() == nil {
		k := claimed.Add(1) - 1
		if limit > 0 && k >= limit {
			return
		}
		var begin time.Time
		if paced {
			begin = paceStart.Add(scheduleOffset(k, spec.Rate))
			w.clock.SleepUntil(ctx, begin)
			if ctx.Err() != nil || stop.Load() {
				return
			}
		} else {
			begin = w.clock.Now()
		}
		err := w.do(ctx, st, spec)
		lat := w.clock.Now().Sub(begin)
		if err != nil && ctx.Err() != nil {
			return // interrupted: the failure is ours, not the server's
		}
		w.mu.Lock()
		if err != nil {
			w.errs++
			w.winErrs++
		} else {
			w.ops++
			w.winOps++
			recordLatency(w.hist, lat)
			recordLatency(w.win, lat)
		}
		w.mu.Unlock()
		if err != nil && len(w.samples) < maxErrorSamples {
			w.samples = append(w.samples, err.Error())
		}
	}
}

// do sends one operation of spec's workload.
func (w *worker) do(ctx context.Context, st store, spec *runSpec) error {
	rows := uint64(spec.Rows)
	if spec.Kind == seqScan {
		return w.nextScanned(ctx, st, spec)
	}
	if w.writer != nil && (spec.Kind == randWrite || spec.Kind == seqWrite) {
		// A buffered Write: no deadline of its own (writeContext).
		if spec.Kind == randWrite {
			w.key = appendKey(w.key[:0], w.rng.Uint64N(rows), spec.KeySize)
		} else {
			w.key = appendKey(w.key[:0], (spec.Seq.Add(1)-1)%rows, spec.KeySize)
		}
		return w.writer.Put(w.writeContext(ctx, spec), w.key, w.value)
	}
	opCtx, cancel := context.WithTimeout(ctx, spec.OpTimeout)
	defer cancel()
	switch spec.Kind {
	case randRead:
		w.key = appendKey(w.key[:0], w.rng.Uint64N(rows), spec.KeySize)
		return w.get(opCtx, st)
	case randWrite:
		w.key = appendKey(w.key[:0], w.rng.Uint64N(rows), spec.KeySize)
		return w.put(opCtx, st)
	case seqWrite:
		w.key = appendKey(w.key[:0], (spec.Seq.Add(1)-1)%rows, spec.KeySize)
		return w.put(opCtx, st)
	case mixed:
		w.key = appendKey(w.key[:0], w.rng.Uint64N(rows), spec.KeySize)
		if w.rng.Float64() < spec.ReadRatio {
			w.reads++
			return w.get(opCtx, st)
		}
		return st.Put(opCtx, w.key, w.value)
	case scanRange10, scanRange100, scanRange1000:
		start, stop, hasStop := scanRangeRows(w.rng, rows, scanRangeOf(spec.Kind), spec.KeySize)
		w.key = appendKey(w.key[:0], start, spec.KeySize)
		var stopKey []byte
		if hasStop {
			w.stop = appendKey(w.stop[:0], stop, spec.KeySize)
			stopKey = w.stop
		}
		n, err := st.ScanRange(opCtx, w.key, stopKey)
		w.countRows(n, err)
		return err
	case randomSeekScan:
		w.key = appendKey(w.key[:0], w.rng.Uint64N(rows), spec.KeySize)
		n, err := st.Scan(opCtx, w.key, spec.ScanRows)
		w.countRows(n, err)
		return err
	case increment:
		w.key = appendKey(w.key[:0], casRow(w.casN, rows), spec.KeySize)
		w.casN++
		_, err := st.Increment(opCtx, w.key)
		return err
	case checkAndMutate:
		w.key = appendKey(w.key[:0], casRow(w.casN, rows), spec.KeySize)
		w.casN++
		ok, err := st.CheckAndMutate(opCtx, w.key)
		if err == nil && !ok {
			w.empty++
		}
		return err
	case filterScan:
		fillValue(w.rng, w.probe)
		n, err := st.FilterScan(opCtx, w.probe)
		if err == nil {
			w.rows += int64(n)
		}
		return err
	}
	return fmt.Errorf("unknown workload %q", spec.Kind)
}

func (w *worker) get(ctx context.Context, st store) error {
	found, err := st.Get(ctx, w.key)
	if err == nil && !found {
		w.empty++
	}
	return err
}

func (w *worker) countRows(n int, err error) {
	if err != nil {
		return
	}
	w.rows += int64(n)
	if n == 0 {
		w.empty++
	}
}

// nextScanned reads one row of the worker's share of the table (scan), opening the scanner
// on first use and again after its end or an error. The scanner lives as long as the run:
// -op-timeout does not bound its rows.
func (w *worker) nextScanned(ctx context.Context, st store, spec *runSpec) error {
	for range 2 { // at the end of the share, start over once
		if w.cursor == nil {
			lo, hi := scanShare(w.id, spec.Concurrency, uint64(spec.Rows))
			w.key = appendKey(w.key[:0], lo, spec.KeySize)
			var stopKey []byte
			if hi < uint64(spec.Rows) {
				w.stop = appendKey(w.stop[:0], hi, spec.KeySize)
				stopKey = w.stop
			}
			w.cursor = st.OpenScan(ctx, w.key, stopKey)
		}
		ok, err := w.cursor.Next()
		if err != nil {
			w.closeCursor()
			return err
		}
		if ok {
			w.rows++
			return nil
		}
		w.closeCursor()
	}
	w.empty++ // the share holds no row
	return nil
}

func (w *worker) closeCursor() {
	if w.cursor != nil {
		w.cursor.Close()
		w.cursor = nil
	}
}

// serverCPU reads the server's CPU time; false when there is no reading.
func (s *runSpec) serverCPU() (time.Duration, bool) {
	if s.ServerCPU == nil {
		return 0, false
	}
	d, err := s.ServerCPU()
	return d, err == nil
}

// put writes w.key: through the worker's buffered writer (-buffered), or at once.
func (w *worker) put(ctx context.Context, st store) error {
	if w.writer != nil {
		return w.writer.Put(ctx, w.key, w.value)
	}
	return st.Put(ctx, w.key, w.value)
}

// writeContext is the context of a buffered Write: one whose deadline is between half of
// OpTimeout and OpTimeout away, made anew (checked every 256 Writes) when half spent. A Write
// returns at once unless its writer is full, so a context with a deadline (a timer) of its
// own per Write, as the other operations have, would cost more than the Write itself (a
// fifth of the process's CPU in a buffered sequentialWrite run).
func (w *worker) writeContext(ctx context.Context, spec *runSpec) context.Context {
	if w.writes++; w.writeCtx == nil || (w.writes%256 == 0 && time.Until(w.writeEnd) < spec.OpTimeout/2) {
		if w.writeCancel != nil {
			w.writeCancel()
		}
		w.writeEnd = time.Now().Add(spec.OpTimeout)
		w.writeCtx, w.writeCancel = context.WithDeadline(ctx, w.writeEnd)
	}
	return w.writeCtx
}

// closeWriter closes the worker's buffered writer (-buffered): it sends what is buffered, within
// the run's time, and counts the Puts that failed then as the run's errors (their Writes were
// counted as operations when accepted).
func (w *worker) closeWriter(ctx context.Context, spec *runSpec) {
	if w.writer == nil {
		return
	}
	if w.writeCancel != nil {
		defer w.writeCancel()
	}
	cctx, cancel := context.WithTimeout(ctx, spec.OpTimeout)
	defer cancel()
	failed, err := w.writer.Close(cctx)
	w.writer = nil
	if err != nil && len(w.samples) < maxErrorSamples {
		w.samples = append(w.samples, err.Error())
	}
	if failed > 0 {
		w.mu.Lock()
		w.errs += failed
		w.mu.Unlock()
	}
}
