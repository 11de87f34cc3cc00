package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// faultTarget creates a table of three regions ("", "h", "p"), writes value to a row of each
// with c, and returns the table, the address (as the client dials it) of a region server
// holding one of its regions but not hbase:meta, a row of that region, and a row of a region
// on another server ("" when there is none).
func faultTarget(t *testing.T, cl *hbasetest.Cluster, c *Client, value []byte, families ...string) (table, addr, affected, other string) {
	t.Helper()
	table = createTable(t, append([]string{"f"}, families...), [][]byte{[]byte("h"), []byte("p")})
	rows := []string{"arow", "hrow", "prow"} // one in each region
	locate := func() (metaAddr string, at []string) {
		for _, row := range rows {
			putRow(t, c, table, row, value)
			at = append(at, c.cache.get([]byte(table), []byte(row)).location())
		}
		return c.meta.location(), at
	}
	metaAddr, at := locate()
	for i, a := range at {
		if a != metaAddr && addr == "" {
			addr, affected = a, rows[i]
		}
	}
	if addr == "" {
		// Every region is with hbase:meta: move the first one away.
		moveRegion(t, cl, table, nil)
		metaAddr, at = locate()
		if at[0] == metaAddr {
			t.Fatalf("region of %q still with hbase:meta on %s after a move", rows[0], metaAddr)
		}
		addr, affected = at[0], rows[0]
	}
	for i, a := range at {
		if a != addr {
			other = rows[i]
		}
	}
	return table, addr, affected, other
}

func putRow(t *testing.T, c *Client, table, row string, value []byte) {
	t.Helper()
	put, _ := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), value))
	if _, err := c.Put(testContext(t, 30*time.Second), put); err != nil {
		t.Fatalf("Put %s: %v", row, err)
	}
}

// settledGoroutines waits until the goroutine count stops falling, and returns it.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m >= n {
			return m
		}
		n = m
	}
	return n
}

// heapAfterGC returns the live heap after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestPartitionAgainstHBase partitions the client from one region server (a black hole:
// nothing reset) for a few seconds while callers keep calling with short deadlines: the
// server's calls end at their context, the server is found silent and its connection
// dropped, the other regions keep working, goroutines do not grow, and calls recover once
// the partition heals.
func TestPartitionAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, WithDialer(fn.DialContext))
	value := bytes.Repeat([]byte("v"), 100)
	table, addr, affected, other := faultTarget(t, cl, c, value)
	if fn.Open(addr) == 0 {
		t.Fatalf("no connection to %s through the faultnet dialer: the cluster names its servers differently", addr)
	}
	baseline := settledGoroutines()
	heapBefore := heapAfterGC()

	fn.BlackHole(addr)
	partitioned := time.Now()
	const partition = 6 * time.Second
	var (
		worstLate   atomic.Int64
		affectedOK  atomic.Int64
		affectedErr atomic.Int64
		otherOK     atomic.Int64
		otherErr    atomic.Int64
		maxG        atomic.Int64
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	call := func(row string, ok, failed *atomic.Int64) {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			deadline, _ := ctx.Deadline()
			res, err := c.Get(ctx, mustGetT(t, table, row))
			if late := time.Since(deadline); late > 0 && int64(late) > worstLate.Load() {
				worstLate.Store(int64(late))
			}
			cancel()
			switch {
			case err == nil && (len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, value)):
				t.Errorf("row %s read back as %v", row, res.Cells)
			case err == nil:
				ok.Add(1)
			case errors.Is(err, context.DeadlineExceeded):
				failed.Add(1)
			default:
				failed.Add(1)
				t.Logf("row %s: %v", row, err)
			}
		}
	}
	for range 4 {
		wg.Add(1)
		go call(affected, &affectedOK, &affectedErr)
	}
	if other != "" {
		wg.Add(1)
		go call(other, &otherOK, &otherErr)
	}
	sampler := time.NewTicker(250 * time.Millisecond)
	var maxHeap uint64
	var ms runtime.MemStats
	for time.Since(partitioned) < partition {
		<-sampler.C
		if g := int64(runtime.NumGoroutine()); g > maxG.Load() {
			maxG.Store(g)
		}
		runtime.ReadMemStats(&ms)
		maxHeap = max(maxHeap, ms.HeapAlloc)
	}
	sampler.Stop()
	healed := time.Now()
	fn.Heal(addr)
	var recovery time.Duration
	for time.Since(healed) < time.Minute {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.Get(ctx, mustGetT(t, table, affected))
		cancel()
		if err == nil {
			recovery = time.Since(healed)
			break
		}
	}
	close(stop)
	wg.Wait()
	after := settledGoroutines()
	heapAfter := heapAfterGC()

	t.Logf("partition of %v from %s: affected row %d ok / %d failed, other row %d ok / %d failed; worst call %v past its deadline",
		partition, addr, affectedOK.Load(), affectedErr.Load(), otherOK.Load(), otherErr.Load(),
		time.Duration(worstLate.Load()).Round(time.Millisecond))
	t.Logf("goroutines: %d before, at most %d during, %d after; connections dropped as silent: %d; first success %v after healing",
		baseline, maxG.Load(), after, c.suspectDrops.Load(), recovery.Round(time.Millisecond))
	t.Logf("heap: %d KiB before (after a GC), at most %d KiB during, %d KiB after (after a GC)",
		heapBefore>>10, maxHeap>>10, heapAfter>>10)
	if recovery == 0 {
		t.Fatal("the partitioned region did not come back within a minute of healing")
	}
	if c.suspectDrops.Load() == 0 {
		t.Error("the silent server's connection was never dropped (suspect)")
	}
	if other != "" && otherOK.Load() == 0 {
		t.Error("the region on another server got no successful call during the partition")
	}
	// The callers (5) and the faultnet pump of a new connection account for a few; what
	// must not happen is growth with the number of calls (hundreds were made).
	if maxG.Load() > int64(baseline)+25 {
		t.Errorf("goroutines grew from %d to %d during the partition", baseline, maxG.Load())
	}
	if after > baseline+5 {
		t.Errorf("goroutines: %d after healing, %d before", after, baseline)
	}
	if late := time.Duration(worstLate.Load()); late > time.Second {
		t.Errorf("a call returned %v past its deadline", late)
	}
}

// TestResetMidResponseAgainstHBase resets the connection in the middle of responses: a Get
// is read again and returns the right row, an Increment is resent with its nonce and applied
// once, and a CheckAndMutate reports hberr.ErrIndeterminate rather than a guess. Slow reads and
// latency delay responses without changing them.
func TestResetMidResponseAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, WithDialer(fn.DialContext))
	ctx := testContext(t, time.Minute)
	value := bytes.Repeat([]byte("0123456789"), 400)
	table, addr, row, _ := faultTarget(t, cl, c, value)
	if fn.Open(addr) == 0 {
		t.Fatalf("no connection to %s through the faultnet dialer", addr)
	}

	dials := fn.Dials()
	fn.ResetAfter(addr, 1000)
	res, err := c.Get(ctx, mustGetT(t, table, row))
	if err != nil || len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, value) {
		t.Fatalf("Get across a reset mid-response: %v; want the 4000-byte value", err)
	}
	if fn.Dials() == dials {
		t.Error("no new connection after the reset: the fault did not fire")
	}

	incRow := row + "-counter"
	dials = fn.Dials()
	fn.ResetAfter(addr, 20)
	inc, _ := hrpc.NewIncrement(table, []byte(incRow), hrpc.Amount([]byte("f"), []byte("n"), 1))
	if _, err := c.Increment(ctx, inc); err != nil {
		t.Fatalf("Increment across a reset mid-response: %v", err)
	}
	if fn.Dials() == dials {
		t.Error("no new connection after the reset of the Increment's response")
	}
	res, err = c.Get(ctx, mustGetT(t, table, incRow))
	if err != nil || len(res.Cells) != 1 || len(res.Cells[0].Value) != 8 {
		t.Fatalf("reading the counter: %v, %v", res, err)
	}
	if n := binary.BigEndian.Uint64(res.Cells[0].Value); n != 1 {
		t.Errorf("counter = %d after one Increment resent across a reset; want 1 (the nonce makes the server apply it once)", n)
	}

	camRow := row + "-cam"
	put, _ := hrpc.NewPut(table, []byte(camRow), hrpc.Value([]byte("f"), []byte("q"), []byte("first")))
	cam, _ := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("f"), []byte("q")), put)
	// Its response is about a dozen bytes: break it after the frame's length, once the
	// client's own traffic after the last reset (relocation probes) is over.
	time.Sleep(500 * time.Millisecond)
	dials, open := fn.Dials(), fn.Open(addr)
	fn.ResetAfter(addr, 6)
	_, err = c.CheckAndMutate(ctx, cam)
	t.Logf("CheckAndMutate across a reset: %v (dials %d → %d, connections open %d → %d)", err, dials, fn.Dials(), open, fn.Open(addr))
	if !errors.Is(err, hberr.ErrIndeterminate) || hberr.IsRetryable(err) {
		t.Errorf("CheckAndMutate across a reset mid-response: %v; want hberr.ErrIndeterminate", err)
	}
	if res, err = c.Get(ctx, mustGetT(t, table, camRow)); err != nil {
		t.Fatalf("reading the CheckAndMutate's row: %v", err)
	}
	t.Logf("indeterminate CheckAndMutate: the server had applied it: %v", len(res.Cells) == 1)

	fn.SlowReads(addr, 256, time.Millisecond)
	res, err = c.Get(ctx, mustGetT(t, table, row))
	if err != nil || len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, value) {
		t.Fatalf("Get with slow reads: %v", err)
	}
	fn.Heal(addr)
	fn.Latency(addr, 50*time.Millisecond)
	began := time.Now()
	res, err = c.Get(ctx, mustGetT(t, table, row))
	if err != nil || len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, value) {
		t.Fatalf("Get with 50ms latency: %v", err)
	}
	if d := time.Since(began); d < 50*time.Millisecond {
		t.Errorf("Get with 50ms latency took %v", d)
	}
	fn.HealAll()
}
