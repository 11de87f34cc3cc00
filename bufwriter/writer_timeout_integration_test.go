package bufwriter

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// TestWriterFlushTimeoutUnderLatency: against a real cluster, with 400 ms of network latency
// added to the region server of the rows written, eight flushes of one Put each queue behind
// one flush slot under a 1 s flush timeout. The wait from each Write to its outcome must stay
// within the timeout (plus a 1 s margin for a loaded machine): before the timeout covered the
// wait for a slot, the last Puts waited for the flushes ahead of them and then a timeout more
// (3.2 s measured). The Puts whose flush found no slot in time fail as never sent, and are not
// in the table.
func TestWriterFlushTimeoutUnderLatency(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, hbase.WithDialer(fn.DialContext))
	table, addr, affected, _ := faultTarget(t, cl, c, []byte("v"))
	const latency, timeout, margin, n = 400 * time.Millisecond, time.Second, time.Second, 8

	var mu sync.Mutex
	written := map[hrpc.Mutation]time.Time{}
	waited := map[hrpc.Mutation]time.Duration{}
	errs := map[hrpc.Mutation]error{}
	w, err := New(c, table, WithFlushCount(1), WithMaxFlushes(1), WithFlushInterval(0),
		WithFlushTimeout(timeout), WithOnOutcome(func(o Outcome) {
			mu.Lock()
			defer mu.Unlock()
			waited[o.Mutation] = time.Since(written[o.Mutation])
			errs[o.Mutation] = o.Err
		}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, time.Minute)
	fn.Latency(addr, latency)
	rows := make([]string, n)
	puts := make([]hrpc.Mutation, n)
	for i := range n {
		rows[i] = fmt.Sprintf("%s-%d", affected, i) // in affected's region
		puts[i], err = hrpc.NewPut(table, []byte(rows[i]), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		written[puts[i]] = time.Now()
		mu.Unlock()
		if err := w.Write(ctx, puts[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	fn.Heal(addr)
	mu.Lock()
	defer mu.Unlock()
	if len(waited) != n {
		t.Fatalf("%d outcomes, want %d", len(waited), n)
	}
	var longest time.Duration
	var applied, indet, unsent int
	for i, p := range puts {
		longest = max(longest, waited[p])
		err := errs[p]
		switch {
		case err == nil:
			applied++
		case errors.Is(err, hberr.ErrIndeterminate):
			indet++
		default:
			unsent++
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Put %d failed with %v, want the flush's deadline", i, err)
			}
			res, err := c.Get(ctx, mustGetT(t, table, rows[i]))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Cells) != 0 {
				t.Errorf("Put %d reported failed (%v), yet its row is in the table", i, errs[p])
			}
		}
	}
	t.Logf("longest wait from Write to outcome: %v (flush timeout %v, latency %v); %d applied, %d indeterminate, %d failed",
		longest, timeout, latency, applied, indet, unsent)
	if longest > timeout+margin {
		t.Errorf("a mutation waited %v from Write to its outcome, over its flush timeout %v (+%v margin)", longest, timeout, margin)
	}
	if applied == 0 {
		t.Error("no Put applied: the latency left no flush time to finish")
	}
}
