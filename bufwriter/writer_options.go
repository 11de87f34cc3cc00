package bufwriter

import (
	"errors"
	"fmt"
	"time"
)

// Defaults of a Writer.
const (
	// DefaultWriteBuffer is the default bound on the bytes a Writer holds, as Java's
	// hbase.client.write.buffer.
	DefaultWriteBuffer = 2 << 20
	defaultMaxFlushes  = 4
	// defaultFlushInterval: without it a lone mutation would wait for Flush; Java's default
	// (0, no periodic flush) suits a program that always flushes, a surprise otherwise.
	defaultFlushInterval = time.Second
	defaultFlushTimeout  = time.Minute
)

// Option configures a Writer (New).
type Option func(*options) error

type options struct {
	bufferBytes  int64
	flushBytes   int64 // 0 until finish: half of bufferBytes
	flushCount   int
	interval     time.Duration
	maxFlushes   int
	failFast     bool
	flushTimeout time.Duration
	onOutcome    func(Outcome)
}

func defaultOptions(buffer int64) options {
	if buffer <= 0 {
		buffer = DefaultWriteBuffer
	}
	return options{bufferBytes: buffer, interval: defaultFlushInterval,
		maxFlushes: defaultMaxFlushes, flushTimeout: defaultFlushTimeout}
}

func (o *options) finish() error {
	if o.flushBytes == 0 {
		// Half: one flush can be on its way while the next one fills.
		o.flushBytes = max(o.bufferBytes/2, 1)
	}
	if o.flushBytes > o.bufferBytes {
		return fmt.Errorf("flush size %d over the write buffer %d", o.flushBytes, o.bufferBytes)
	}
	return nil
}

// WithWriteBuffer bounds the bytes of mutations (their size in memory) a Writer holds,
// buffered and being sent together. The default is the site files' hbase.client.write.buffer
// (hbase.NewClientFromConfig), DefaultWriteBuffer (2 MiB) when not set. A mutation larger than the bound is refused.
func WithWriteBuffer(bytes int64) Option {
	return func(o *options) error {
		if bytes <= 0 {
			return fmt.Errorf("WithWriteBuffer(%d): want a positive size", bytes)
		}
		o.bufferBytes = bytes
		return nil
	}
}

// WithFlushBytes starts a flush when the buffer holds this many bytes. The default is half the
// write buffer, so that one flush is sent while the next one fills; it may not exceed the
// write buffer.
func WithFlushBytes(bytes int64) Option {
	return func(o *options) error {
		if bytes <= 0 {
			return fmt.Errorf("WithFlushBytes(%d): want a positive size", bytes)
		}
		o.flushBytes = bytes
		return nil
	}
}

// WithFlushCount starts a flush when the buffer holds n mutations (Java's
// hbase.client.write.buffer.maxmutations). The default, 0, counts bytes only.
func WithFlushCount(n int) Option {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("WithFlushCount(%d): want 0 or more", n)
		}
		o.flushCount = n
		return nil
	}
}

// WithFlushInterval flushes the buffer d after its first mutation, if nothing flushed it
// before. The default is 1 s; 0 turns it off (mutations then wait for a size, a count, Flush
// or Close).
func WithFlushInterval(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 {
			return fmt.Errorf("WithFlushInterval(%v): want 0 or more", d)
		}
		o.interval = d
		return nil
	}
}

// WithMaxFlushes bounds the flushes being sent at once (default 4). A flush waiting for its
// turn still counts against the write buffer.
func WithMaxFlushes(n int) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("WithMaxFlushes(%d): want 1 or more", n)
		}
		o.maxFlushes = n
		return nil
	}
}

// WithFailFast makes Write refuse a mutation with hberr.ErrWriterFull when the writer is full,
// instead of waiting for room.
func WithFailFast() Option {
	return func(o *options) error {
		o.failFast = true
		return nil
	}
}

// WithFlushTimeout bounds the time from a flush's start to its mutations' outcomes: its wait
// for a flush slot (WithMaxFlushes) and its sending, retries included (default 1 min; 0: only
// the client's attempts cap and Close bound it). A mutation still unanswered then gets its
// outcome: failed if it never reached a server (its flush found no slot in time, or its tries
// were refused or never got out), indeterminate if it did.
//
// A flush starts when its buffer reaches WithFlushBytes or WithFlushCount,
// WithFlushInterval after the buffer's first mutation, or on Flush or Close. With the
// interval on, a mutation's outcome therefore comes at most the interval plus the timeout
// after Write accepted it, plus the time the WithOnOutcome callback spends on the outcomes
// delivered before it.
func WithFlushTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 {
			return fmt.Errorf("WithFlushTimeout(%v): want 0 or more", d)
		}
		o.flushTimeout = d
		return nil
	}
}

// WithOnOutcome delivers the outcome of every accepted mutation to fn, once each. fn is called
// from the writer's own goroutines, never concurrently with itself, after the mutation's flush
// ended and before Flush (or Close) waiting for it returns; it must not call the writer's
// Flush or Close, nor wait on a Write. Without WithOnOutcome, Flush and Close return the failures.
func WithOnOutcome(fn func(Outcome)) Option {
	return func(o *options) error {
		if fn == nil {
			return errors.New("WithOnOutcome(nil)")
		}
		o.onOutcome = fn
		return nil
	}
}
