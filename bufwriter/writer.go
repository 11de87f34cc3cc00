package bufwriter

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
)

// Writer buffers the mutations of one table and sends them in batches (SendBatch's
// machinery: grouped by region and server, each action retried on its own), as Java's
// BufferedMutator does. Build it with New.
//
// Every mutation Write accepts gets exactly one Outcome, delivered to the WithOnOutcome callback
// (or, without one, its failure returned by the next Flush or Close): applied, failed with an
// *hberr.OpError naming its row (the server refused it, or it was never sent), or
// indeterminate (errors.Is(err, hberr.ErrIndeterminate): a try reached the server and got no
// definite answer before the flush's deadline, the client's attempts cap or Close ended it;
// read the row to find out). A failed Put or Delete was not applied; an Append or Increment is
// never applied twice (each carries a nonce the server recognises a resend by). An Outcome
// names its mutation's table, row and kind, and carries the tag the mutation was written with
// (WriteTagged, WriteBatchTagged), so that a service can act on it without a map of its own.
//
// The writer holds at most WithWriteBuffer bytes of mutations (their size in memory), buffered
// and being sent together. When full, Write waits for room until its context ends, or with
// WithFailFast refuses at once with hberr.ErrWriterFull. A mutation is sent when its buffer
// reaches WithFlushBytes or WithFlushCount, WithFlushInterval after the buffer's first
// mutation, or on Flush and Close. At most WithMaxFlushes flushes are sent at once, and
// WithFlushTimeout bounds each flush from its start to its outcomes, its wait for its turn
// included.
//
// Mutations are not ordered: flushes run in parallel and each action is retried on its own, so
// two mutations of one row may be applied in either order (as with Java's BufferedMutator).
// When order matters, give them timestamps (hrpc.Timestamp) or wait for the first's outcome.
//
// A Writer is safe for concurrent use. Close it to send what it holds.
type Writer struct {
	e     *engine.Client
	table string
	o     options

	// lifetime bounds the flushes: it ends when Close gives up waiting, or with the client.
	lifetime context.Context
	stop     context.CancelFunc
	sem      chan struct{} // one token per flush being sent (WithMaxFlushes)
	wg       sync.WaitGroup

	mu       sync.Mutex
	buf      []hrpc.Mutation // accepted, not yet in a flush
	tags     []any           // the tags of buf, one each; nil while none of buf was tagged
	bufBytes int64
	held     int64         // bytes of buf and of the flushes not finished
	room     chan struct{} // closed (and replaced) when held shrinks or the writer closes
	flights  map[*writerFlush]struct{}
	closed   bool
	gen      uint64      // counts buffers: the interval timer flushes only the one it was set for
	timer    *time.Timer // WithFlushInterval's timer of the current buffer
	failures []error     // failed and indeterminate outcomes kept for Flush without WithOnOutcome

	// lastFlush is the length of the last buffer flushed (under mu): the next one is made that
	// large at once rather than by append's doublings (a flush of thousands of mutations).
	lastFlush int

	deliver sync.Mutex // serialises the calls of WithOnOutcome
	stats   writerCounters
}

// writerFlush is one flush: the mutations it sends (and their tags, nil when none was tagged),
// its deadline (zero without a flush timeout) and the channel closed once their outcomes are
// delivered.
type writerFlush struct {
	muts     []hrpc.Mutation
	tags     []any
	bytes    int64
	deadline time.Time
	done     chan struct{}
}

// New returns a writer of mutations to table through c. It sends nothing until mutations are
// written; close it with Close. Its buffer defaults to the site files'
// hbase.client.write.buffer (hbase.NewClientFromConfig), else DefaultWriteBuffer.
func New(c *hbase.Client, table string, opts ...Option) (*Writer, error) {
	if table == "" {
		return nil, fmt.Errorf("bufwriter: New: %w: empty table name", hberr.ErrBadRequest)
	}
	e := engine.Of(c)
	o := defaultOptions(e.Config().WriteBuffer)
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("bufwriter: New: %w: %w", hberr.ErrBadRequest, err)
		}
	}
	if err := o.finish(); err != nil {
		return nil, fmt.Errorf("bufwriter: New: %w: %w", hberr.ErrBadRequest, err)
	}
	w := &Writer{
		e:       e,
		table:   table,
		o:       o,
		sem:     make(chan struct{}, o.maxFlushes),
		room:    make(chan struct{}),
		flights: make(map[*writerFlush]struct{}),
	}
	w.lifetime, w.stop = context.WithCancel(e.Lifetime())
	return w, nil
}

// Write accepts m, to be sent with the next flush, or refuses it with an error: a bad
// mutation (nil, another table, larger than the whole buffer) wraps hberr.ErrBadRequest, a
// full writer hberr.ErrWriterFull (with WithFailFast at once; otherwise once ctx ends, with
// ctx's error), a closed writer or client hberr.ErrClosed. A refused mutation gets no Outcome;
// an accepted one gets exactly one. ctx bounds only the wait for room: the mutation's flush is
// bounded by WithFlushTimeout.
func (w *Writer) Write(ctx context.Context, m hrpc.Mutation) error {
	return w.write(ctx, []hrpc.Mutation{m}, nil)
}

// WriteTagged is Write with a tag: any value of the caller's (an order id, an event, a
// channel to answer on), handed back untouched in the mutation's Outcome.Tag, so that the
// outcome can be tied to what the mutation stands for without a map of the caller's own. The
// writer keeps the tag until the outcome is delivered.
func (w *Writer) WriteTagged(ctx context.Context, m hrpc.Mutation, tag any) error {
	return w.write(ctx, []hrpc.Mutation{m}, []any{tag})
}

// WriteBatch accepts all of ms or none of them, as Write accepts one.
func (w *Writer) WriteBatch(ctx context.Context, ms []hrpc.Mutation) error {
	return w.write(ctx, ms, nil)
}

// WriteBatchTagged is WriteBatch with a tag for each mutation, as WriteTagged: tags[i] is
// ms[i]'s. It refuses (hberr.ErrBadRequest) a tags slice of another length than ms.
func (w *Writer) WriteBatchTagged(ctx context.Context, ms []hrpc.Mutation, tags []any) error {
	if len(tags) != len(ms) {
		return fmt.Errorf("bufwriter: Writer.WriteBatchTagged: %w: %d tags for %d mutations",
			hberr.ErrBadRequest, len(tags), len(ms))
	}
	return w.write(ctx, ms, tags)
}

// write accepts ms (with their tags; nil when untagged) or refuses them all.
func (w *Writer) write(ctx context.Context, ms []hrpc.Mutation, tags []any) error {
	var size int64
	for i, m := range ms {
		n, err := w.check(m)
		if err != nil {
			if len(ms) > 1 {
				return fmt.Errorf("bufwriter: Writer.WriteBatch: mutation %d: %w", i, err)
			}
			return fmt.Errorf("bufwriter: Writer.Write: %w", err)
		}
		size += n
	}
	if size > w.o.bufferBytes {
		return fmt.Errorf("bufwriter: Writer: %w: mutations of %d bytes, over the writer's buffer of %d bytes",
			hberr.ErrBadRequest, size, w.o.bufferBytes)
	}
	if len(ms) == 0 {
		return nil
	}
	w.mu.Lock()
	for {
		if w.closed || w.e.IsClosed() {
			w.mu.Unlock()
			w.stats.refused.Add(uint64(len(ms)))
			return fmt.Errorf("bufwriter: Writer: %w", hberr.ErrClosed)
		}
		if w.held+size <= w.o.bufferBytes {
			break
		}
		// Full: what is buffered must be on its way, or room would never come.
		w.flushLocked()
		if w.o.failFast {
			w.mu.Unlock()
			w.stats.refused.Add(uint64(len(ms)))
			return fmt.Errorf("bufwriter: Writer: %w (%d of %d bytes held)", hberr.ErrWriterFull, w.held, w.o.bufferBytes)
		}
		room := w.room
		w.mu.Unlock()
		w.stats.blocked.Add(1)
		select {
		case <-room:
		case <-ctx.Done():
			w.stats.refused.Add(uint64(len(ms)))
			return fmt.Errorf("bufwriter: Writer: %w: %w", hberr.ErrWriterFull, ctx.Err())
		}
		w.mu.Lock()
	}
	if len(w.buf) == 0 && w.o.interval > 0 {
		gen := w.gen
		w.timer = time.AfterFunc(w.o.interval, func() { w.intervalFlush(gen) })
	}
	if w.buf == nil {
		w.buf = make([]hrpc.Mutation, 0, max(w.lastFlush, len(ms)))
	}
	w.addTags(len(ms), tags)
	w.buf = append(w.buf, ms...)
	w.bufBytes += size
	w.held += size
	w.stats.accepted.Add(uint64(len(ms)))
	w.stats.noteHeld(w.held)
	if w.bufBytes >= w.o.flushBytes || (w.o.flushCount > 0 && len(w.buf) >= w.o.flushCount) {
		w.flushLocked()
	}
	w.mu.Unlock()
	return nil
}

// addTags files the tags of n mutations about to join the buffer (tags nil: untagged). The
// buffer's tags are kept only once one of its mutations is tagged, so that untagged writes
// cost nothing for them. w.mu is held.
func (w *Writer) addTags(n int, tags []any) {
	if tags == nil && w.tags == nil {
		return
	}
	if w.tags == nil {
		w.tags = make([]any, len(w.buf), cap(w.buf))
	}
	if tags != nil {
		w.tags = append(w.tags, tags...)
		return
	}
	w.tags = slices.Grow(w.tags, n)
	added := w.tags[len(w.tags) : len(w.tags)+n]
	clear(added)
	w.tags = w.tags[:len(w.tags)+n]
}

// check returns the size m counts for in the buffer, or why it cannot be written.
func (w *Writer) check(m hrpc.Mutation) (int64, error) {
	if m == nil || isNilMutation(m) {
		return 0, fmt.Errorf("%w: nil mutation", hberr.ErrBadRequest)
	}
	wc := hrpcwire.Batchable(m)
	if wc.TableName() != w.table {
		return 0, fmt.Errorf("%w: mutation for table %q in the writer of %q", hberr.ErrBadRequest, wc.TableName(), w.table)
	}
	if s, ok := wc.(interface{ HeapSize() int }); ok {
		return int64(s.HeapSize()) + writerEntrySize, nil
	}
	return 0, fmt.Errorf("%w: %T is not a mutation", hberr.ErrBadRequest, m)
}

// writerEntrySize is what the writer keeps per mutation besides the mutation itself: its place
// in the buffer (and its tag's), the batch's call, result and attempt slots (about 100 bytes
// in a heap profile of a flush in flight, when each flush also kept a slice of Outcomes of 40
// bytes each; a tag's 16 bytes now take less than that place).
const writerEntrySize = 96

func isNilMutation(m hrpc.Mutation) bool {
	switch m := m.(type) {
	case *hrpc.Put:
		return m == nil
	case *hrpc.Delete:
		return m == nil
	case *hrpc.Append:
		return m == nil
	case *hrpc.Increment:
		return m == nil
	}
	return false
}

// Flush sends what is buffered and waits until every mutation accepted before it was called
// has its outcome delivered, or ctx ends (its error is returned; the mutations still get their
// outcomes later). Without WithOnOutcome, it returns the failures delivered since the last Flush
// (errors.Join of *hberr.OpError), and forgets them.
func (w *Writer) Flush(ctx context.Context) error {
	w.mu.Lock()
	w.flushLocked()
	wait := w.flightsLocked()
	w.mu.Unlock()
	for _, done := range wait {
		select {
		case <-done:
		case <-ctx.Done():
			return fmt.Errorf("bufwriter: Writer.Flush: %w", ctx.Err())
		}
	}
	return w.takeFailures()
}

// Close refuses later writes, sends what is buffered and waits until every accepted mutation
// has its outcome. If ctx ends first, the flushes still being sent are cancelled: their
// mutations' outcomes are then failures (never sent) or indeterminate (sent, no answer), all
// delivered before Close returns ctx's error. Without WithOnOutcome, Close returns the failures
// not yet returned by Flush. Closing a closed writer returns nil.
func (w *Writer) Close(ctx context.Context) error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.flushLocked()
	wait := w.flightsLocked()
	close(w.room) // wake the writers waiting for room: they find the writer closed
	w.mu.Unlock()
	var err error
	for _, done := range wait {
		select {
		case <-done:
			continue
		case <-ctx.Done():
			err = fmt.Errorf("bufwriter: Writer.Close: %w", ctx.Err())
		}
		break
	}
	w.stop()
	w.wg.Wait()
	return errors.Join(err, w.takeFailures())
}

// flightsLocked returns the done channels of the flushes not finished.
func (w *Writer) flightsLocked() []chan struct{} {
	wait := make([]chan struct{}, 0, len(w.flights))
	for f := range w.flights {
		wait = append(wait, f.done)
	}
	return wait
}

func (w *Writer) takeFailures() error {
	w.deliver.Lock()
	defer w.deliver.Unlock()
	err := errors.Join(w.failures...)
	w.failures = nil
	return err
}
