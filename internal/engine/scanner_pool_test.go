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
	"github.com/go-hbase/hbase/internal/fakeserver"
)

// keptRow is a deep copy of a result, to check later that the result did not change.
type keptRow struct {
	res  *hrpc.Result
	copy hrpc.Result
}

func keep(res *hrpc.Result) keptRow {
	cp := *res
	cp.Cells = nil
	for _, c := range res.Cells {
		cp.Cells = append(cp.Cells, hrpc.Cell{Row: slices.Clone(c.Row), Family: slices.Clone(c.Family),
			Qualifier: slices.Clone(c.Qualifier), Timestamp: c.Timestamp, Type: c.Type, Value: slices.Clone(c.Value)})
	}
	return keptRow{res: res, copy: cp}
}

// checkKept fails unless every kept result is as it was when the scan returned it.
func checkKept(t *testing.T, what string, kept []keptRow) {
	t.Helper()
	for i, k := range kept {
		if fmt.Sprint(*k.res) != fmt.Sprint(k.copy) {
			t.Fatalf("%s: result %d changed after later scans:\n now %v\nwas %v", what, i, *k.res, k.copy)
		}
	}
}

// scanKept runs scan through Client.Scan and keeps every result it returns, stopping (break)
// after stop rows when stop > 0; it returns them and the scan's error.
func scanKept(ctx context.Context, c *Client, scan *hrpc.Scan, stop int) ([]keptRow, error) {
	var kept []keptRow
	for res, err := range c.Scan(ctx, scan) {
		if err != nil {
			return kept, err
		}
		kept = append(kept, keep(res))
		if stop > 0 && len(kept) == stop {
			break
		}
	}
	return kept, nil
}

func keptRows(kept []keptRow) []string {
	var rows []string
	for _, k := range kept {
		rows = append(rows, string(k.res.Cells[0].Row))
	}
	return rows
}

func wantRows(from, to int) []string {
	var rows []string
	for i := from; i < to; i++ {
		rows = append(rows, fmt.Sprintf("r%03d", i))
	}
	return rows
}

// TestScanPooledScannerLeavesResultsAlone: Client.Scan's scanners are reused one scan after
// another (scanner_pool.go); the results a scan returned stay the caller's, unchanged by the
// scans that follow, whether the scan ran to its end, was broken out of, was cancelled in the
// loop or ended with an error, and nothing of one scan (rows returned, limit, error, region)
// shows in the next.
func TestScanPooledScannerLeavesResultsAlone(t *testing.T) {
	fs := newFakeScans(t, 30, threeRegions()...)
	fs.pieces = true // rows put together from two pieces first
	c := fs.client(t)
	ctx := testContext(t, 20*time.Second)

	var all []keptRow
	// Several RPCs per region, three regions.
	full, err := scanKept(ctx, c, mustScan(t, hrpc.NumberOfRows(4)), 0)
	if err != nil || !slices.Equal(keptRows(full), wantRows(0, 30)) {
		t.Fatalf("first scan: %v, %v", keptRows(full), err)
	}
	all = append(all, full...)
	fs.mu.Lock()
	fs.pieces = false // and whole rows, which alias the responses as they are
	fs.mu.Unlock()

	// Broken out of with rows still buffered: the next scan starts afresh.
	broken, err := scanKept(ctx, c, mustScan(t, hrpc.NumberOfRows(8)), 3)
	if err != nil || !slices.Equal(keptRows(broken), wantRows(0, 3)) {
		t.Fatalf("broken scan: %v, %v", keptRows(broken), err)
	}
	all = append(all, broken...)

	// Cancelled in the loop.
	cctx, cancel := context.WithCancel(ctx)
	var cancelled []keptRow
	var cerr error
	for res, err := range c.Scan(cctx, mustScan(t, hrpc.NumberOfRows(4), hrpc.StartRow([]byte("r005")))) {
		if err != nil {
			cerr = err
			break
		}
		cancelled = append(cancelled, keep(res))
		cancel()
	}
	cancel()
	if !errors.Is(cerr, context.Canceled) || !slices.Equal(keptRows(cancelled), wantRows(5, 9)) {
		t.Fatalf("cancelled scan: %v, %v; want r005-r008 then context.Canceled", keptRows(cancelled), cerr)
	}
	all = append(all, cancelled...)

	// Ended by an error from the server.
	fs.onNext = func(int64) *fakeserver.Response {
		r := fs.exception("DoNotRetryIOException")
		return &r
	}
	if failed, err := scanKept(ctx, c, mustScan(t), 0); err == nil || len(failed) != 0 {
		t.Fatalf("failing scan: %v, %v; want an error", keptRows(failed), err)
	}
	fs.onNext = nil

	// With a limit, reversed, from a start row: what the earlier scans left (their last row,
	// their limit, their error) must not show.
	limited, err := scanKept(ctx, c, mustScan(t, hrpc.NumberOfRows(3), hrpc.Limit(7)), 0)
	if err != nil || !slices.Equal(keptRows(limited), wantRows(0, 7)) {
		t.Fatalf("limited scan: %v, %v", keptRows(limited), err)
	}
	all = append(all, limited...)
	reversed, err := scanKept(ctx, c, mustScan(t, hrpc.NumberOfRows(5), hrpc.Reversed(), hrpc.StartRow([]byte("r024"))), 0)
	want := wantRows(0, 25)
	slices.Reverse(want)
	if err != nil || !slices.Equal(keptRows(reversed), want) {
		t.Fatalf("reversed scan: %v, %v", keptRows(reversed), err)
	}
	all = append(all, reversed...)

	for range 3 {
		again, err := scanKept(ctx, c, mustScan(t, hrpc.NumberOfRows(30)), 0)
		if err != nil || len(again) != 30 {
			t.Fatalf("scan again: %d rows, %v", len(again), err)
		}
		all = append(all, again...)
	}
	checkKept(t, "back-to-back scans", all)

	// No two results of any scans are one.
	seen := make(map[*hrpc.Result]bool)
	cells := make(map[*hrpc.Cell]bool)
	for i, k := range all {
		if seen[k.res] || cells[&k.res.Cells[0]] {
			t.Fatalf("result %d (row %s) was returned before", i, k.res.Cells[0].Row)
		}
		seen[k.res], cells[&k.res.Cells[0]] = true, true
	}
	waitFor(t, func() bool {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		return len(fs.open) == 0
	}, "the server-side scanners of the broken and cancelled scans closed")
}

// TestScanPooledScannerCancelledInRPC: a scan whose context ends while its RPC waits for the
// server gives its scanner back at once; the late response must not reach the scanner the
// next scan runs with (run with -race).
func TestScanPooledScannerCancelledInRPC(t *testing.T) {
	fs := newFakeScans(t, 30, threeRegions()...)
	var slow sync.Once
	release := make(chan struct{})
	fs.onNext = func(int64) *fakeserver.Response {
		slow.Do(func() { <-release }) // the first scan RPC answers late
		return nil
	}
	c := fs.client(t)
	ctx := testContext(t, 20*time.Second)
	sctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	kept, err := scanKept(sctx, c, mustScan(t, hrpc.NumberOfRows(4)), 0)
	if !errors.Is(err, context.DeadlineExceeded) || len(kept) != 0 {
		t.Fatalf("slow scan: %v, %v; want no rows and context.DeadlineExceeded", keptRows(kept), err)
	}
	close(release) // the late answer arrives while the next scans run
	var all []keptRow
	for range 5 {
		got, err := scanKept(ctx, c, mustScan(t, hrpc.NumberOfRows(7)), 0)
		if err != nil || !slices.Equal(keptRows(got), wantRows(0, 30)) {
			t.Fatalf("scan after the cancelled one: %v, %v", keptRows(got), err)
		}
		all = append(all, got...)
	}
	checkKept(t, "scans after a cancelled RPC", all)
}

// TestScanPooledScannersConcurrent: scans on many goroutines share the client's pool; each
// gets its own rows, and the rows each kept stay as they were (run with -race).
func TestScanPooledScannersConcurrent(t *testing.T) {
	fs := newFakeScans(t, 30, threeRegions()...)
	c := fs.client(t)
	ctx := testContext(t, 30*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			var all []keptRow
			for i := range 20 {
				from := (g + i) % 30
				scan, err := hrpc.NewScan("t", hrpc.StartRow(fmt.Appendf(nil, "r%03d", from)),
					hrpc.NumberOfRows(1+(g+i)%9))
				if err != nil {
					errs <- err
					return
				}
				stop := 0
				if i%4 == 3 {
					stop = 2 // broken out of
				}
				got, err := scanKept(ctx, c, scan, stop)
				want := wantRows(from, 30)
				if stop > 0 {
					want = want[:min(stop, len(want))]
				}
				if err != nil || !slices.Equal(keptRows(got), want) {
					errs <- fmt.Errorf("goroutine %d, scan %d from r%03d: %v, %v", g, i, from, keptRows(got), err)
					return
				}
				all = append(all, got...)
			}
			for i, k := range all {
				if fmt.Sprint(*k.res) != fmt.Sprint(k.copy) {
					errs <- fmt.Errorf("goroutine %d: result %d changed: %v, was %v", g, i, *k.res, k.copy)
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
