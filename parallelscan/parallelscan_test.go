package parallelscan_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/parallelscan"
)

// hostileRows are keys a parallel scan must not trip over: binary, low bytes, ',' (the
// separator of region names), bytes sorting around the split points.
func hostileRows(n int) [][]byte {
	rows := [][]byte{{0x00}, {0x00, 0x00}, {0x01}, []byte(","), []byte(",,"), []byte("a,b"),
		{0xff}, {0xff, 0xff, 0x00}, []byte("\x00,\x00"), []byte("m"), []byte("m\x00")}
	for i := range n {
		rows = append(rows, fmt.Appendf(nil, "r%03d,\x00%c", i, byte(i)))
	}
	slices.SortFunc(rows, bytes.Compare)
	return slices.CompactFunc(rows, bytes.Equal)
}

// hostileSplits are split points at such keys.
var hostileSplits = [][]byte{{0x00, 0x00}, []byte(","), []byte("\x00,\x00"), []byte("m"), []byte("r050,\x00"), {0xff}}

// parallelFixture is a fakehbase with table "p" split at hostileSplits and loaded with rows.
func parallelFixture(t *testing.T, n int) (*fakehbase.Server, *hbase.Client, [][]byte) {
	t.Helper()
	srv := fakehbase.NewServer(t, fakehbase.WithRegionServers(3))
	if err := srv.CreateTable("p", []string{"f"}, hostileSplits...); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	rows := hostileRows(n)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var batch []hrpc.Batchable
	for _, r := range rows {
		p, err := hrpc.NewPut("p", r, hrpc.Value([]byte("f"), []byte("q"), r))
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, p)
	}
	for i, res := range c.SendBatch(ctx, batch) {
		if res.Err != nil {
			t.Fatalf("loading row %d: %v", i, res.Err)
		}
	}
	return srv, c, rows
}

func newScan(t *testing.T, opts ...hrpc.ScanOption) *hrpc.Scan {
	t.Helper()
	s, err := hrpc.NewScan("p", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkOnce fails unless got holds every row of want exactly once (in any order).
func checkOnce(t *testing.T, got, want [][]byte) {
	t.Helper()
	seen := map[string]int{}
	for _, r := range got {
		seen[string(r)]++
	}
	for _, r := range want {
		if seen[string(r)] != 1 {
			t.Errorf("row %q returned %d times", r, seen[string(r)])
		}
		delete(seen, string(r))
	}
	for r, n := range seen {
		t.Errorf("row %q returned %d times, not in the table", r, n)
	}
}

func rowOf(t *testing.T, r *hrpc.Result) []byte {
	t.Helper()
	if len(r.Cells) == 0 {
		t.Fatalf("result without cells: %+v", r)
	}
	if !bytes.Equal(r.Cells[0].Value, r.Cells[0].Row) {
		t.Fatalf("row %q has value %q", r.Cells[0].Row, r.Cells[0].Value)
	}
	return r.Cells[0].Row
}

func TestParallelScanEveryRowOnce(t *testing.T) {
	_, c, rows := parallelFixture(t, 200)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name string
		scan []hrpc.ScanOption
		want [][]byte
	}{
		{"whole table", nil, rows},
		{"range across splits", []hrpc.ScanOption{hrpc.StartRow([]byte{0x00, 0x00}), hrpc.StopRow([]byte("r100"))},
			filterRows(rows, []byte{0x00, 0x00}, []byte("r100"))},
		{"prefix with comma", []hrpc.ScanOption{hrpc.Prefix([]byte(","))}, filterRows(rows, []byte(","), []byte("-"))},
	} {
		for _, n := range []int{1, 3, 16} {
			for _, ordered := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/c%d/ordered=%v", tc.name, n, ordered), func(t *testing.T) {
					opts := []parallelscan.Option{parallelscan.WithConcurrency(n)}
					if ordered {
						opts = append(opts, parallelscan.WithOrder())
					}
					var got [][]byte
					for r, err := range parallelscan.Scan(ctx, c, newScan(t, append(tc.scan, hrpc.NumberOfRows(7))...), opts...) {
						if err != nil {
							t.Fatal(err)
						}
						got = append(got, rowOf(t, r))
					}
					checkOnce(t, got, tc.want)
					if ordered && !slices.IsSortedFunc(got, bytes.Compare) {
						t.Errorf("ordered scan out of order")
					}
				})
			}
		}
	}
}

func filterRows(rows [][]byte, start, stop []byte) [][]byte {
	var out [][]byte
	for _, r := range rows {
		if bytes.Compare(r, start) >= 0 && bytes.Compare(r, stop) < 0 {
			out = append(out, r)
		}
	}
	return out
}

// A scan stopped part way (its context cancelled, a region failing) and resumed from its
// token returns every row exactly once over both runs, again and again.
func TestParallelScanResume(t *testing.T) {
	srv, c, rows := parallelFixture(t, 300)
	for _, ordered := range []bool{false, true} {
		t.Run(fmt.Sprintf("ordered=%v", ordered), func(t *testing.T) {
			var got [][]byte
			var token []byte
			for round := 0; ; round++ {
				if round > 40 {
					t.Fatal("not done after 40 rounds")
				}
				ctx, cancel := context.WithCancel(context.Background())
				opts := []parallelscan.Option{parallelscan.WithConcurrency(3)}
				if ordered {
					opts = append(opts, parallelscan.WithOrder())
				}
				if token != nil {
					opts = append(opts, parallelscan.WithResume(token))
				}
				if round%2 == 1 {
					// A region that fails for good: the scan ends with its error.
					srv.InjectError(fakehbase.Match{Op: "Scan", Table: "p", Row: rows[(round*37)%len(rows)]},
						"org.apache.hadoop.hbase.DoNotRetryIOException", "injected", 1)
				}
				ps := parallelscan.New(ctx, c, newScan(t, hrpc.NumberOfRows(5)), opts...)
				n := 0
				for ps.Next() {
					got = append(got, rowOf(t, ps.Result()))
					if n++; round%2 == 0 && n == 23 {
						cancel()
					}
				}
				err := ps.Err()
				token = ps.Token()
				ps.Close()
				cancel()
				srv.ClearFaults()
				if err == nil {
					break
				}
				if round%2 == 0 && !errors.Is(err, context.Canceled) {
					t.Fatalf("round %d: %v, want context.Canceled", round, err)
				}
			}
			checkOnce(t, got, rows)
			// The token of a finished scan leaves nothing.
			for r, err := range parallelscan.Scan(context.Background(), c, newScan(t), parallelscan.WithResume(token)) {
				t.Fatalf("resuming a finished scan returned %v, %v", r, err)
			}
		})
	}
}

// A region moving during the scan changes nothing in what it returns.
func TestParallelScanRegionMoves(t *testing.T) {
	srv, c, rows := parallelFixture(t, 200)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got [][]byte
	i := 0
	for r, err := range parallelscan.Scan(ctx, c, newScan(t, hrpc.NumberOfRows(3)), parallelscan.WithConcurrency(4)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rowOf(t, r))
		if i++; i%20 == 0 {
			if err := srv.MoveRegion("p", rows[(i*7)%len(rows)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkOnce(t, got, rows)
}

// Breaking out of the loop stops every worker: no goroutine is left behind.
func TestParallelScanStopsEarly(t *testing.T) {
	_, c, _ := parallelFixture(t, 1000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A first scan warms the client's own goroutines (connections, readers).
	for _, err := range parallelscan.Scan(ctx, c, newScan(t), parallelscan.WithConcurrency(8)) {
		if err != nil {
			t.Fatal(err)
		}
	}
	before := runtime.NumGoroutine()
	for _, ordered := range []bool{false, true} {
		opts := []parallelscan.Option{parallelscan.WithConcurrency(2)}
		if ordered {
			opts = append(opts, parallelscan.WithOrder())
		}
		n := 0
		for _, err := range parallelscan.Scan(ctx, c, newScan(t, hrpc.NumberOfRows(1)), opts...) {
			if err != nil {
				t.Fatal(err)
			}
			if n++; n == 5 {
				break
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after stopping early:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func TestParallelScanLimit(t *testing.T) {
	_, c, rows := parallelFixture(t, 100)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got [][]byte
	for r, err := range parallelscan.Scan(ctx, c, newScan(t, hrpc.Limit(17)), parallelscan.WithOrder(), parallelscan.WithConcurrency(4)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rowOf(t, r))
	}
	if !slices.EqualFunc(got, rows[:17], bytes.Equal) {
		t.Fatalf("ordered scan with Limit(17) returned %q", got)
	}
}

func TestParallelScanBadInput(t *testing.T) {
	_, c, _ := parallelFixture(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ps := parallelscan.New(ctx, c, newScan(t), parallelscan.WithConcurrency(2))
	for ps.Next() {
		if len(ps.Token()) == 0 {
			t.Fatal("no token during the scan")
		}
	}
	good := ps.Token()
	damaged := bytes.Clone(good)
	damaged[len(damaged)/2] ^= 1
	otherTable, err := hrpc.NewScan("q")
	if err != nil {
		t.Fatal(err)
	}
	metaScan, err := hrpc.NewScan("hbase:meta")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		scan *hrpc.Scan
		opts []parallelscan.Option
	}{
		"garbage":          {newScan(t), []parallelscan.Option{parallelscan.WithResume([]byte("nonsense"))}},
		"damaged":          {newScan(t), []parallelscan.Option{parallelscan.WithResume(damaged)}},
		"other table":      {otherTable, []parallelscan.Option{parallelscan.WithResume(good)}},
		"narrower range":   {newScan(t, hrpc.StartRow([]byte("m"))), []parallelscan.Option{parallelscan.WithResume(append(good[:0:0], tokenWithRange(t, c)...))}},
		"reversed":         {newScan(t, hrpc.Reversed()), nil},
		"zero concurrency": {newScan(t), []parallelscan.Option{parallelscan.WithConcurrency(0)}},
		"hbase:meta":       {metaScan, nil},
	} {
		t.Run(name, func(t *testing.T) {
			var last error
			for _, err := range parallelscan.Scan(ctx, c, tc.scan, tc.opts...) {
				last = err
			}
			if !errors.Is(last, hberr.ErrBadRequest) {
				t.Fatalf("got %v, want hberr.ErrBadRequest", last)
			}
		})
	}
}

// tokenWithRange is the token of a whole-table scan stopped after one row: its ranges start
// before "m".
func tokenWithRange(t *testing.T, c *hbase.Client) []byte {
	t.Helper()
	ps := parallelscan.New(context.Background(), c, newScan(t), parallelscan.WithOrder())
	defer ps.Close()
	if !ps.Next() {
		t.Fatal(ps.Err())
	}
	return ps.Token()
}

func TestCacheRegions(t *testing.T) {
	_, c, _ := parallelFixture(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c.ClearRegionCache("p")
	base := c.Stats().CachedRegions
	if err := c.CacheRegions(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	if got := c.Stats().CachedRegions - base; got != len(hostileSplits)+1 {
		t.Fatalf("CacheRegions cached %d regions, want %d", got, len(hostileSplits)+1)
	}
	lookups := c.Stats().Lookups
	for _, err := range c.Scan(ctx, newScan(t)) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := c.Stats().Lookups - lookups; n != 0 {
		t.Fatalf("a scan after CacheRegions looked up %d regions", n)
	}
	c.ClearRegionCache("p")
	if got := c.Stats().CachedRegions; got != base {
		t.Fatalf("%d regions cached after ClearRegionCache, want %d", got, base)
	}
	if err := c.CacheRegions(ctx, "nosuchtable"); !errors.Is(err, hberr.ErrTableNotFound) {
		t.Fatalf("CacheRegions of a missing table: %v", err)
	}
}

// Close from another goroutine ends a Next waiting for rows: it returns false, with no error.
func TestParallelScanCloseDuringNext(t *testing.T) {
	srv, c, _ := parallelFixture(t, 50)
	srv.InjectDelay(fakehbase.Match{Op: "Scan", Table: "p"}, 10*time.Second, 100)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ps := parallelscan.New(ctx, c, newScan(t), parallelscan.WithConcurrency(2))
	time.AfterFunc(200*time.Millisecond, func() { ps.Close() })
	start := time.Now()
	if ps.Next() {
		t.Fatal("Next returned a row through a 10 s delay")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("Next returned %v after Close", took)
	}
	if err := ps.Err(); err != nil {
		t.Fatalf("Err after Close: %v", err)
	}
	ps.Close()
}

func TestParallelScanMissingTable(t *testing.T) {
	_, c, _ := parallelFixture(t, 1)
	s, err := hrpc.NewScan("nosuchtable")
	if err != nil {
		t.Fatal(err)
	}
	ps := parallelscan.New(context.Background(), c, s)
	defer ps.Close()
	if ps.Next() {
		t.Fatal("a row of a missing table")
	}
	var op *hberr.OpError
	if err := ps.Err(); !errors.Is(err, hberr.ErrTableNotFound) || !errors.As(err, &op) || op.Op != "ParallelScan" {
		t.Fatalf("got %v, want an OpError of ParallelScan wrapping hberr.ErrTableNotFound", err)
	}
	if ps.Token() != nil {
		t.Fatalf("a token after a scan that never started: %q", ps.Token())
	}
}

// TestParallelScanAllResume: loops over Scanner.All that are stopped (their context
// cancelled), break (on a row they do not deal with) or fail (a region failing for good), each
// followed by a scan resumed from the Scanner's Token after the loop, return every row exactly
// once over all runs, ordered or not; the row a loop broke out on comes again in a later run.
func TestParallelScanAllResume(t *testing.T) {
	srv, c, rows := parallelFixture(t, 300)
	const stop, brk, fail = 0, 1, 2 // the rounds' ends, in turn
	for _, ordered := range []bool{false, true} {
		t.Run(fmt.Sprintf("ordered=%v", ordered), func(t *testing.T) {
			var got, brokenOn [][]byte
			var token []byte
			ends := map[int]int{}
			for round := 0; ; round++ {
				if round > 60 {
					t.Fatal("not done after 60 rounds")
				}
				ctx, cancel := context.WithCancel(context.Background())
				opts := []parallelscan.Option{parallelscan.WithConcurrency(3)}
				if ordered {
					opts = append(opts, parallelscan.WithOrder())
				}
				if token != nil {
					opts = append(opts, parallelscan.WithResume(token))
				}
				if round%3 == fail {
					// The region of a row not returned yet fails for good, on every call until
					// the round ends (one fault could be taken by the close of an earlier
					// run's scanner): the loop's last value is the error.
					i := slices.IndexFunc(rows, func(r []byte) bool {
						return !slices.ContainsFunc(got, func(g []byte) bool { return bytes.Equal(g, r) })
					})
					srv.InjectError(fakehbase.Match{Op: fakehbase.OpScan, Table: "p", Row: rows[i]}, fakehbase.DoNotRetry, "injected", 0)
				}
				ps := parallelscan.New(ctx, c, newScan(t, hrpc.NumberOfRows(5)), opts...)
				n := 0
				var loopErr error
				broke := false
				for r, err := range ps.All() {
					if err != nil {
						loopErr = err
						break
					}
					row := rowOf(t, r)
					n++
					if round%3 == brk && n == 17 {
						brokenOn = append(brokenOn, row) // not dealt with: left to the next run
						broke = true
						break
					}
					got = append(got, row)
					if round%3 == stop && n == 29 {
						cancel()
					}
				}
				token = ps.Token()
				cancel()
				srv.ClearFaults()
				if loopErr != nil && loopErr != ps.Err() {
					t.Fatalf("round %d: the loop's error %v is not Err's %v", round, loopErr, ps.Err())
				}
				switch {
				case broke:
					ends[brk]++
				case errors.Is(loopErr, hberr.ErrDoNotRetry):
					ends[fail]++
				case errors.Is(loopErr, context.Canceled):
					ends[stop]++
				case loopErr != nil:
					t.Fatalf("round %d: %v", round, loopErr)
				default: // the scan ran to its end
					checkOnce(t, got, rows)
					for _, r := range brokenOn {
						if !slices.ContainsFunc(got, func(g []byte) bool { return bytes.Equal(g, r) }) {
							t.Errorf("row %q a loop broke out on never came again", r)
						}
					}
					t.Logf("%d stopped, %d broken, %d failed loops, then the rest", ends[stop], ends[brk], ends[fail])
					if ends[stop] == 0 || ends[brk] == 0 || ends[fail] == 0 {
						t.Errorf("want each kind of end at least once")
					}
					return
				}
			}
		})
	}
}

// TestParallelScanAllClosesAndTokens: All's loop ending closes the Scanner (no goroutine left)
// and Token keeps what is left; Scan behaves as All.
func TestParallelScanAllClosesAndTokens(t *testing.T) {
	_, c, rows := parallelFixture(t, 400)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, err := range parallelscan.Scan(ctx, c, newScan(t), parallelscan.WithConcurrency(8)) {
		if err != nil { // warms the client's own goroutines (connections, readers)
			t.Fatal(err)
		}
	}
	before := runtime.NumGoroutine()
	ps := parallelscan.New(ctx, c, newScan(t, hrpc.NumberOfRows(1)), parallelscan.WithConcurrency(4), parallelscan.WithOrder())
	if ps.Token() != nil {
		t.Error("Token before the loop: want nil")
	}
	var first [][]byte
	for r, err := range ps.All() {
		if err != nil {
			t.Fatal(err)
		}
		if len(first) == 10 {
			break // the 11th row is left
		}
		first = append(first, rowOf(t, r))
	}
	if !slices.EqualFunc(first, rows[:10], bytes.Equal) {
		t.Fatalf("first rows %q, want %q", first, rows[:10])
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before, %d after the loop broke", before, after)
	}
	if ps.Err() != nil {
		t.Errorf("Err after a broken loop: %v, want nil", ps.Err())
	}
	for r, err := range ps.All() {
		t.Fatalf("a second loop over All returned %v, %v", r, err)
	}
	var rest [][]byte
	for r, err := range parallelscan.New(ctx, c, newScan(t), parallelscan.WithResume(ps.Token()), parallelscan.WithOrder()).All() {
		if err != nil {
			t.Fatal(err)
		}
		rest = append(rest, rowOf(t, r))
	}
	if !slices.EqualFunc(rest, rows[10:], bytes.Equal) {
		t.Errorf("resumed: %d rows from %q, want %d from %q", len(rest), rest[0], len(rows)-10, rows[10])
	}
}
