package engine

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// moveRegion moves the region of table starting at start to another live region server and
// returns the region as it was before the move.
func moveRegion(t *testing.T, cl *hbasetest.Cluster, table string, start []byte) hbasetest.Region {
	t.Helper()
	ctx := testContext(t, 2*time.Minute)
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		if string(r.StartKey) != string(start) {
			continue
		}
		for i := range st.RegionServers {
			to := (r.Server + 1 + i) % len(st.RegionServers)
			if to != r.Server && st.RegionServers[to].Live {
				if err := cl.Move(ctx, r.EncodedName, to); err != nil {
					t.Fatalf("moving %s to server %d: %v", r.EncodedName, to, err)
				}
				return r
			}
		}
		t.Fatalf("no live server to move %s to: %+v", r.EncodedName, st.RegionServers)
	}
	t.Fatalf("no region of %s starts at %q: %+v", table, start, regions)
	return hbasetest.Region{}
}

// TestNoRetriesAgainstHBase: a client that never retries reports the real server's refusal
// after one attempt, learns from it, and a request allowed more attempts rides over a move.
func TestNoRetriesAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t, WithNoRetries())
	ctx := testContext(t, time.Minute)
	put, _ := hrpc.NewPut(table, []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatalf("first Put: %v", err)
	}
	moveRegion(t, cl, table, nil)
	_, err := c.Get(ctx, mustGetT(t, table, "row"))
	ae, ok := errors.AsType[*hberr.AttemptsError](err)
	if !ok || ae.Attempts != 1 || !errors.Is(err, hberr.ErrRegionUnavailable) {
		t.Fatalf("Get after a move without retries: err = %v; want an *hberr.AttemptsError after 1 attempt wrapping hberr.ErrRegionUnavailable", err)
	}
	t.Logf("no-retry Get after a move: %v", err)
	if res, err := c.Get(ctx, mustGetT(t, table, "row")); err != nil || len(res.Cells) != 1 {
		t.Fatalf("second Get: %v, %v; want the row (the client relocated the region)", res, err)
	}

	moveRegion(t, cl, table, nil)
	get, _ := hrpc.NewGet(table, []byte("row"), hrpc.MaxAttempts(20))
	if res, err := c.Get(ctx, get); err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != "v" {
		t.Fatalf("Get with MaxAttempts(20) after a move: %v, %v; want the row", res, err)
	}
}

// TestRegionMovedHintAgainstHBase: after a move, the old server's RegionMovedException takes
// the client straight to the new server, without reading hbase:meta.
func TestRegionMovedHintAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	put, _ := hrpc.NewPut(table, []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		metaBefore, hintsBefore := c.metaRPCs.Load(), c.movedHints.Load()
		moveRegion(t, cl, table, nil)
		began := time.Now()
		res, err := c.Get(ctx, mustGetT(t, table, "row"))
		if err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != "v" {
			t.Fatalf("Get after move %d: %v, %v", round, res, err)
		}
		t.Logf("move %d: first Get after the move took %v; hbase:meta scans %d, RegionMoved hints followed %d",
			round, time.Since(began), c.metaRPCs.Load()-metaBefore, c.movedHints.Load()-hintsBefore)
		if c.movedHints.Load() == hintsBefore {
			t.Errorf("move %d: the RegionMoved hint was not followed", round)
		}
		if n := c.metaRPCs.Load() - metaBefore; n != 0 {
			t.Errorf("move %d: %d hbase:meta scans; want 0 with the hint", round, n)
		}
	}
}

// TestDeadServerRelocationAgainstHBase kills the region server holding the most regions of a
// table (not hbase:meta's) and measures how the client gets back: every region's first
// successful Get after the kill, and the hbase:meta scans it cost, against what one lookup per
// region and round would have cost. The table is split at keys that hbase:meta does not keep
// in byte order (hostileSplits: below ',' and around it), so the relocation's range scans of
// hbase:meta run over them.
func TestDeadServerRelocationAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	var splits [][]byte
	for _, k := range append(slices.Clone(hostileSplits[:len(hostileSplits)-1]), "a", "m", "\xff") {
		splits = append(splits, []byte(k))
	}
	table := createTable(t, []string{"f"}, splits)
	ctx := testContext(t, 4*time.Minute)
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	metaRegions, err := cl.Regions(ctx, "hbase:meta")
	if err != nil || len(metaRegions) != 1 {
		t.Fatalf("hbase:meta regions: %v, %v", metaRegions, err)
	}
	count := map[int]int{}
	for _, r := range regions {
		if r.Server != metaRegions[0].Server {
			count[r.Server]++
		}
	}
	victim, most := -1, 0
	for s, n := range count {
		if n > most {
			victim, most = s, n
		}
	}
	if victim < 0 {
		t.Skipf("every region of %s is on hbase:meta's server", table)
	}
	c := newTestClient(t)
	// A row in every region but the first, ["", "\x00"), which holds none.
	n := len(splits)
	rowOf := func(i int) string { return string(splits[i]) }
	for i := range n {
		put, _ := hrpc.NewPut(table, []byte(rowOf(i)), hrpc.Value([]byte("f"), []byte("q"), []byte(rowOf(i))))
		if _, err := c.Put(ctx, put); err != nil {
			t.Fatal(err)
		}
	}
	metaBefore, roundsBefore := c.metaRPCs.Load(), c.relocationRounds.Load()
	killed := time.Now()
	if err := cl.KillRS(ctx, victim); err != nil {
		t.Fatalf("kill-rs %d: %v", victim, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, err := cl.StartRS(ctx, victim); err != nil {
			t.Errorf("start-rs %d: %v", victim, err)
		}
	})
	var wg sync.WaitGroup
	recovered := make([]time.Duration, n)
	for i := range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				callCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
				res, err := c.Get(callCtx, mustGetT(t, table, rowOf(i)))
				cancel()
				if err == nil {
					if len(res.Cells) != 1 || string(res.Cells[0].Value) != rowOf(i) {
						t.Errorf("row %s read back as %v", rowOf(i), res.Cells)
					}
					recovered[i] = time.Since(killed)
					return
				}
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("not every region came back within the test's time: %v", recovered)
	}
	slices.Sort(recovered)
	rpcs, rounds := c.metaRPCs.Load()-metaBefore, c.relocationRounds.Load()-roundsBefore
	t.Logf("kill-rs %d (%d of %d regions): first success per region after the kill: min %v, median %v, max %v",
		victim, most, n+1, recovered[0].Round(time.Millisecond), recovered[n/2].Round(time.Millisecond), recovered[n-1].Round(time.Millisecond))
	t.Logf("hbase:meta scans %d in %d relocation rounds (one lookup per region and round would be %d)",
		rpcs, rounds, rounds*int64(most))
	if rounds == 0 {
		t.Fatalf("no relocation round ran: the lost server's regions were not relocated together")
	}
	// One scan per round (one table), plus at most one lookup per region by a call that
	// found its region dropped.
	if rpcs > rounds+int64(most) {
		t.Errorf("%d hbase:meta scans for %d rounds and %d regions; want at most rounds + regions", rpcs, rounds, most)
	}
}
