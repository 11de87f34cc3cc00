package doc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The Jepsen-style check of the document layer: writers update different paths of the same
// documents concurrently while the network and the cluster fail; readers check that no
// document they read mixes two updates' paths; at the end every acknowledged update must be
// in the documents, nothing that was never written may be, and the index must agree with the
// documents before and after a repair.

const (
	jepsenDocs    = 3
	jepsenWriters = 3
)

// jepsenHistory is what the writers did: per writer and document, the sequence numbers they
// sent, those acknowledged and those whose outcome is unknown; for the conditional writer,
// its tokens by outcome.
type jepsenHistory struct {
	mu       sync.Mutex
	acked    map[[2]int][]int64
	maybe    map[[2]int][]int64
	casAcked map[int][]int64
	casMaybe map[int][]int64
	casNo    map[int][]int64
	counts   struct{ acked, maybe, refused, reads, mixed atomic.Int64 }
}

func newJepsenHistory() *jepsenHistory {
	return &jepsenHistory{acked: map[[2]int][]int64{}, maybe: map[[2]int][]int64{},
		casAcked: map[int][]int64{}, casMaybe: map[int][]int64{}, casNo: map[int][]int64{}}
}

func jepsenID(d int) string { return fmt.Sprintf("doc-%d", d) }

// checkDocument checks one document as read: for each writer, .wN.a and .wN.b equal (one
// update sets both), its log strictly increasing and ending with a; the conditional writer's
// counter equal to its log's length.
func checkDocument(fields map[string]any) error {
	for w := range jepsenWriters {
		sub, ok := fields[fmt.Sprintf("w%d", w)].(map[string]any)
		if !ok {
			continue
		}
		a, aok := sub["a"]
		b, bok := sub["b"]
		if aok != bok || a != b {
			return fmt.Errorf("w%d: a=%v b=%v: two updates mixed", w, a, b)
		}
		log, _ := sub["log"].([]any)
		for i := 1; i < len(log); i++ {
			if log[i].(int64) <= log[i-1].(int64) {
				return fmt.Errorf("w%d: log %v not increasing", w, log)
			}
		}
		if aok && (len(log) == 0 || log[len(log)-1] != a) {
			return fmt.Errorf("w%d: a=%v but log ends %v: two updates mixed", w, a, log)
		}
	}
	if cas, ok := fields["cas"].(map[string]any); ok {
		log, _ := cas["log"].([]any)
		if n, _ := cas["n"].(int64); int(n) != len(log) {
			return fmt.Errorf("cas: n=%d but %d tokens: a lost update", n, len(log))
		}
	}
	return nil
}

// jepsenRun runs the writers and readers on c while faults run, then checks the history with
// check (a collection on a client without faults).
func jepsenRun(t *testing.T, c, check *Collection, faults func(stop <-chan struct{})) {
	ctx := testContext(t, 10*time.Minute)
	for d := range jepsenDocs {
		if _, err := c.Upsert(ctx, jepsenID(d), map[string]any{"created": true}); err != nil {
			t.Fatal(err)
		}
	}
	h := newJepsenHistory()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	maybeErr := func(err error) bool {
		// What a fault gives: the deadline, an unknown outcome, a connection that broke.
		return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, hberr.ErrIndeterminate) ||
			hberr.IsRetryable(err) || hberr.IsTimeout(err)
	}
	for w := range jepsenWriters {
		wg.Go(func() {
			for k := int64(1); ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				d := int(k) % jepsenDocs
				key := [2]int{w, d}
				p := fmt.Sprintf(".w%d", w)
				cctx, cancel := context.WithTimeout(ctx, time.Second)
				_, err := c.Update(cctx, jepsenID(d), []Op{Set(p+".a", k), Set(p+".b", k), Append(p+".log", k)})
				cancel()
				h.mu.Lock()
				switch {
				case err == nil:
					h.acked[key] = append(h.acked[key], k)
					h.counts.acked.Add(1)
				case maybeErr(err):
					h.maybe[key] = append(h.maybe[key], k)
					h.counts.maybe.Add(1)
				default:
					t.Errorf("writer %d: %v", w, err)
				}
				h.mu.Unlock()
			}
		})
	}
	wg.Go(func() { // the conditional writer: read, then write at the version read
		for tok := int64(1); ; tok++ {
			select {
			case <-stop:
				return
			default:
			}
			d := int(tok) % jepsenDocs
			cctx, cancel := context.WithTimeout(ctx, time.Second)
			doc, err := c.Get(cctx, jepsenID(d), Project(".cas.n"))
			if err == nil {
				n, _ := doc.Lookup(".cas.n")
				next, _ := n.(int64)
				_, err = c.Update(cctx, jepsenID(d), []Op{Set(".cas.n", next+1), Append(".cas.log", tok)}, IfVersion(doc.Version))
			} else if maybeErr(err) {
				cancel()
				continue // nothing sent
			}
			cancel()
			h.mu.Lock()
			switch {
			case err == nil:
				h.casAcked[d] = append(h.casAcked[d], tok)
				h.counts.acked.Add(1)
			case errors.Is(err, hberr.ErrVersionConflict):
				h.casNo[d] = append(h.casNo[d], tok)
				h.counts.refused.Add(1)
			case maybeErr(err):
				h.casMaybe[d] = append(h.casMaybe[d], tok)
				h.counts.maybe.Add(1)
			default:
				t.Errorf("conditional writer: %v", err)
			}
			h.mu.Unlock()
		}
	})
	for range 2 {
		wg.Go(func() { // readers: whole documents and projections
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				cctx, cancel := context.WithTimeout(ctx, time.Second)
				var opts []ReadOption
				if i%2 == 1 {
					opts = append(opts, Project(".w1", ".cas"))
				}
				doc, err := c.Get(cctx, jepsenID(i%jepsenDocs), opts...)
				cancel()
				if err != nil {
					if !maybeErr(err) {
						t.Errorf("reader: %v", err)
					}
					continue
				}
				h.counts.reads.Add(1)
				if err := checkDocument(doc.Fields); err != nil {
					h.counts.mixed.Add(1)
					t.Errorf("reader: %s v%d: %v", doc.ID, doc.Version, err)
				}
			}
		})
	}
	faults(stop)
	close(stop)
	wg.Wait()
	t.Logf("%d updates acknowledged, %d of unknown outcome, %d conditional ones refused; %d reads, %d mixed",
		h.counts.acked.Load(), h.counts.maybe.Load(), h.counts.refused.Load(), h.counts.reads.Load(), h.counts.mixed.Load())
	if h.counts.acked.Load() == 0 {
		t.Fatal("no update acknowledged")
	}

	// The final documents, read through a client without faults.
	final := map[string]map[string]any{}
	for d := range jepsenDocs {
		doc, err := check.Get(ctx, jepsenID(d))
		if err != nil {
			t.Fatal(err)
		}
		final[doc.ID] = doc.Fields
		if err := checkDocument(doc.Fields); err != nil {
			t.Errorf("final %s: %v", doc.ID, err)
		}
		for w := range jepsenWriters {
			key := [2]int{w, d}
			v, _ := doc.Lookup(fmt.Sprintf(".w%d.log", w))
			log, _ := v.([]any)
			have := map[int64]bool{}
			for _, e := range log {
				have[e.(int64)] = true
			}
			for _, k := range h.acked[key] {
				if !have[k] {
					t.Errorf("%s w%d: acknowledged update %d lost", doc.ID, w, k)
				}
				delete(have, k)
			}
			for _, k := range h.maybe[key] {
				delete(have, k)
			}
			for k := range have {
				t.Errorf("%s w%d: update %d in the document was never sent", doc.ID, w, k)
			}
		}
		v, _ := doc.Lookup(".cas.log")
		log, _ := v.([]any)
		seen := map[int64]int{}
		for _, e := range log {
			seen[e.(int64)]++
		}
		for _, tok := range h.casAcked[d] {
			if seen[tok] != 1 {
				t.Errorf("%s: acknowledged conditional update %d is there %d times", doc.ID, tok, seen[tok])
			}
		}
		for _, tok := range h.casNo[d] {
			if seen[tok] != 0 {
				t.Errorf("%s: refused conditional update %d is there", doc.ID, tok)
			}
		}
		for tok, n := range seen {
			if n > 1 || !slices.Contains(h.casAcked[d], tok) && !slices.Contains(h.casMaybe[d], tok) {
				t.Errorf("%s: conditional update %d there %d times, sent %v", doc.ID, tok, n, slices.Contains(h.casMaybe[d], tok))
			}
		}
	}
	// Never a value without its index row, even before a repair: each document is found
	// through the index by its value.
	for id, fields := range final {
		a := fields["w0"].(map[string]any)["a"]
		ids := findIDs(t, check, Eq(".w0.a", a))
		if !slices.Contains(ids, id) {
			t.Errorf("%s with .w0.a=%v not found through the index (found %q)", id, a, ids)
		}
	}
	rep, err := check.RepairIndex(ctx, "w0a")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("repair: %v", rep)
	if rep.Added != 0 {
		t.Errorf("the repair added %d rows: values were without their row", rep.Added)
	}
	checkIndexes(t, ctx, check, final)
}

// TestConcurrentWritersUnderFaults is the check on fakehbase (with its faults: refusals,
// delays, region moves) and on the real cluster (with network faults through faultnet on the
// documents' region server, and region moves). make test runs one round of faults; make
// reliability (GOHBASE_RELIABILITY_ROUNDS) more.
func TestConcurrentWritersUnderFaults(t *testing.T) {
	rounds := testkit.Rounds(t)
	t.Run("fake", func(t *testing.T) {
		b := fakeBackend(t)
		c := b.collection(t, WithIndex("w0a", ".w0.a"))
		srv := b.fake
		jepsenRun(t, c, c, func(<-chan struct{}) {
			for range rounds {
				step := func(what string, f func() error) {
					if err := f(); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					time.Sleep(300 * time.Millisecond)
				}
				step("busy", func() error {
					return srv.InjectError(fakehbase.Match{Op: fakehbase.OpCheckAndMutate, Table: c.Table()}, fakehbase.RegionTooBusy, "busy", 20)
				})
				step("slow", func() error {
					return srv.InjectDelay(fakehbase.Match{Op: fakehbase.OpGet, Table: c.Table()}, 5*time.Millisecond, 100)
				})
				step("move", func() error { return srv.MoveRegion(c.Table(), []byte(jepsenID(0))) })
				step("index busy", func() error {
					return srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Table: c.idxTable}, fakehbase.RegionTooBusy, "busy", 10)
				})
				srv.ClearFaults()
			}
		})
	})
	t.Run("real", func(t *testing.T) {
		cl := env.Cluster(t)
		fn := faultnet.New()
		b := realBackend(t, hbase.WithDialer(fn.DialContext))
		c := b.collection(t, WithIndex("w0a", ".w0.a"))
		check := realBackend(t)
		cc, err := Open(check.client, c.Table(), "d", WithIndexTable(c.idxTable, "d"), WithIndex("w0a", ".w0.a"))
		if err != nil {
			t.Fatal(err)
		}
		addr := docsServer(t, cl, c.Table())
		jepsenRun(t, c, cc, func(<-chan struct{}) {
			for round := range rounds {
				fault := func(name string, on func(), d time.Duration) {
					began := time.Now()
					on()
					time.Sleep(d)
					fn.Heal(addr)
					time.Sleep(time.Second)
					t.Logf("round %d: %s (%v)", round, name, time.Since(began).Round(time.Millisecond))
				}
				fault("partition 1.5s", func() { fn.BlackHole(addr) }, 1500*time.Millisecond)
				fault("reset mid-response", func() { fn.ResetAfter(addr, 40) }, time.Second)
				fault("latency 30ms", func() { fn.Latency(addr, 30*time.Millisecond) }, 1500*time.Millisecond)
				fault("region moved away and back", func() { moveAndBack(t, cl, c.Table()) }, 0)
			}
		})
	})
}

// docsServer returns the address of the server holding table's region, moving it off
// hbase:meta's server first, so that a partition cuts off the documents and not the client's
// region lookups.
func docsServer(t *testing.T, cl *hbasetest.Cluster, table string) string {
	t.Helper()
	ctx := testContext(t, 2*time.Minute)
	meta, err := cl.Regions(ctx, "hbase:meta")
	if err != nil || len(meta) != 1 {
		t.Fatalf("hbase:meta regions: %v, %v", meta, err)
	}
	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions of %s: %v, %v", table, regions, err)
	}
	if regions[0].Server == meta[0].Server {
		if err := cl.Move(ctx, regions[0].EncodedName, 1-meta[0].Server); err != nil {
			t.Fatal(err)
		}
		if regions, err = cl.Regions(ctx, table); err != nil {
			t.Fatal(err)
		}
	}
	return regions[0].Addr
}

// moveAndBack moves table's one region to the other server and back.
func moveAndBack(t *testing.T, cl *hbasetest.Cluster, table string) {
	ctx := testContext(t, 2*time.Minute)
	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Errorf("regions of %s: %v, %v", table, regions, err)
		return
	}
	from := regions[0].Server
	for _, to := range []int{1 - from, from} {
		if err := cl.Move(ctx, regions[0].EncodedName, to); err != nil {
			t.Errorf("move to %d: %v", to, err)
			return
		}
	}
}
