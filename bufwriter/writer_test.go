package bufwriter_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// outcomeLog collects the outcomes a writer delivers, and fails the test on a second outcome
// for one mutation.
type outcomeLog struct {
	t    testing.TB
	mu   sync.Mutex
	byM  map[hrpc.Mutation]bufwriter.Outcome
	list []bufwriter.Outcome
}

func newOutcomeLog(t testing.TB) *outcomeLog {
	return &outcomeLog{t: t, byM: make(map[hrpc.Mutation]bufwriter.Outcome)}
}

func (l *outcomeLog) add(o bufwriter.Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if prev, dup := l.byM[o.Mutation]; dup {
		l.t.Errorf("second outcome for one mutation: %v after %v", o.Err, prev.Err)
	}
	l.byM[o.Mutation] = o
	l.list = append(l.list, o)
}

func (l *outcomeLog) get(m hrpc.Mutation) (bufwriter.Outcome, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	o, ok := l.byM[m]
	return o, ok
}

func (l *outcomeLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.list)
}

// writerServer is a fakehbase with table "w" (family "f") split in three regions, and a client.
func writerServer(t *testing.T) (*fakehbase.Server, *hbase.Client) {
	t.Helper()
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("w", []string{"f"}, []byte("r1"), []byte("r5")); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return srv, c
}

func wput(t testing.TB, row, value string) *hrpc.Put {
	t.Helper()
	p, err := hrpc.NewPut("w", []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte(value)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func winc(t testing.TB, row string, d int64) *hrpc.Increment {
	t.Helper()
	m, err := hrpc.NewIncrement("w", []byte(row), hrpc.Amount([]byte("f"), []byte("n"), d))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readCell(t testing.TB, c *hbase.Client, row, q string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := hrpc.NewGet("w", []byte(row), hrpc.Columns([]byte("f"), []byte(q)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, g)
	if err != nil {
		t.Fatalf("Get %q: %v", row, err)
	}
	if len(res.Cells) == 0 {
		return nil
	}
	return res.Cells[0].Value
}

// TestWriterOutcomes writes Puts, Increments, Appends and Deletes over three regions and checks
// that each gets one outcome, applied, with the Increments' results, and that the rows hold
// what was written.
func TestWriterOutcomes(t *testing.T) {
	_, c := writerServer(t)
	log := newOutcomeLog(t)
	w, err := bufwriter.New(c, "w", bufwriter.WithOnOutcome(log.add), bufwriter.WithFlushCount(7))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var muts []hrpc.Mutation
	for i := range 30 {
		muts = append(muts, wput(t, fmt.Sprintf("r%d", i%10), fmt.Sprint(i)), winc(t, fmt.Sprintf("c%d", i%3), 1))
	}
	a, err := hrpc.NewAppend("w", []byte("r0"), hrpc.Value([]byte("f"), []byte("a"), []byte("x")))
	if err != nil {
		t.Fatal(err)
	}
	muts = append(muts, a)
	for _, m := range muts[:40] {
		if err := w.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteBatch(ctx, muts[40:]); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := log.len(); n != len(muts) {
		t.Fatalf("%d outcomes after Flush, want %d", n, len(muts))
	}
	for _, m := range muts {
		o, _ := log.get(m)
		if !o.Applied() || o.Result == nil {
			t.Errorf("outcome %+v, want applied with a result", o)
		}
	}
	for i := range 3 {
		if v := readCell(t, c, fmt.Sprintf("c%d", i), "n"); binary.BigEndian.Uint64(v) != 10 {
			t.Errorf("counter c%d = %d, want 10", i, binary.BigEndian.Uint64(v))
		}
	}
	// The writer does not order mutations of one row: r9 holds one of its Puts.
	if v := string(readCell(t, c, "r9", "q")); v != "9" && v != "19" && v != "29" {
		t.Errorf("r9 = %q, want one of its Puts", v)
	}
	st := w.Stats()
	if st.Accepted != uint64(len(muts)) || st.Applied != st.Accepted || st.Flushes != 6 || st.HeldBytes != 0 {
		t.Errorf("stats %+v", st)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, wput(t, "r1", "late")); !errors.Is(err, hberr.ErrClosed) {
		t.Errorf("Write after Close: %v, want hberr.ErrClosed", err)
	}
}

// TestWriterFailureNamesRow: a mutation the server refuses for good fails with an
// *hberr.OpError naming its row, not indeterminate; without OnOutcome, Flush returns it.
func TestWriterFailureNamesRow(t *testing.T) {
	srv, c := writerServer(t)
	srv.InjectError(fakehbase.Match{Op: "Put", Row: []byte("bad,\x00row")}, "org.apache.hadoop.hbase.DoNotRetryIOException", "refused", 0)
	w, err := bufwriter.New(c, "w")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, row := range []string{"a", "bad,\x00row", "z"} {
		if err := w.Write(ctx, wput(t, row, "v")); err != nil {
			t.Fatal(err)
		}
	}
	err = w.Flush(ctx)
	op, ok := errors.AsType[*hberr.OpError](err)
	if !ok || string(op.Row) != "bad,\x00row" || op.Table != "w" || !errors.Is(err, hberr.ErrDoNotRetry) ||
		errors.Is(err, hberr.ErrIndeterminate) {
		t.Fatalf("Flush: %v, want an OpError of row \"bad,\\x00row\"", err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Errorf("second Flush: %v, want nil (failures returned once)", err)
	}
	if string(readCell(t, c, "a", "q")) != "v" || string(readCell(t, c, "z", "q")) != "v" || readCell(t, c, "bad,\x00row", "q") != nil {
		t.Error("rows after the flush: want a and z written, the refused row not")
	}
	if st := w.Stats(); st.Applied != 2 || st.Failed != 1 {
		t.Errorf("stats %+v, want 2 applied, 1 failed", st)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestWriterFull: a writer whose bytes are all held by a flush the server delays refuses a
// mutation at once in fail-fast mode, and makes a blocking Write wait until its context ends.
// Room comes back when the flush ends.
func TestWriterFull(t *testing.T) {
	srv, c := writerServer(t)
	srv.InjectDelay(fakehbase.Match{Op: "Put", Row: []byte("slow")}, time.Second, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := wput(t, "slow", "0123456789")
	log := newOutcomeLog(t)
	// Room for about two such Puts; every Write flushes.
	w, err := bufwriter.New(c, "w", bufwriter.WithWriteBuffer(800), bufwriter.WithFlushCount(1),
		bufwriter.WithFailFast(), bufwriter.WithOnOutcome(log.add))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, wput(t, "slow", "0123456789")); err != nil {
		t.Fatal(err)
	}
	err = w.Write(ctx, wput(t, "r2", "0123456789"))
	if !errors.Is(err, hberr.ErrWriterFull) {
		t.Fatalf("Write to a full fail-fast writer: %v, want hberr.ErrWriterFull", err)
	}
	if st := w.Stats(); st.HeldBytes > 800 || st.Refused != 1 {
		t.Errorf("stats %+v", st)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}

	srv.InjectDelay(fakehbase.Match{Op: "Put", Row: []byte("slow")}, time.Second, 2)
	wb, err := bufwriter.New(c, "w", bufwriter.WithWriteBuffer(800), bufwriter.WithFlushCount(1), bufwriter.WithOnOutcome(log.add))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := wb.Write(ctx, wput(t, "slow", "0123456789")); err != nil {
			t.Fatal(err)
		}
	}
	short, cancelShort := context.WithTimeout(ctx, 50*time.Millisecond)
	err = wb.Write(short, wput(t, "r2", "0123456789"))
	cancelShort()
	if !errors.Is(err, hberr.ErrWriterFull) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("blocking Write to a full writer past its deadline: %v", err)
	}
	// Without a deadline it waits for the delayed flush and gets in.
	if err := wb.Write(ctx, wput(t, "r2", "0123456789")); err != nil {
		t.Fatalf("blocking Write: %v", err)
	}
	if err := wb.Close(ctx); err != nil {
		t.Fatal(err)
	}
	st := wb.Stats()
	if st.Blocked == 0 || st.Applied != 3 || st.PeakHeldBytes > 800 {
		t.Errorf("stats %+v", st)
	}
	if log.len() != 5 {
		t.Errorf("%d outcomes, want 5", log.len())
	}
}

// TestWriterInterval: with no size or count reached, the interval sends the buffer.
func TestWriterInterval(t *testing.T) {
	_, c := writerServer(t)
	got := make(chan bufwriter.Outcome, 1)
	w, err := bufwriter.New(c, "w", bufwriter.WithFlushInterval(20*time.Millisecond),
		bufwriter.WithOnOutcome(func(o bufwriter.Outcome) { got <- o }))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Write(ctx, wput(t, "r3", "v")); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-got:
		if !o.Applied() {
			t.Errorf("outcome %v", o.Err)
		}
	case <-ctx.Done():
		t.Fatal("no outcome without Flush")
	}
	if st := w.Stats(); st.IntervalFlushes != 1 {
		t.Errorf("stats %+v, want one interval flush", st)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestWriterCloseGivesUp: Close whose context ends while a flush is delayed by the server
// still delivers every outcome before it returns: indeterminate for the mutation sent, failed
// (hberr.ErrClosed) for the flush that never got a slot.
func TestWriterCloseGivesUp(t *testing.T) {
	srv, c := writerServer(t)
	srv.InjectDelay(fakehbase.Match{Op: "Increment"}, 2*time.Second, 1)
	log := newOutcomeLog(t)
	w, err := bufwriter.New(c, "w", bufwriter.WithFlushCount(1), bufwriter.WithMaxFlushes(1), bufwriter.WithOnOutcome(log.add))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	inc, put := winc(t, "c", 1), wput(t, "r4", "v")
	if err := w.Write(ctx, inc); err != nil {
		t.Fatal(err)
	}
	// The Increment's flush holds the only slot once the server has it.
	for srv.Calls(fakehbase.Match{Op: "Increment"}) == 0 {
		if ctx.Err() != nil {
			t.Fatal("the Increment never reached the server")
		}
		time.Sleep(time.Millisecond)
	}
	if err := w.Write(ctx, put); err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancelShort()
	if err := w.Close(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close: %v, want the deadline", err)
	}
	if log.len() != 2 {
		t.Fatalf("%d outcomes after Close, want 2", log.len())
	}
	if o, _ := log.get(inc); !o.Indeterminate() {
		t.Errorf("Increment cut off by Close: %v, want indeterminate", o.Err)
	}
	if o, _ := log.get(put); !errors.Is(o.Err, hberr.ErrClosed) || o.Indeterminate() {
		t.Errorf("Put never sent: %v, want hberr.ErrClosed", o.Err)
	}
}

// TestWriterBadInput: mutations the writer cannot take are refused, with no outcome.
func TestWriterBadInput(t *testing.T) {
	_, c := writerServer(t)
	log := newOutcomeLog(t)
	w, err := bufwriter.New(c, "w", bufwriter.WithWriteBuffer(1000), bufwriter.WithOnOutcome(log.add))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	other, err := hrpc.NewPut("other", []byte("r"), hrpc.Value([]byte("f"), []byte("q"), nil))
	if err != nil {
		t.Fatal(err)
	}
	big := wput(t, "r", string(make([]byte, 2000)))
	var nilPut *hrpc.Put
	for name, m := range map[string]hrpc.Mutation{"other table": other, "too big": big, "nil": nil, "nil put": nilPut} {
		if err := w.Write(ctx, m); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: %v, want hberr.ErrBadRequest", name, err)
		}
	}
	if err := w.WriteBatch(ctx, []hrpc.Mutation{wput(t, "r", "v"), other}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("WriteBatch with a bad mutation: %v", err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if log.len() != 0 || w.Stats().Accepted != 0 {
		t.Errorf("%d outcomes, stats %+v: want nothing accepted", log.len(), w.Stats())
	}
	for _, opt := range []bufwriter.Option{bufwriter.WithWriteBuffer(0), bufwriter.WithFlushBytes(-1), bufwriter.WithMaxFlushes(0),
		bufwriter.WithOnOutcome(nil), bufwriter.WithFlushInterval(-1)} {
		if _, err := bufwriter.New(c, "w", opt); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("NewBufferedWriter with a bad option: %v", err)
		}
	}
	if _, err := bufwriter.New(c, "w", bufwriter.WithWriteBuffer(10), bufwriter.WithFlushBytes(20)); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("flush size over the buffer: %v", err)
	}
}

// TestWriterConcurrent: writers on many goroutines with a small buffer; every mutation gets
// one outcome, every Increment counts once, the bound holds.
func TestWriterConcurrent(t *testing.T) {
	_, c := writerServer(t)
	log := newOutcomeLog(t)
	const bound = 4096
	w, err := bufwriter.New(c, "w", bufwriter.WithWriteBuffer(bound), bufwriter.WithOnOutcome(log.add))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const goroutines, each = 8, 100
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				var m hrpc.Mutation = wput(t, fmt.Sprintf("r%d-%d", g, i), "value")
				if i%2 == 1 {
					m = winc(t, fmt.Sprintf("c%d", i%5), 1)
				}
				if err := w.Write(ctx, m); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if log.len() != goroutines*each {
		t.Fatalf("%d outcomes, want %d", log.len(), goroutines*each)
	}
	var sum uint64
	for i := range 5 {
		sum += binary.BigEndian.Uint64(readCell(t, c, fmt.Sprintf("c%d", i), "n"))
	}
	if sum != goroutines*each/2 {
		t.Errorf("increments sum to %d, want %d", sum, goroutines*each/2)
	}
	if st := w.Stats(); st.PeakHeldBytes > bound || st.Applied != goroutines*each {
		t.Errorf("stats %+v", st)
	}
}

// TestWriterFlushHook: the WriterFlush hook sees every flush, its outcomes summing to the
// mutations written.
func TestWriterFlushHook(t *testing.T) {
	srv, _ := writerServer(t)
	var mu sync.Mutex
	var flushes, muts, applied int
	var bytes int64
	c, err := srv.NewClient(hbase.WithHooks(&hbasetrace.Hooks{WriterFlush: func(_ context.Context, ev hbasetrace.WriterFlushInfo) {
		mu.Lock()
		defer mu.Unlock()
		flushes++
		muts += ev.Mutations
		applied += ev.Applied
		bytes += ev.Bytes
		if ev.Table != "w" || ev.Failed+ev.Indeterminate != 0 || ev.Duration <= 0 {
			t.Errorf("flush event %+v", ev)
		}
	}}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w, err := bufwriter.New(c, "w", bufwriter.WithFlushCount(10))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 25 {
		if err := w.Write(ctx, wput(t, fmt.Sprintf("r%02d", i), "v")); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if flushes != 3 || muts != 25 || applied != 25 || bytes <= 0 {
		t.Errorf("hook saw %d flushes, %d mutations, %d applied, %d bytes; want 3, 25, 25", flushes, muts, applied, bytes)
	}
}
