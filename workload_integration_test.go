package hbase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hrpc"
)

// workloadStats counts one workload's operations: acknowledged, failed, and how late the
// latest call returned past its deadline.
type workloadStats struct {
	attempted, acked, failed, indeterminate atomic.Int64
	worstLate                               atomic.Int64
}

func (s *workloadStats) record(deadline time.Time, err error) {
	s.attempted.Add(1)
	if late := int64(time.Since(deadline)); late > s.worstLate.Load() {
		s.worstLate.Store(late)
	}
	switch {
	case err == nil:
		s.acked.Add(1)
	case errors.Is(err, ErrIndeterminate):
		s.indeterminate.Add(1)
	default:
		s.failed.Add(1)
	}
}

func (s *workloadStats) String() string {
	return fmt.Sprintf("attempted %d, acknowledged %d, failed %d, indeterminate %d, worst %v past a deadline",
		s.attempted.Load(), s.acked.Load(), s.failed.Load(), s.indeterminate.Load(),
		time.Duration(max(s.worstLate.Load(), 0)).Round(time.Millisecond))
}

// TestWorkloadsUnderNetworkFaults runs five of issue 14's workloads against the real cluster
// through a faultnet dialer while the network to the server of their rows misbehaves in turn
// (a partition, resets in the middle of responses, latency, slow reads), and checks each
// against what was acknowledged: unique inserts (every acknowledged row is there), Increment
// counters (the final value lies between the acknowledged and the attempted increments), and
// transfers between two columns of a row with MutateRow (their sum never changes, for any
// reader at any time), two cells in two column families written by one Put (never seen
// mixed), and compare-and-set appends with CheckAndMutate (every acknowledged token in the
// final value once, no refused one).
func TestWorkloadsUnderNetworkFaults(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, WithDialer(fn.DialContext))
	table, addr, row, _ := faultTarget(t, cl, c, []byte("v"), "g")
	ctx := testContext(t, 3*time.Minute)
	fam := []byte("f")
	counterRow, transferRow := []byte(row+"-counter"), []byte(row+"-transfer")
	const total = 1000
	seed, _ := hrpc.NewRowMutations(mustMutation(hrpc.NewIncrement([]byte(table), transferRow, hrpc.Amount(fam, []byte("a"), total))))
	if err := c.MutateRow(ctx, seed); err != nil {
		t.Fatal(err)
	}

	var inserts, increments, transfers, reads, pairs, pairReads, cas workloadStats
	pairRow := []byte(row + "-pair")
	casRow := []byte(row + "-cas")
	casSeed, _ := hrpc.NewPut([]byte(table), casRow, hrpc.Value(fam, []byte("q"), []byte("|")))
	if _, err := c.Put(ctx, casSeed); err != nil {
		t.Fatal(err)
	}
	var casMu sync.Mutex
	casAcked, casRejected := map[string]bool{}, map[string]bool{}
	var insertedMu sync.Mutex
	inserted := map[string]bool{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	loop := func(body func(i int)) {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body(i)
			}
		})
	}
	callCtx := func() (context.Context, context.CancelFunc, time.Time) {
		cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		dl, _ := cctx.Deadline()
		return cctx, cancel, dl
	}
	for w := range 2 {
		loop(func(i int) {
			key := fmt.Sprintf("%s-insert-%d-%06d", row, w, i)
			put, _ := hrpc.NewPut([]byte(table), []byte(key), hrpc.Value(fam, []byte("q"), []byte(key)))
			cctx, cancel, dl := callCtx()
			_, err := c.Put(cctx, put)
			cancel()
			inserts.record(dl, err)
			if err == nil {
				insertedMu.Lock()
				inserted[key] = true
				insertedMu.Unlock()
			}
		})
		loop(func(int) {
			inc, _ := hrpc.NewIncrement([]byte(table), counterRow, hrpc.Amount(fam, []byte("n"), 1))
			cctx, cancel, dl := callCtx()
			_, err := c.Increment(cctx, inc)
			cancel()
			increments.record(dl, err)
		})
		loop(func(i int) {
			d := int64(1 - 2*(i%2)) // a → b, then back
			rm, _ := hrpc.NewRowMutations(
				mustMutation(hrpc.NewIncrement([]byte(table), transferRow, hrpc.Amount(fam, []byte("a"), -d))),
				mustMutation(hrpc.NewIncrement([]byte(table), transferRow, hrpc.Amount(fam, []byte("b"), d))))
			cctx, cancel, dl := callCtx()
			err := c.MutateRow(cctx, rm)
			cancel()
			transfers.record(dl, err)
		})
	}
	// Compare-and-set appends: read the value, append a unique token if nobody changed it.
	for w := range 2 {
		loop(func(i int) {
			cctx, cancel, _ := callCtx()
			res, err := c.Get(cctx, mustGetT(t, table, string(casRow)))
			cancel()
			if err != nil || len(res.Cells) != 1 {
				return
			}
			cur := res.Cells[0].Value
			token := fmt.Sprintf("w%d.%d", w, i)
			put, _ := hrpc.NewPut([]byte(table), casRow, hrpc.Value(fam, []byte("q"), append(bytes.Clone(cur), token+"|"...)))
			cam, _ := hrpc.NewCheckAndMutate(hrpc.IfValue(fam, []byte("q"), hrpc.Equal, cur), put)
			cctx, cancel, dl := callCtx()
			applied, err := c.CheckAndMutate(cctx, cam)
			cancel()
			cas.record(dl, err)
			casMu.Lock()
			switch {
			case err == nil && applied:
				casAcked[token] = true
			case err == nil:
				casRejected[token] = true
			}
			casMu.Unlock()
		})
	}
	// Two cells in two column families of one row, written together by one Put: a reader
	// never sees one without the other's value.
	loop(func(i int) {
		v := []byte(fmt.Sprintf("%08d", i))
		put, _ := hrpc.NewPut([]byte(table), pairRow, hrpc.Value(fam, []byte("x"), v), hrpc.Value([]byte("g"), []byte("x"), v))
		cctx, cancel, dl := callCtx()
		_, err := c.Put(cctx, put)
		cancel()
		pairs.record(dl, err)
	})
	loop(func(int) {
		cctx, cancel, dl := callCtx()
		res, err := c.Get(cctx, mustGetT(t, table, string(pairRow)))
		cancel()
		pairReads.record(dl, err)
		if err == nil && len(res.Cells) > 0 {
			if len(res.Cells) != 2 || !bytes.Equal(res.Cells[0].Value, res.Cells[1].Value) {
				t.Errorf("a reader saw a mix of two writes of one row: %v", res.Cells)
			}
		}
	})
	loop(func(int) {
		cctx, cancel, dl := callCtx()
		res, err := c.Get(cctx, mustGetT(t, table, string(transferRow)))
		cancel()
		reads.record(dl, err)
		if err == nil {
			if sum := counterSum(res); sum != total {
				t.Errorf("a reader saw a + b = %d; want %d always", sum, total)
			}
		}
	})

	faults := []struct {
		name string
		on   func()
	}{
		{"partition 2s", func() { fn.BlackHole(addr) }},
		{"reset mid-response", func() { fn.ResetAfter(addr, 40) }},
		{"latency 30ms", func() { fn.Latency(addr, 30*time.Millisecond) }},
		{"reset mid-response", func() { fn.ResetAfter(addr, 300) }},
		{"slow reads", func() { fn.SlowReads(addr, 16, time.Millisecond) }},
		{"partition 2s", func() { fn.BlackHole(addr) }},
	}
	time.Sleep(time.Second)
	for _, f := range faults {
		f.on()
		time.Sleep(2 * time.Second)
		fn.Heal(addr)
		time.Sleep(time.Second)
		t.Logf("after %-18s inserts %d, increments %d, transfers %d acknowledged", f.name,
			inserts.acked.Load(), increments.acked.Load(), transfers.acked.Load())
	}
	close(stop)
	wg.Wait()

	// Verify against the acknowledged history, with a fresh client (no faults).
	v := newTestClient(t)
	lost := 0
	for key := range inserted {
		res, err := v.Get(ctx, mustGetT(t, table, key))
		if err != nil {
			t.Fatalf("verifying %s: %v", key, err)
		}
		if len(res.Cells) != 1 || string(res.Cells[0].Value) != key {
			lost++
		}
	}
	res, err := v.Get(ctx, mustGetT(t, table, string(counterRow)))
	if err != nil || len(res.Cells) != 1 {
		t.Fatalf("reading the counter: %v, %v", res, err)
	}
	counter := int64(binary.BigEndian.Uint64(res.Cells[0].Value))
	res, err = v.Get(ctx, mustGetT(t, table, string(transferRow)))
	if err != nil {
		t.Fatal(err)
	}
	sum := counterSum(res)

	res, err = v.Get(ctx, mustGetT(t, table, string(casRow)))
	if err != nil || len(res.Cells) != 1 {
		t.Fatalf("reading the CAS row: %v, %v", res, err)
	}
	seen := map[string]int{}
	for _, tok := range bytes.Split(bytes.Trim(res.Cells[0].Value, "|"), []byte("|")) {
		if len(tok) > 0 {
			seen[string(tok)]++
		}
	}
	casLost, casDup, casWrong := 0, 0, 0
	for tok := range casAcked {
		if seen[tok] == 0 {
			casLost++
		}
	}
	for tok, n := range seen {
		if n > 1 {
			casDup++
		}
		if casRejected[tok] {
			casWrong++
		}
	}
	t.Logf("CAS appends:    %v; %d tokens in the final value, %d acknowledged: lost %d, duplicated %d, refused yet present %d",
		&cas, len(seen), len(casAcked), casLost, casDup, casWrong)
	if casLost+casDup+casWrong != 0 {
		t.Errorf("CAS appends: lost %d, duplicated %d, refused yet present %d; want none", casLost, casDup, casWrong)
	}
	t.Logf("unique inserts: %v; acknowledged rows lost: %d", &inserts, lost)
	t.Logf("increments:     %v; counter %d (acknowledged %d ≤ counter ≤ attempted %d)", &increments,
		counter, increments.acked.Load(), increments.attempted.Load())
	t.Logf("transfers:      %v; a + b = %d at the end", &transfers, sum)
	t.Logf("transfer reads: %v", &reads)
	t.Logf("two-family writes: %v; reads: %v", &pairs, &pairReads)
	if lost != 0 {
		t.Errorf("%d acknowledged inserts lost", lost)
	}
	if counter < increments.acked.Load() || counter > increments.attempted.Load() {
		t.Errorf("counter = %d; want between %d acknowledged and %d attempted", counter,
			increments.acked.Load(), increments.attempted.Load())
	}
	if sum != total {
		t.Errorf("a + b = %d at the end; want %d", sum, total)
	}
	for _, s := range []*workloadStats{&inserts, &increments, &transfers, &reads, &pairs, &pairReads, &cas} {
		if late := time.Duration(s.worstLate.Load()); late > time.Second {
			t.Errorf("a call returned %v past its deadline", late)
		}
		if s.acked.Load() == 0 {
			t.Errorf("a workload got nothing acknowledged: %v", s)
		}
	}
}

func mustMutation[M hrpc.Mutation](m M, err error) hrpc.Mutation {
	if err != nil {
		panic(err)
	}
	return m
}

// counterSum adds the 8-byte counters of a row's cells.
func counterSum(res *hrpc.Result) int64 {
	var sum int64
	for _, c := range res.Cells {
		if len(c.Value) == 8 && (bytes.Equal(c.Qualifier, []byte("a")) || bytes.Equal(c.Qualifier, []byte("b"))) {
			sum += int64(binary.BigEndian.Uint64(c.Value))
		}
	}
	return sum
}
