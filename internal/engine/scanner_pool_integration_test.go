package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// TestIntegrationScanPooledScanners: against a real server, Client.Scan's reused scanners
// (scanner_pool.go) return the right rows one scan after another, across regions, forward and
// reversed, after scans broken out of or cancelled in the loop, and on several goroutines at
// once; every result a scan returned stays as it was while the scans that follow reuse the
// scanner.
func TestIntegrationScanPooledScanners(t *testing.T) {
	const n = 600
	table := createTable(t, []string{"f"}, splitKeys(n, 6))
	c := newTestClient(t)
	rows := loadRows(t, c, table, n)
	ctx := testContext(t, 3*time.Minute)

	var all []keptRow
	run := func(what string, s *hrpc.Scan, stop int, want []string) {
		t.Helper()
		got, err := scanKept(ctx, c, s, stop)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkRows(t, what, keptRows(got), want)
		for _, k := range got {
			if row := string(k.res.Cells[0].Row); string(k.res.Cells[0].Value) != "v"+row {
				t.Fatalf("%s: row %s has value %q", what, row, k.res.Cells[0].Value)
			}
		}
		all = append(all, got...)
	}
	for range 2 {
		run("forward", mustScanOf(t, table), 0, rows)
		run("forward, 7 rows per RPC", mustScanOf(t, table, hrpc.NumberOfRows(7)), 0, rows)
		run("broken out of", mustScanOf(t, table, hrpc.NumberOfRows(50)), 20, rows[:20])
		run("reversed, 9 rows per RPC", mustScanOf(t, table, hrpc.Reversed(), hrpc.NumberOfRows(9)), 0, reversedOf(rows))
		run("start/stop", mustScanOf(t, table, hrpc.StartRow([]byte("row0150")), hrpc.StopRow([]byte("row0250"))), 0, rows[150:250])
		run("limit across regions", mustScanOf(t, table, hrpc.Limit(233), hrpc.NumberOfRows(10)), 0, rows[:233])

		// Cancelled in the loop, with rows still buffered: they come, then the error.
		cctx, cancel := context.WithCancel(ctx)
		got := 0
		var cerr error
		for res, err := range c.Scan(cctx, mustScanOf(t, table, hrpc.NumberOfRows(30))) {
			if err != nil {
				cerr = err
				break
			}
			all = append(all, keep(res))
			got++
			cancel()
		}
		cancel()
		if got != 30 || !errors.Is(cerr, context.Canceled) {
			t.Fatalf("cancelled scan: %d rows, %v; want 30 then context.Canceled", got, cerr)
		}
	}
	checkKept(t, "scans one after another", all)

	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			var mine []keptRow
			for i := range 10 {
				from := (g*37 + i*53) % n
				s, err := hrpc.NewScan(table, hrpc.StartRow([]byte(rows[from])), hrpc.Limit(100),
					hrpc.NumberOfRows(1+(g+i)%40))
				if err != nil {
					errs <- err
					return
				}
				got, err := scanKept(ctx, c, s, 0)
				if want := rows[from:min(from+100, n)]; err != nil || !slices.Equal(keptRows(got), want) {
					errs <- fmt.Errorf("goroutine %d, scan %d from %s: %d rows, %v", g, i, rows[from], len(got), err)
					return
				}
				mine = append(mine, got...)
			}
			for i, k := range mine {
				if fmt.Sprint(*k.res) != fmt.Sprint(k.copy) {
					errs <- fmt.Errorf("goroutine %d: result %d changed", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
