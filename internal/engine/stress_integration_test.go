package engine

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// TestStressResponseIntegrity is issue 9's stress test: many goroutines on a few clients
// (many calls in flight on each region server connection) send Puts, Gets, Appends,
// Increments, CheckAndMutates, MutateRows, batches and scans, small and large, some with
// contexts that end mid-call, while regions move and split and clients start cold, and every
// returned cell is checked: against a model of what each goroutine wrote, and against its own
// content (stress_values_test.go), so another request's bytes cannot pass. It runs the I/O
// path users run when built without -race (make test runs it both ways).
//
// GOHBASE_STRESS_CALLS sets the number of calls (default 60,000; the long run is
// 10,000,000) and GOHBASE_STRESS_FAULT_EVERY the pause between region moves and splits
// (default 2s; each stalls every goroutine for about a second, as each soon needs the region).
func TestStressResponseIntegrity(t *testing.T) {
	calls := int64(60_000)
	if v := os.Getenv("GOHBASE_STRESS_CALLS"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			t.Fatalf("GOHBASE_STRESS_CALLS=%q: want a positive number", v)
		}
		calls = n
	}
	faultEvery := 2 * time.Second
	if v := os.Getenv("GOHBASE_STRESS_FAULT_EVERY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("GOHBASE_STRESS_FAULT_EVERY=%q: want a positive duration", v)
		}
		faultEvery = d
	}
	var splits [][]byte
	for b := 0x20; b < 0x100; b += 0x20 {
		splits = append(splits, []byte(fmt.Sprintf("%02x", b)))
	}
	var cl *hbasetest.Cluster
	var table string
	if calls <= 1_000_000 {
		cl = testCluster(t)
		table = createTable(t, []string{"f", "g"}, splits)
	} else {
		// A long run gets a cluster of its own with room for its data: the shared one's heap
		// (768 MB for three region servers) runs out after a few million calls.
		if hbasetest.Skipped() {
			t.Skip("integration test: needs an HBase mini cluster")
		}
		cl = hbasetest.StartT(t, hbasetest.Options{RegionServers: 3, HeapMB: 3072})
		table = "stress"
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := cl.CreateTable(ctx, table, []string{"f", "g"}, splits)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	logs := &logRecords{}
	st := &stress{t: t, table: table, total: calls, faultEvery: faultEvery, start: time.Now()}
	newClient := func() *Client {
		c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent), WithLogger(slog.New(logs)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for i := range st.lanes {
		st.lanes[i].Store(newClient())
	}
	ctx, stop := context.WithCancel(context.Background())
	var bg sync.WaitGroup
	bg.Go(func() { st.chaos(ctx, cl) })
	bg.Go(func() { st.coldClients(ctx, newClient) })
	bg.Go(func() { st.progress(ctx, cl) })

	const workers = 32
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { newStressWorker(st, w).run() })
	}
	wg.Wait()
	stop()
	bg.Wait()
	for i := range st.lanes {
		st.lanes[i].Load().Close()
	}
	st.closeRetired()

	elapsed := time.Since(st.start)
	t.Logf("%d calls in %v (%.0f/s): %d ok, %d ended by their context (indeterminate writes), %d region moves, %d splits, %d cold clients",
		st.done.Load(), elapsed.Round(time.Millisecond), float64(st.done.Load())/elapsed.Seconds(), st.ok.Load(),
		st.timedOut.Load(), st.moves.Load(), st.splits.Load(), st.swaps.Load())
	for k, name := range opNames {
		if n := st.opCount[k].Load(); n > 0 {
			t.Logf("  %-14s %8d calls, mean %v", name, n, time.Duration(st.opNanos[k].Load()/n).Round(time.Microsecond))
		}
	}
	if n := len(logs.corruptLogs()); n > 0 || st.indeterminate.Load() > 0 {
		t.Errorf("%d corrupt responses logged, %d indeterminate writes reported: %v", n, st.indeterminate.Load(), logs.corruptLogs())
	}
	if st.ok.Load() < st.done.Load()/2 {
		t.Errorf("only %d of %d calls succeeded", st.ok.Load(), st.done.Load())
	}
}

// stress is the state shared by the workers of one run.
type stress struct {
	t          *testing.T
	table      string
	total      int64
	faultEvery time.Duration
	start      time.Time
	lanes      [4]atomic.Pointer[Client]

	stopped                           atomic.Bool
	done, ok, timedOut, indeterminate atomic.Int64
	opCount, opNanos                  [8]atomic.Int64 // per kind of call (opNames)
	moves, splits, swaps, failures    atomic.Int64

	mu      sync.Mutex
	retired []*Client
}

// fail records a verification failure (the first 20 are printed).
func (st *stress) fail(format string, args ...any) {
	if st.failures.Add(1) <= 40 {
		st.t.Errorf(format, args...)
	}
}

// chaos moves a region of the table to another server, or splits one, every few seconds.
func (st *stress) chaos(ctx context.Context, cl *hbasetest.Cluster) {
	tick := time.NewTicker(st.faultEvery)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		if n%4 == 3 && st.splits.Load() < 16 {
			key := fmt.Appendf(nil, "%02x-m", rand.IntN(256))
			if _, _, err := cl.Split(cctx, st.table, key); err == nil {
				st.splits.Add(1)
			}
		} else if regions, err := cl.Regions(cctx, st.table); err == nil && len(regions) > 0 {
			if err := cl.Move(cctx, regions[rand.IntN(len(regions))].EncodedName, rand.IntN(3)); err == nil {
				st.moves.Add(1)
			}
		}
		cancel()
	}
}

// coldClients replaces a lane's client with a new one (an empty region cache, new
// connections) every few seconds; the old one is closed once its calls are over.
func (st *stress) coldClients(ctx context.Context, newClient func() *Client) {
	tick := time.NewTicker(3 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		old := st.lanes[rand.IntN(len(st.lanes))].Swap(newClient())
		st.swaps.Add(1)
		st.mu.Lock()
		st.retired = append(st.retired, old)
		st.mu.Unlock()
		time.AfterFunc(10*time.Second, func() { old.Close() }) // calls last 3 s at most
	}
}

func (st *stress) closeRetired() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, c := range st.retired {
		c.Close()
	}
}

// progress logs the run's progress and stops it (st.total = 0) when the cluster exits or no
// call has succeeded for a minute: a run that only times out proves nothing.
func (st *stress) progress(ctx context.Context, cl *hbasetest.Cluster) {
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	lastOK, since := st.ok.Load(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-cl.Done():
			st.fail("the cluster exited after %d calls:\n%s", st.done.Load(), cl.Output())
			st.stop()
			return
		case <-tick.C:
			d := st.done.Load()
			st.t.Logf("stress: %d/%d calls, %.0f/s, %d timed out, %d failures",
				d, st.total, float64(d)/time.Since(st.start).Seconds(), st.timedOut.Load(), st.failures.Load())
			if ok := st.ok.Load(); ok != lastOK {
				lastOK, since = ok, time.Now()
			} else if time.Since(since) > time.Minute {
				st.fail("no call succeeded for %v after %d calls", time.Since(since).Round(time.Second), d)
				st.stop()
				return
			}
		}
	}
}

// stop makes the workers finish their current call and return.
func (st *stress) stop() { st.stopped.Store(true) }

// rowState is what one worker knows of one of its rows. Writes whose outcome is unknown
// (their context ended) are pending: they may show up, now or later, or never.
type rowState struct {
	put, cam             uint64          // seq of the last acknowledged Put of f:p, of the CheckAndMutate that wrote f:c
	putPending           map[uint64]bool // Puts of f:p with an unknown outcome
	camPending           map[uint64]bool
	appended, appPending map[uint64]bool // chunks of g:a acknowledged, unknown
	appUnsure            bool            // a Delete of g:a with an unknown outcome: acknowledged chunks may be gone
	incs, incPending     int64           // Increments of f:n acknowledged, unknown
}

type stressWorker struct {
	st    *stress
	id    int
	rng   *rand.Rand
	seq   uint64
	rows  [][]byte
	state []rowState
}

var (
	famG                 = []byte("g") // famF is client_integration_test.go's
	qualP, qualC, qualN  = []byte("p"), []byte("c"), []byte("n")
	qualA                = []byte("a")
	errStressUnexpectedQ = errors.New("unexpected column")
)

func newStressWorker(st *stress, id int) *stressWorker {
	w := &stressWorker{st: st, id: id, rng: rand.New(rand.NewPCG(uint64(id), uint64(time.Now().UnixNano())))}
	for i := range 48 {
		// The hash prefix spreads each worker's rows over every region.
		w.rows = append(w.rows, fmt.Appendf(nil, "%02x-w%02d-%03d", (i*37+id*11)%256, id, i))
		w.state = append(w.state, rowState{putPending: map[uint64]bool{}, camPending: map[uint64]bool{},
			appended: map[uint64]bool{}, appPending: map[uint64]bool{}})
	}
	return w
}

func (w *stressWorker) client() *Client { return w.st.lanes[w.id%len(w.st.lanes)].Load() }

// ctx returns the context of one call: 3 s, or for one call in ten a deadline that may end
// it in the middle (100 µs to 3 ms).
func (w *stressWorker) ctx() (context.Context, context.CancelFunc) {
	if w.rng.IntN(10) == 0 {
		return context.WithTimeout(context.Background(), time.Duration(100+w.rng.IntN(2900))*time.Microsecond)
	}
	return context.WithTimeout(context.Background(), 3*time.Second)
}

var opNames = [8]string{"put", "get", "append", "increment", "checkAndMutate", "mutateRow", "batch", "scan"}

func (w *stressWorker) run() {
	for !w.st.stopped.Load() && w.st.done.Add(1) <= w.st.total {
		i := w.rng.IntN(len(w.rows))
		w.seq++
		ctx, cancel := w.ctx()
		start := time.Now()
		var err error
		op := 0
		switch p := w.rng.IntN(100); {
		case p < 25:
			err = w.put(ctx, i)
		case p < 53:
			op, err = 1, w.get(ctx, i)
		case p < 63:
			op, err = 2, w.append(ctx, i)
		case p < 73:
			op, err = 3, w.increment(ctx, i)
		case p < 78:
			op, err = 4, w.checkAndMutate(ctx, i)
		case p < 83:
			op, err = 5, w.mutateRow(ctx, i)
		case p < 92:
			op, err = 6, w.batch(ctx)
		default:
			op, err = 7, w.scan(ctx)
		}
		w.st.opCount[op].Add(1)
		w.st.opNanos[op].Add(int64(time.Since(start)))
		cancel()
		w.count(err)
	}
	w.st.done.Add(-1)
}

// count files a call's outcome.
func (w *stressWorker) count(err error) {
	switch {
	case err == nil:
		w.st.ok.Add(1)
	case errors.Is(err, context.DeadlineExceeded):
		// Ended by its context: a write not safe to send twice is also indeterminate then
		// (it may have been applied), which is not what this test watches for.
		w.st.timedOut.Add(1)
	case errors.Is(err, hberr.ErrIndeterminate):
		w.st.indeterminate.Add(1) // a corrupt answer or a lost connection
	default:
		w.st.fail("worker %d: unexpected error: %v", w.id, err)
	}
}

// unknown reports whether a write's outcome is unknown (it may have been applied).
func unknown(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, hberr.ErrIndeterminate)
}

func (w *stressWorker) put(ctx context.Context, i int) error {
	size := 16 + w.rng.IntN(200)
	if w.rng.IntN(100) == 0 {
		size = 8<<10 + w.rng.IntN(120<<10) // large values make large Get and scan responses
	}
	seq := w.seq
	p, err := hrpc.NewPut(w.st.table, w.rows[i], hrpc.Value(famF, qualP, putValue(w.rows[i], qualP, seq, size)))
	if err != nil {
		return err
	}
	if _, err = w.client().Put(ctx, p); err == nil {
		s := &w.state[i]
		s.put = seq
	} else if unknown(err) {
		w.state[i].putPending[seq] = true
	}
	return err
}

func (w *stressWorker) get(ctx context.Context, i int) error {
	g, err := hrpc.NewGet(w.st.table, w.rows[i])
	if err != nil {
		return err
	}
	res, err := w.client().Get(ctx, g)
	if err != nil {
		return err
	}
	w.checkOwnRow(i, res.Cells, "Get")
	return nil
}

func (w *stressWorker) append(ctx context.Context, i int) error {
	if s := &w.state[i]; len(s.appended)+len(s.appPending) >= 64 {
		return w.clearAppended(ctx, i)
	}
	seq := w.seq
	a, err := hrpc.NewAppend(w.st.table, w.rows[i], hrpc.Value(famG, qualA, appendChunk(w.rows[i], seq)))
	if err != nil {
		return err
	}
	res, err := w.client().Append(ctx, a)
	s := &w.state[i]
	if err != nil {
		if unknown(err) {
			s.appPending[seq] = true
		}
		return err
	}
	s.appended[seq] = true
	delete(s.appPending, seq)
	if len(res.Cells) != 1 {
		w.st.fail("worker %d: Append of %s returned %d cells", w.id, w.rows[i], len(res.Cells))
		return nil
	}
	w.checkOwnCell(i, &res.Cells[0], "Append result")
	return nil
}

// clearAppended deletes a row's append column, so that long runs do not grow it without end.
// Appends whose outcome is unknown may still land after it, so they stay possible.
func (w *stressWorker) clearAppended(ctx context.Context, i int) error {
	d, err := hrpc.NewDelete(w.st.table, w.rows[i], hrpc.DeleteColumn(famG, qualA))
	if err != nil {
		return err
	}
	s := &w.state[i]
	switch _, err = w.client().Delete(ctx, d); {
	case err == nil:
		s.appended, s.appUnsure = map[uint64]bool{}, false
	case unknown(err):
		s.appUnsure = true // acknowledged chunks may be gone
	}
	return err
}

func (w *stressWorker) increment(ctx context.Context, i int) error {
	inc, err := hrpc.NewIncrement(w.st.table, w.rows[i], hrpc.Amount(famF, qualN, 1))
	if err != nil {
		return err
	}
	res, err := w.client().Increment(ctx, inc)
	s := &w.state[i]
	if err != nil {
		if unknown(err) {
			s.incPending++
		}
		return err
	}
	s.incs++
	if len(res.Cells) != 1 {
		w.st.fail("worker %d: Increment of %s returned %d cells", w.id, w.rows[i], len(res.Cells))
		return nil
	}
	w.checkOwnCell(i, &res.Cells[0], "Increment result")
	return nil
}

func (w *stressWorker) checkAndMutate(ctx context.Context, i int) error {
	seq := w.seq
	p, err := hrpc.NewPut(w.st.table, w.rows[i], hrpc.Value(famF, qualC, putValue(w.rows[i], qualC, seq, 40)))
	if err != nil {
		return err
	}
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists(famF, qualC), p)
	if err != nil {
		return err
	}
	done, err := w.client().CheckAndMutate(ctx, cam)
	s := &w.state[i]
	switch {
	case unknown(err):
		s.camPending[seq] = true
	case err != nil:
	case done && (s.cam != 0):
		w.st.fail("worker %d: CheckAndMutate(f:c absent) on %s applied, but seq %d wrote f:c before", w.id, w.rows[i], s.cam)
	case done:
		s.cam = seq
	case s.cam == 0 && len(s.camPending) == 0:
		w.st.fail("worker %d: CheckAndMutate(f:c absent) on %s not applied, but nothing wrote f:c", w.id, w.rows[i])
	}
	return err
}

func (w *stressWorker) mutateRow(ctx context.Context, i int) error {
	seq := w.seq
	p, err := hrpc.NewPut(w.st.table, w.rows[i], hrpc.Value(famF, qualP, putValue(w.rows[i], qualP, seq, 64)))
	if err != nil {
		return err
	}
	inc, err := hrpc.NewIncrement(w.st.table, w.rows[i], hrpc.Amount(famF, qualN, 1))
	if err != nil {
		return err
	}
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{p, inc})
	if err != nil {
		return err
	}
	err = w.client().MutateRow(ctx, rm)
	s := &w.state[i]
	switch {
	case err == nil:
		s.put = seq
		s.incs++
	case unknown(err):
		s.putPending[seq] = true
		s.incPending++
	}
	return err
}

// batch reads four of the worker's rows and writes a fifth in one SendBatch (another row: a
// Get batched with a Put of its row may or may not see it).
func (w *stressWorker) batch(ctx context.Context) error {
	pi, seq := w.rng.IntN(len(w.rows)), w.seq
	idx := make([]int, 0, 4)
	calls := make([]hrpc.Batchable, 0, 5)
	for len(idx) < 4 {
		k := w.rng.IntN(len(w.rows))
		if k == pi {
			continue
		}
		g, err := hrpc.NewGet(w.st.table, w.rows[k])
		if err != nil {
			return err
		}
		idx, calls = append(idx, k), append(calls, g)
	}
	p, err := hrpc.NewPut(w.st.table, w.rows[pi], hrpc.Value(famF, qualP, putValue(w.rows[pi], qualP, seq, 32)))
	if err != nil {
		return err
	}
	res := w.client().SendBatch(ctx, append(calls, p))
	var first error
	for k, r := range res {
		switch {
		case r.Err != nil:
			first = cmp.Or(first, r.Err)
			if k == 4 && unknown(r.Err) {
				w.state[pi].putPending[seq] = true
			}
		case k == 4:
			w.state[pi].put = seq
		default:
			w.checkOwnRow(idx[k], r.Result.Cells, "batched Get")
		}
	}
	return first
}

// scan reads a random range of the whole table (crossing regions, forward or reversed, some
// rows cut into batches of cells) and checks every cell by its content: rows of other workers
// change under it, so the model checks only apply to its own.
func (w *stressWorker) scan(ctx context.Context) error {
	// A 64th of the table (about 24 rows); one in eight crosses a region boundary.
	a := w.rng.IntN(252)
	lo, hi := fmt.Appendf(nil, "%02x", a), fmt.Appendf(nil, "%02x", a+4)
	opts := []hrpc.ScanOption{hrpc.StartRow(lo), hrpc.StopRow(hi), hrpc.NumberOfRows(1 + w.rng.IntN(20))}
	reversed := w.rng.IntN(4) == 0
	if reversed {
		opts = []hrpc.ScanOption{hrpc.StartRow(hi), hrpc.StopRow(lo), opts[2], hrpc.Reversed()}
	}
	batch := w.rng.IntN(4) == 0
	if batch {
		opts = append(opts, hrpc.BatchSize(2))
	}
	s, err := hrpc.NewScan(w.st.table, opts...)
	if err != nil {
		return err
	}
	var prev []byte
	for res, err := range w.client().Scan(ctx, s) {
		if err != nil {
			return err
		}
		row := res.Cells[0].Row
		if prev != nil {
			if c := bytes.Compare(prev, row); (c > 0 && !reversed) || (c < 0 && reversed) {
				w.st.fail("worker %d: scan [%s, %s) reversed=%v batch=%v returned row %q after %q", w.id, lo, hi, reversed, batch, row, prev)
			}
		}
		prev = row
		for k := range res.Cells {
			c := &res.Cells[k]
			if !bytes.Equal(c.Row, row) {
				w.st.fail("worker %d: scan result of row %q holds a cell of row %q", w.id, row, c.Row)
			}
			if err := checkCellContent(c); err != nil {
				w.st.fail("worker %d: scan: %v", w.id, err)
			}
		}
	}
	return nil
}

// checkCellContent checks a cell by what it says of itself.
func checkCellContent(c *hrpc.Cell) error {
	switch {
	case bytes.Equal(c.Family, famF) && (bytes.Equal(c.Qualifier, qualP) || bytes.Equal(c.Qualifier, qualC)):
		_, err := parsePutValue(c.Row, c.Qualifier, c.Value)
		return err
	case bytes.Equal(c.Family, famF) && bytes.Equal(c.Qualifier, qualN):
		_, err := counterValue(c.Value)
		return err
	case bytes.Equal(c.Family, famG) && bytes.Equal(c.Qualifier, qualA):
		_, err := parseAppended(c.Row, c.Value)
		return err
	}
	return fmt.Errorf("%w %s:%s in row %q", errStressUnexpectedQ, c.Family, c.Qualifier, c.Row)
}

// checkOwnRow checks a whole row of the worker's: every cell by its content and against the
// model, and that no acknowledged write is missing.
func (w *stressWorker) checkOwnRow(i int, cells []hrpc.Cell, what string) {
	s := &w.state[i]
	seen := map[string]bool{}
	for k := range cells {
		c := &cells[k]
		seen[string(c.Family)+":"+string(c.Qualifier)] = true
		w.checkOwnCell(i, c, what)
	}
	for col, acked := range map[string]bool{"f:p": s.put != 0, "f:c": s.cam != 0, "f:n": s.incs > 0, "g:a": len(s.appended) > 0 && !s.appUnsure} {
		if acked && !seen[col] {
			w.st.fail("worker %d: %s of %s lacks %s, which was written and acknowledged", w.id, what, w.rows[i], col)
		}
	}
}

func (w *stressWorker) checkOwnCell(i int, c *hrpc.Cell, what string) {
	s, row := &w.state[i], w.rows[i]
	if !bytes.Equal(c.Row, row) {
		w.st.fail("worker %d: %s of row %q holds a cell of row %q", w.id, what, row, c.Row)
		return
	}
	if err := checkCellContent(c); err != nil {
		w.st.fail("worker %d: %s: %v", w.id, what, err)
		return
	}
	switch col := string(c.Family) + ":" + string(c.Qualifier); col {
	case "f:p", "f:c":
		seq, _ := parsePutValue(c.Row, c.Qualifier, c.Value)
		acked, pending := s.put, s.putPending
		if col == "f:c" {
			acked, pending = s.cam, s.camPending
		}
		if seq != acked && !pending[seq] {
			w.st.fail("worker %d: %s of %s: %s is seq %d; last acknowledged %d, %d unknown", w.id, what, row, col, seq, acked, len(pending))
		}
	case "f:n":
		n, _ := counterValue(c.Value)
		if n < s.incs || n > s.incs+s.incPending {
			w.st.fail("worker %d: %s of %s: counter %d, want %d acknowledged + up to %d unknown", w.id, what, row, n, s.incs, s.incPending)
		}
	case "g:a":
		seqs, _ := parseAppended(c.Row, c.Value)
		if len(seqs) != len(slices.Compact(slices.Sorted(slices.Values(seqs)))) {
			w.st.fail("worker %d: %s of %s: an Append applied twice: %v", w.id, what, row, seqs)
		}
		got := map[uint64]bool{}
		for _, q := range seqs {
			got[q] = true
			if !s.appended[q] && !s.appPending[q] {
				w.st.fail("worker %d: %s of %s: chunk %d was never appended", w.id, what, row, q)
			}
		}
		for q := range s.appended {
			if !got[q] && !s.appUnsure {
				w.st.fail("worker %d: %s of %s: acknowledged chunk %d is missing", w.id, what, row, q)
			}
		}
	}
}
