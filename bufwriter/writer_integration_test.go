package bufwriter

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// writerHistory is what a BufferedWriter under faults was asked and answered: per mutation
// its one outcome, the Puts' rows, the Increments' counters.
type writerHistory struct {
	t        *testing.T
	mu       sync.Mutex
	outcomes map[hrpc.Mutation]Outcome
	putRow   map[hrpc.Mutation]string
	incRow   map[hrpc.Mutation]string
	accepted atomic.Int64
	refused  atomic.Int64
	dup      atomic.Int64
}

func (h *writerHistory) outcome(o Outcome) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.outcomes[o.Mutation]; ok {
		h.dup.Add(1)
		return
	}
	h.outcomes[o.Mutation] = o
}

// TestBufferedWriterUnderFaults writes Puts of unique rows and Increments of three counters
// (one per region) through a BufferedWriter while the network and the cluster fail: a
// partition of a region server, resets in the middle of its responses, a region move and a
// split (make reliability, with more rounds, also kills a region server and starts it again).
// Then, with a fresh client, it checks the history: every accepted mutation got exactly one
// outcome; every Put reported applied is there and none reported failed is; each counter
// holds its applied Increments plus at most its indeterminate ones (none applied twice, none
// reported failed yet applied); the bytes the writer held, sampled, never passed its bound.
func TestBufferedWriterUnderFaults(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, hbase.WithDialer(fn.DialContext))
	table, addr, _, _ := faultTarget(t, cl, c, []byte("v"))
	ctx := testContext(t, 5*time.Minute)
	fam := []byte("f")
	h := &writerHistory{t: t, outcomes: map[hrpc.Mutation]Outcome{}, putRow: map[hrpc.Mutation]string{},
		incRow: map[hrpc.Mutation]string{}}
	const bound = 128 << 10
	w, err := New(c, table, WithWriteBuffer(bound), WithFlushInterval(20*time.Millisecond),
		WithFlushTimeout(1500*time.Millisecond), WithOnOutcome(h.outcome))
	if err != nil {
		t.Fatal(err)
	}
	counters := []string{"a-counter", "h-counter", "p-counter"}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var peak atomic.Int64
	wg.Go(func() { // samples the bytes held
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
			if n := w.Stats().HeldBytes; n > peak.Load() {
				peak.Store(n)
			}
		}
	})
	write := func(m hrpc.Mutation, row string, rows map[hrpc.Mutation]string) {
		h.mu.Lock()
		rows[m] = row
		h.mu.Unlock()
		wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := w.Write(wctx, m)
		cancel()
		if err != nil {
			if !errors.Is(err, hberr.ErrWriterFull) {
				t.Errorf("Write: %v", err)
			}
			h.refused.Add(1)
			h.mu.Lock()
			delete(rows, m)
			h.mu.Unlock()
			return
		}
		h.accepted.Add(1)
	}
	value := make([]byte, 200)
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				row := fmt.Sprintf("%c-put-%d-%06d", "ahp"[i%3], g, i)
				put, _ := hrpc.NewPut(table, []byte(row), hrpc.Value(fam, []byte("q"), value))
				write(put, row, h.putRow)
				if i%50 == 0 {
					time.Sleep(time.Millisecond) // let the flushes have the CPU now and then
				}
			}
		})
	}
	for g := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				row := counters[(i+g)%3]
				inc, _ := hrpc.NewIncrement(table, []byte(row), hrpc.Amount(fam, []byte("n"), 1))
				write(inc, row, h.incRow)
			}
		})
	}

	faults := []struct {
		name string
		run  func()
	}{
		{"partition 2s", func() { fn.BlackHole(addr); time.Sleep(2 * time.Second); fn.Heal(addr) }},
		{"reset mid-response", func() { fn.ResetAfter(addr, 300); time.Sleep(2 * time.Second); fn.Heal(addr) }},
		{"move region [p,)", func() { moveRegion(t, cl, table, []byte("p")) }},
		{"split at k", func() {
			if _, _, err := cl.Split(ctx, table, []byte("k")); err != nil {
				t.Errorf("split: %v", err)
			}
		}},
	}
	rounds := reliabilityRounds(t)
	time.Sleep(500 * time.Millisecond)
	for r := range rounds {
		for _, f := range faults {
			if r > 0 && f.name == "split at k" {
				continue // the region is split already
			}
			before := w.Stats()
			f.run()
			time.Sleep(time.Second)
			after := w.Stats()
			t.Logf("%-20s applied %d, failed %d, indeterminate %d", f.name, after.Applied-before.Applied,
				after.Failed-before.Failed, after.Indeterminate-before.Indeterminate)
		}
		if rounds > 1 {
			killAndRestart(t, cl, table, w)
		}
	}
	close(stop)
	wg.Wait()
	if err := w.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	st := w.Stats()
	t.Logf("writer: %+v; refused %d; peak held %d sampled, %d counted (bound %d)", st, h.refused.Load(), peak.Load(), st.PeakHeldBytes, bound)

	if n := h.dup.Load(); n > 0 {
		t.Errorf("%d mutations got a second outcome", n)
	}
	if int64(len(h.outcomes)) != h.accepted.Load() || st.Accepted != uint64(h.accepted.Load()) {
		t.Errorf("%d outcomes for %d accepted mutations (writer counts %d)", len(h.outcomes), h.accepted.Load(), st.Accepted)
	}
	if peak.Load() > bound || st.PeakHeldBytes > bound {
		t.Errorf("held %d bytes (sampled), %d (counted); bound %d", peak.Load(), st.PeakHeldBytes, bound)
	}
	if st.Applied == 0 {
		t.Error("nothing applied")
	}

	v := newTestClient(t)
	// The check reads every Put's row back, hundreds of thousands in the long version: in
	// batches, and within a time of its own rather than what the writes left of ctx.
	vctx := testContext(t, 5*time.Minute)
	present := make(map[string]bool, len(h.putRow))
	rows := make([]string, 0, len(h.putRow))
	for _, row := range h.putRow {
		rows = append(rows, row)
	}
	for batch := range slices.Chunk(rows, 2000) {
		gets := make([]hrpc.Batchable, len(batch))
		for i, row := range batch {
			gets[i] = mustGetT(t, table, row)
		}
		for i, r := range v.SendBatch(vctx, gets) {
			if r.Err != nil {
				t.Fatalf("verifying %q: %v", batch[i], r.Err)
			}
			present[batch[i]] = len(r.Result.Cells) == 1
		}
	}
	var missing, appliedButFailed, indetPresent, indet int
	for m, row := range h.putRow {
		o, ok := h.outcomes[m]
		if !ok {
			t.Errorf("Put of %q: no outcome", row)
			continue
		}
		present := present[row]
		switch {
		case o.Applied() && !present:
			missing++
		case o.Indeterminate():
			indet++
			if present {
				indetPresent++
			}
		case !o.Applied() && present:
			appliedButFailed++
			t.Logf("Put of %q reported failed yet applied: %v", row, o.Err)
		}
		if o.Err != nil && !o.Indeterminate() {
			if op, ok := errors.AsType[*hberr.OpError](o.Err); !ok || string(op.Row) != row {
				t.Errorf("failure of %q does not name its row: %v", row, o.Err)
			}
		}
	}
	t.Logf("Puts: %d accepted; %d indeterminate (%d of them applied)", len(h.putRow), indet, indetPresent)
	if missing+appliedButFailed > 0 {
		t.Errorf("Puts: %d reported applied but missing, %d reported failed but applied", missing, appliedButFailed)
	}
	applied, maybe := map[string]int64{}, map[string]int64{}
	for m, row := range h.incRow {
		o := h.outcomes[m]
		switch {
		case o.Applied():
			applied[row]++
		case o.Indeterminate():
			maybe[row]++
		}
	}
	for _, row := range counters {
		res, err := v.Get(vctx, mustGetT(t, table, row))
		if err != nil {
			t.Fatal(err)
		}
		var got int64
		if len(res.Cells) == 1 {
			got = int64(binary.BigEndian.Uint64(res.Cells[0].Value))
		}
		t.Logf("counter %s = %d: applied %d, indeterminate %d", row, got, applied[row], maybe[row])
		if got < applied[row] || got > applied[row]+maybe[row] {
			t.Errorf("counter %s = %d; want between %d applied and %d applied + indeterminate", row, got,
				applied[row], applied[row]+maybe[row])
		}
	}
}

// killAndRestart kills a region server holding a region of table but not hbase:meta, lets the
// writer ride over it for a few seconds, and starts the server again.
func killAndRestart(t *testing.T, cl *hbasetest.Cluster, table string, w *Writer) {
	ctx := testContext(t, 3*time.Minute)
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := cl.Regions(ctx, "hbase:meta")
	if err != nil || len(meta) != 1 {
		t.Fatalf("hbase:meta regions: %v, %v", meta, err)
	}
	victim := -1
	for _, r := range regions {
		if r.Server >= 0 && r.Server != meta[0].Server {
			victim = r.Server
			break
		}
	}
	if victim < 0 {
		t.Logf("kill-rs: every region of %s is with hbase:meta; skipped", table)
		return
	}
	before := w.Stats()
	if err := cl.KillRS(ctx, victim); err != nil {
		t.Fatalf("kill-rs %d: %v", victim, err)
	}
	time.Sleep(5 * time.Second)
	if _, err := cl.StartRS(ctx, victim); err != nil {
		t.Fatalf("start-rs %d: %v", victim, err)
	}
	time.Sleep(2 * time.Second)
	after := w.Stats()
	t.Logf("%-20s applied %d, failed %d, indeterminate %d", fmt.Sprintf("kill-rs %d", victim),
		after.Applied-before.Applied, after.Failed-before.Failed, after.Indeterminate-before.Indeterminate)
}
