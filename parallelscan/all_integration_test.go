package parallelscan

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
)

// TestParallelScanAllResumeAgainstHBase: against a real cluster, three loops over
// Scanner.All, each resumed from the Token the last one's Scanner gave after its loop: the
// first breaks out on a row it does not deal with; the second fails at its deadline, the
// server of its last range cut off (a black hole) part way; the third, once the network
// heals, reads the rest. Over the three, every row comes exactly once, and the row the first
// loop broke out on comes in a later one.
func TestParallelScanAllResumeAgainstHBase(t *testing.T) {
	testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, hbase.WithDialer(fn.DialContext))
	table := createTable(t, []string{"f"}, [][]byte{[]byte(","), []byte("k0300,\x00"), []byte("k0900")})
	rows := hostileKeys(1200)
	loadKeys(t, c, table, rows)
	ctx := testContext(t, time.Minute)
	if err := c.CacheRegions(ctx, table); err != nil {
		t.Fatal(err)
	}
	addr := engine.Of(c).CachedLocation([]byte(table), []byte("k0950"))
	scan, err := hrpc.NewScan(table, hrpc.NumberOfRows(10))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte

	// 1. A loop that breaks out on its 200th row, not dealing with it.
	ps := New(ctx, c, scan, WithConcurrency(3))
	var brokenOn []byte
	for r, err := range ps.All() {
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 199 {
			brokenOn = r.Cells[0].Row
			break
		}
		got = append(got, r.Cells[0].Row)
	}
	token := ps.Token()
	if ps.Err() != nil || brokenOn == nil {
		t.Fatalf("first loop: Err %v, broke out on %q", ps.Err(), brokenOn)
	}

	// 2. A loop that fails: the last range's server goes silent, the deadline ends it.
	sctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	ps = New(sctx, c, scan, WithConcurrency(3), WithOrder(), WithResume(token))
	n := 0
	var loopErr error
	for r, err := range ps.All() {
		if err != nil {
			loopErr = err
			break
		}
		got = append(got, r.Cells[0].Row)
		if n++; n == 150 {
			fn.BlackHole(addr)
		}
	}
	token = ps.Token()
	if !errors.Is(loopErr, context.DeadlineExceeded) || loopErr != ps.Err() {
		t.Fatalf("partitioned loop ended with %v after %d rows (Err %v), want its deadline", loopErr, n, ps.Err())
	}
	fn.HealAll()

	// 3. The rest.
	m := 0
	for r, err := range New(ctx, c, scan, WithConcurrency(3), WithResume(token)).All() {
		if err != nil {
			t.Fatalf("third loop after %d rows: %v", m, err)
		}
		got = append(got, r.Cells[0].Row)
		m++
	}
	t.Logf("rows: 199 before the break, %d before the deadline, %d after resuming", n, m)
	rowsOnce(t, "broken, failed and resumed", got, rows)
	found := false
	for _, r := range got {
		found = found || bytes.Equal(r, brokenOn)
	}
	if !found {
		t.Errorf("the row the first loop broke out on, %q, never came again", brokenOn)
	}
}
