package engine

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// loadRows writes rows row0000..row(n-1) (one cell each) with SendBatch and returns them.
func loadRows(t *testing.T, c *Client, table string, n int) []string {
	t.Helper()
	ctx := testContext(t, 2*time.Minute)
	rows := make([]string, n)
	var batch []hrpc.Batchable
	for i := range n {
		rows[i] = fmt.Sprintf("row%04d", i)
		batch = append(batch, mustPut(t, table, []byte(rows[i]), []byte("v"+rows[i])))
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("loading row %d: %v", i, r.Err)
		}
	}
	return rows
}

// splitKeys returns n-1 split keys spreading rowNNNN over n regions.
func splitKeys(rows, n int) [][]byte {
	var keys [][]byte
	for i := 1; i < n; i++ {
		keys = append(keys, fmt.Appendf(nil, "row%04d", i*rows/n))
	}
	return keys
}

// scanAll runs s and returns the rows it returned, failing on a row returned twice or out of
// order.
func scanAll(t *testing.T, c *Client, s *hrpc.Scan, each func(i int)) []string {
	t.Helper()
	ctx := testContext(t, 3*time.Minute)
	sc := c.NewScanner(ctx, s)
	defer sc.Close()
	var got []string
	for sc.Next() {
		res := sc.Result()
		if len(res.Cells) == 0 {
			t.Fatalf("row %d without cells", len(got))
		}
		row := string(res.Cells[0].Row)
		if v := string(res.Cells[0].Value); v != "v"+row {
			t.Fatalf("row %s has value %q", row, v)
		}
		got = append(got, row)
		if each != nil {
			each(len(got))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("scan ended after %d rows: %v", len(got), err)
	}
	return got
}

func checkRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	seen := map[string]int{}
	for _, r := range got {
		seen[r]++
	}
	var dup, missing []string
	for r, n := range seen {
		if n > 1 {
			dup = append(dup, r)
		}
	}
	for _, r := range want {
		if seen[r] == 0 {
			missing = append(missing, r)
		}
	}
	t.Fatalf("%s: got %d rows, want %d; duplicated %v; missing %d (first %v)", what, len(got), len(want),
		dup, len(missing), missing[:min(len(missing), 5)])
}

func reversedOf(rows []string) []string {
	r := slices.Clone(rows)
	slices.Reverse(r)
	return r
}

func TestIntegrationScanPreSplitTable(t *testing.T) {
	const n = 1000
	table := createTable(t, []string{"f"}, splitKeys(n, 24))
	c := newTestClient(t)
	rows := loadRows(t, c, table, n)

	checkRows(t, "forward", scanAll(t, c, mustScanOf(t, table), nil), rows)
	checkRows(t, "reversed", scanAll(t, c, mustScanOf(t, table, hrpc.Reversed()), nil), reversedOf(rows))
	checkRows(t, "forward, 7 rows per RPC",
		scanAll(t, c, mustScanOf(t, table, hrpc.NumberOfRows(7)), nil), rows)
	checkRows(t, "reversed, 3 rows per RPC",
		scanAll(t, c, mustScanOf(t, table, hrpc.Reversed(), hrpc.NumberOfRows(3)), nil), reversedOf(rows))
	checkRows(t, "start/stop",
		scanAll(t, c, mustScanOf(t, table, hrpc.StartRow([]byte("row0100")), hrpc.StopRow([]byte("row0900"))), nil),
		rows[100:900])
	checkRows(t, "reversed start/stop",
		scanAll(t, c, mustScanOf(t, table, hrpc.Reversed(), hrpc.StartRow([]byte("row0899")), hrpc.StopRow([]byte("row0100"))), nil),
		reversedOf(rows[101:900]))
	checkRows(t, "limit across regions",
		scanAll(t, c, mustScanOf(t, table, hrpc.Limit(333), hrpc.NumberOfRows(10)), nil), rows[:333])
	checkRows(t, "reversed limit",
		scanAll(t, c, mustScanOf(t, table, hrpc.Reversed(), hrpc.Limit(55)), nil), reversedOf(rows)[:55])
	checkRows(t, "prefix", scanAll(t, c, mustScanOf(t, table, hrpc.Prefix([]byte("row05"))), nil), rows[500:600])
	checkRows(t, "reversed prefix",
		scanAll(t, c, mustScanOf(t, table, hrpc.Reversed(), hrpc.Prefix([]byte("row05"))), nil), reversedOf(rows[500:600]))
	checkRows(t, "tiny max result size",
		scanAll(t, c, mustScanOf(t, table, hrpc.MaxResultSize(1)), nil), rows)
}

func TestIntegrationScanWideRowsReassembled(t *testing.T) {
	table := createTable(t, []string{"f"}, [][]byte{[]byte("m")})
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	// Three rows of 50 cells of 1 KiB: a 4 KiB max result size makes the server cut them.
	for _, row := range []string{"a", "n", "z"} {
		var opts []hrpc.PutOption
		for q := range 50 {
			opts = append(opts, hrpc.Value(famF, fmt.Appendf(nil, "q%02d", q), make([]byte, 1024)))
		}
		p, err := hrpc.NewPut(table, []byte(row), opts...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Put(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, reversed := range []bool{false, true} {
		opts := []hrpc.ScanOption{hrpc.MaxResultSize(4096)}
		if reversed {
			opts = append(opts, hrpc.Reversed())
		}
		var got []string
		for res, err := range c.Scan(ctx, mustScanOf(t, table, opts...)) {
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Cells) != 50 || res.Partial {
				t.Fatalf("row %s: %d cells (partial %v), want one whole row of 50", res.Cells[0].Row, len(res.Cells), res.Partial)
			}
			got = append(got, string(res.Cells[0].Row))
		}
		want := []string{"a", "n", "z"}
		if reversed {
			want = reversedOf(want)
		}
		checkRows(t, fmt.Sprintf("wide rows, reversed=%v", reversed), got, want)
	}
}

func TestIntegrationScanWhileRegionsSplitAndMove(t *testing.T) {
	const n = 800
	table := createTable(t, []string{"f"}, splitKeys(n, 4))
	cl := testCluster(t)
	c := newTestClient(t)
	rows := loadRows(t, c, table, n)
	for _, reversed := range []bool{false, true} {
		opts := []hrpc.ScanOption{hrpc.NumberOfRows(20)}
		want := rows
		if reversed {
			opts = append(opts, hrpc.Reversed())
			want = reversedOf(rows)
		}
		ctx := testContext(t, 3*time.Minute)
		var splits, moves int
		got := scanAll(t, c, mustScanOf(t, table, opts...), func(i int) {
			if i%100 != 50 {
				return
			}
			// The scanner has a server-side scanner open on the region of the current row:
			// split that region just ahead of the scan, then move both daughters away.
			cur, ahead := want[i-1], want[min(i+30, n-1)]
			if _, _, err := cl.Split(ctx, table, []byte(ahead)); err != nil {
				t.Logf("split at %s: %v", ahead, err)
			} else {
				splits++
			}
			regs, err := cl.Regions(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range regs {
				if !inRegion(r.StartKey, r.EndKey, cur) && !inRegion(r.StartKey, r.EndKey, ahead) {
					continue
				}
				if err := cl.Move(ctx, r.EncodedName, (r.Server+1)%3); err != nil {
					t.Logf("move %s: %v", r.EncodedName, err)
				} else {
					moves++
				}
			}
		})
		checkRows(t, fmt.Sprintf("scan while splitting and moving, reversed=%v", reversed), got, want)
		if splits == 0 || moves == 0 {
			t.Fatalf("reversed=%v: %d splits and %d moves happened under the scan, want some of each", reversed, splits, moves)
		}
		t.Logf("reversed=%v: %d rows in order with %d splits and %d moves under the scan", reversed, len(got), splits, moves)
	}
}

func inRegion(start, end []byte, row string) bool {
	return string(start) <= row && (len(end) == 0 || row < string(end))
}
