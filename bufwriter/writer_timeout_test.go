package bufwriter_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// waitLog records, per mutation, the time from the start of its Write to its outcome.
type waitLog struct {
	mu      sync.Mutex
	written map[hrpc.Mutation]time.Time
	waited  map[hrpc.Mutation]time.Duration
	errs    map[hrpc.Mutation]error
}

func newWaitLog() *waitLog {
	return &waitLog{written: map[hrpc.Mutation]time.Time{}, waited: map[hrpc.Mutation]time.Duration{},
		errs: map[hrpc.Mutation]error{}}
}

func (l *waitLog) write(ctx context.Context, t *testing.T, w *bufwriter.Writer, m hrpc.Mutation) {
	t.Helper()
	l.mu.Lock()
	l.written[m] = time.Now()
	l.mu.Unlock()
	if err := w.Write(ctx, m); err != nil {
		t.Fatal(err)
	}
}

func (l *waitLog) outcome(o bufwriter.Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waited[o.Mutation] = time.Since(l.written[o.Mutation])
	l.errs[o.Mutation] = o.Err
}

// longest is the longest wait from Write to outcome, and the number of outcomes.
func (l *waitLog) longest() (time.Duration, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var d time.Duration
	for _, w := range l.waited {
		d = max(d, w)
	}
	return d, len(l.waited)
}

// TestWriterFlushTimeoutBoundsWait: WithFlushTimeout bounds the time from a flush's start to
// its mutations' outcomes, the wait for a flush slot (WithMaxFlushes) included. Six flushes of
// one Put each queue behind one slot while the server takes 300 ms per Put: before the
// timeout covered the wait for a slot, the sixth Put's outcome came about 1.8 s after its
// Write, three times its 600 ms flush timeout. Now every outcome comes within the timeout
// (plus a margin for a loaded machine), and the flushes that found no slot in time fail as
// never sent: a timeout, not indeterminate, and not applied.
func TestWriterFlushTimeoutBoundsWait(t *testing.T) {
	srv, c := writerServer(t)
	const delay, timeout, margin = 300 * time.Millisecond, 600 * time.Millisecond, 500 * time.Millisecond
	if err := srv.InjectDelay(fakehbase.Match{Op: fakehbase.OpPut, Table: "w"}, delay, 0); err != nil {
		t.Fatal(err)
	}
	l := newWaitLog()
	w, err := bufwriter.New(c, "w", bufwriter.WithFlushCount(1), bufwriter.WithMaxFlushes(1),
		bufwriter.WithFlushInterval(0), bufwriter.WithFlushTimeout(timeout), bufwriter.WithOnOutcome(l.outcome))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var puts []hrpc.Mutation
	for i := range 6 {
		p := wput(t, fmt.Sprintf("t%d", i), "v")
		puts = append(puts, p)
		l.write(ctx, t, w, p)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	longest, n := l.longest()
	if n != len(puts) {
		t.Fatalf("%d outcomes, want %d", n, len(puts))
	}
	t.Logf("longest wait from Write to outcome: %v (flush timeout %v, server delay %v per Put)", longest, timeout, delay)
	if longest > timeout+margin {
		t.Errorf("a mutation waited %v from Write to its outcome, over its flush timeout %v (+%v margin)", longest, timeout, margin)
	}
	srv.ClearFaults()
	var queued int
	for i, p := range puts {
		err := l.errs[p]
		if err == nil || errors.Is(err, hberr.ErrIndeterminate) {
			continue
		}
		queued++
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Put %d failed with %v, want the flush's deadline", i, err)
		}
		if op, ok := errors.AsType[*hberr.OpError](err); !ok || string(op.Row) != fmt.Sprintf("t%d", i) {
			t.Errorf("Put %d failed with %v, want an *hberr.OpError naming its row", i, err)
		}
		if v := readCell(t, c, fmt.Sprintf("t%d", i), "q"); v != nil {
			t.Errorf("Put %d reported failed, but its row holds %q", i, v)
		}
	}
	if queued == 0 {
		t.Error("no flush timed out waiting for its slot: the test did not queue flushes")
	}
}
