package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// workloadStats counts one workload's operations: acknowledged, failed, and how late the
// latest call returned past its deadline. With phases set, each call is counted in the fault
// phase under way when it returned too.
type workloadStats struct {
	attempted, acked, failed, indeterminate atomic.Int64
	worstLate                               atomic.Int64
	name                                    string
	phases                                  *faultPhases
}

func (s *workloadStats) record(deadline time.Time, err error) {
	if s.phases != nil {
		s.phases.record(s.name, deadline, err)
	}
	s.attempted.Add(1)
	if late := int64(time.Since(deadline)); late > s.worstLate.Load() {
		s.worstLate.Store(late)
	}
	switch {
	case err == nil:
		s.acked.Add(1)
	case errors.Is(err, hberr.ErrIndeterminate):
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

// reliabilityRounds is how many times the reliability tests repeat their fault sequences:
// GOHBASE_RELIABILITY_ROUNDS (make reliability's long run), else 1 (make test).
func reliabilityRounds(t *testing.T) int {
	v := os.Getenv("GOHBASE_RELIABILITY_ROUNDS")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("GOHBASE_RELIABILITY_ROUNDS=%q: want a positive number", v)
	}
	return n
}

// faultPhases attributes each call of the workloads to the fault under way when it returned
// (from the fault's start to the next fault's), for the per-fault table of make reliability,
// and keeps every acknowledgement's time for the recovery times.
type faultPhases struct {
	mu      sync.Mutex
	current string
	order   []string
	stats   map[string]map[string]*workloadStats // phase → workload → its calls in it
	acks    []time.Time
	windows []faultWindow
}

// faultWindow is one occurrence of a fault: set at on, healed at healed, the next one at end.
type faultWindow struct {
	name            string
	on, healed, end time.Time
}

func newFaultPhases(first string) *faultPhases {
	p := &faultPhases{stats: map[string]map[string]*workloadStats{}}
	p.set(first)
	return p
}

func (p *faultPhases) set(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = name
	if p.stats[name] == nil {
		p.stats[name] = map[string]*workloadStats{}
		p.order = append(p.order, name)
	}
}

// phase returns the phase under way.
func (p *faultPhases) phase() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.current
}

func (p *faultPhases) record(workload string, deadline time.Time, err error) {
	p.mu.Lock()
	ws := p.stats[p.current][workload]
	if ws == nil {
		ws = &workloadStats{}
		p.stats[p.current][workload] = ws
	}
	if err == nil {
		p.acks = append(p.acks, time.Now())
	}
	p.mu.Unlock()
	ws.record(deadline, err)
}

// recovery returns, over the occurrences of fault name, the longest stretch without any
// acknowledgement from the fault's start to the next fault and the longest time from healing
// to the first acknowledgement after it.
func (p *faultPhases) recovery(name string) (longestGap, afterHeal time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.windows {
		if w.name != name {
			continue
		}
		last := w.on
		first := time.Time{}
		for _, a := range p.acks {
			if a.Before(w.on) || a.After(w.end) {
				continue
			}
			longestGap = max(longestGap, a.Sub(last))
			last = a
			if first.IsZero() && a.After(w.healed) {
				first = a
			}
		}
		longestGap = max(longestGap, w.end.Sub(last))
		if !first.IsZero() {
			afterHeal = max(afterHeal, first.Sub(w.healed))
		} else {
			afterHeal = max(afterHeal, w.end.Sub(w.healed))
		}
	}
	return longestGap, afterHeal
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
	seed, _ := hrpc.NewRowMutations([]hrpc.Mutation{mustMutation(hrpc.NewIncrement(table, transferRow, hrpc.Amount(fam, []byte("a"), total)))})
	if err := c.MutateRow(ctx, seed); err != nil {
		t.Fatal(err)
	}

	var inserts, increments, transfers, reads, pairs, pairReads, cas workloadStats
	phases := newFaultPhases("none")
	for ws, name := range map[*workloadStats]string{&inserts: "unique inserts (Put)", &increments: "Increment counter",
		&transfers: "transfers (MutateRow)", &reads: "reads of the transfer row", &pairs: "two families, one Put",
		&pairReads: "reads of the two-family row", &cas: "CAS appends (CheckAndMutate)"} {
		ws.name, ws.phases = name, phases
	}
	insertPhase := map[string]string{} // acknowledged insert → the phase it was acknowledged in
	casPhase := map[string]string{}    // acknowledged CAS token → its phase
	pairRow := []byte(row + "-pair")
	casRow := []byte(row + "-cas")
	casSeed, _ := hrpc.NewPut(table, casRow, hrpc.Value(fam, []byte("q"), []byte("|")))
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
			put, _ := hrpc.NewPut(table, []byte(key), hrpc.Value(fam, []byte("q"), []byte(key)))
			cctx, cancel, dl := callCtx()
			_, err := c.Put(cctx, put)
			cancel()
			inserts.record(dl, err)
			if err == nil {
				ph := phases.phase()
				insertedMu.Lock()
				inserted[key] = true
				insertPhase[key] = ph
				insertedMu.Unlock()
			}
		})
		loop(func(int) {
			inc, _ := hrpc.NewIncrement(table, counterRow, hrpc.Amount(fam, []byte("n"), 1))
			cctx, cancel, dl := callCtx()
			_, err := c.Increment(cctx, inc)
			cancel()
			increments.record(dl, err)
		})
		loop(func(i int) {
			d := int64(1 - 2*(i%2)) // a → b, then back
			rm, _ := hrpc.NewRowMutations([]hrpc.Mutation{
				mustMutation(hrpc.NewIncrement(table, transferRow, hrpc.Amount(fam, []byte("a"), -d))),
				mustMutation(hrpc.NewIncrement(table, transferRow, hrpc.Amount(fam, []byte("b"), d)))})
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
			put, _ := hrpc.NewPut(table, casRow, hrpc.Value(fam, []byte("q"), append(bytes.Clone(cur), token+"|"...)))
			cam, _ := hrpc.NewCheckAndMutate(hrpc.IfValue(fam, []byte("q"), hrpc.Equal, cur), put)
			cctx, cancel, dl := callCtx()
			applied, err := c.CheckAndMutate(cctx, cam)
			cancel()
			cas.record(dl, err)
			casMu.Lock()
			switch {
			case err == nil && applied:
				casAcked[token] = true
				casPhase[token] = phases.phase()
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
		put, _ := hrpc.NewPut(table, pairRow, hrpc.Value(fam, []byte("x"), v), hrpc.Value([]byte("g"), []byte("x"), v))
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
	rounds := reliabilityRounds(t)
	for range rounds {
		for _, f := range faults {
			w := faultWindow{name: f.name, on: time.Now()}
			phases.set(f.name)
			f.on()
			time.Sleep(2 * time.Second)
			fn.Heal(addr)
			w.healed = time.Now()
			time.Sleep(time.Second)
			w.end = time.Now()
			phases.mu.Lock()
			phases.windows = append(phases.windows, w)
			phases.mu.Unlock()
			t.Logf("after %-18s inserts %d, increments %d, transfers %d acknowledged", f.name,
				inserts.acked.Load(), increments.acked.Load(), transfers.acked.Load())
		}
	}
	phases.set("none")
	close(stop)
	wg.Wait()

	// Verify against the acknowledged history, with a fresh client (no faults).
	v := newTestClient(t)
	lost := 0
	lostIn := map[string]int{} // phase → acknowledged inserts lost
	for key := range inserted {
		res, err := v.Get(ctx, mustGetT(t, table, key))
		if err != nil {
			t.Fatalf("verifying %s: %v", key, err)
		}
		if len(res.Cells) != 1 || string(res.Cells[0].Value) != key {
			lost++
			lostIn[insertPhase[key]]++
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
	casLostIn, casDupIn := map[string]int{}, map[string]int{}
	for tok := range casAcked {
		if seen[tok] == 0 {
			casLost++
			casLostIn[casPhase[tok]]++
		}
	}
	for tok, n := range seen {
		if n > 1 {
			casDup++
			casDupIn[casPhase[tok]]++
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
	t.Log(phases.table(rounds, lostIn, casLostIn, casDupIn))
	for _, s := range []*workloadStats{&inserts, &increments, &transfers, &reads, &pairs, &pairReads, &cas} {
		if late := time.Duration(s.worstLate.Load()); late > 100*time.Millisecond {
			t.Errorf("%s: a call returned %v past its deadline; want at most 100ms", s.name, late)
		}
		if s.acked.Load() == 0 {
			t.Errorf("a workload got nothing acknowledged: %v", s)
		}
	}
}

// table is the per-fault table of make reliability (Markdown): for each fault and workload,
// calls attempted, acknowledged, failed, indeterminate, acknowledged ones lost or duplicated
// (where a workload can tell per call: inserts, CAS appends; the others' checks are global),
// the worst return past a deadline, and the fault's recovery: the longest stretch without any
// acknowledgement, and the longest time from healing to the next acknowledgement.
func (p *faultPhases) table(rounds int, lostIn, casLostIn, casDupIn map[string]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "per fault (%d rounds of each, 2 s on, 1 s after healing):\n", rounds)
	b.WriteString("| fault | workload | attempted | acknowledged | failed | indeterminate | lost / duplicated | worst past deadline | recovery: longest without an ack / ack after healing |\n|---|---|---|---|---|---|---|---|---|\n")
	workloads := []string{"unique inserts (Put)", "Increment counter", "transfers (MutateRow)", "reads of the transfer row",
		"two families, one Put", "reads of the two-family row", "CAS appends (CheckAndMutate)"}
	for _, ph := range p.order {
		gap, heal := p.recovery(ph)
		rec := "–"
		if ph != "none" {
			rec = fmt.Sprintf("%v / %v", gap.Round(time.Millisecond), heal.Round(time.Millisecond))
		}
		first := true
		for _, w := range workloads {
			p.mu.Lock()
			ws := p.stats[ph][w]
			p.mu.Unlock()
			if ws == nil {
				continue
			}
			ld := "0 / 0"
			switch w {
			case "unique inserts (Put)":
				ld = fmt.Sprintf("%d / 0", lostIn[ph])
			case "CAS appends (CheckAndMutate)":
				ld = fmt.Sprintf("%d / %d", casLostIn[ph], casDupIn[ph])
			case "Increment counter", "transfers (MutateRow)":
				ld = "checked at the end"
			case "reads of the transfer row", "reads of the two-family row":
				ld = "–"
			}
			name, r := ph, rec
			if !first {
				name, r = "", ""
			}
			first = false
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %s | %v | %s |\n", name, w, ws.attempted.Load(), ws.acked.Load(),
				ws.failed.Load(), ws.indeterminate.Load(), ld, time.Duration(max(ws.worstLate.Load(), 0)).Round(time.Millisecond), r)
		}
	}
	return b.String()
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
