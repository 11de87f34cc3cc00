package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/zk"
)

// TestIntegrationScanBatchShapesMatchJava scans wide rows (one of 1000 cells) with a batch
// size and a small MaxResultSize, so that the server ends batches early, and compares the
// results go-hbase returns with those HBase's own Java client returns for the same scan of
// the same table (the launcher's ClientBench), and with Java's documented rule for setBatch.
func TestIntegrationScanBatchShapesMatchJava(t *testing.T) {
	const batch, maxResultSize = 7, 600
	rows := []wideRow{{"w00", 1000}, {"w01", 3}, {"w02", 14}, {"w03", 21}, {"w04", 1}, {"w05", 500}}
	table := createTable(t, []string{"f"}, [][]byte{[]byte("w03")}) // w00..w02 | w03..w05
	c := newTestClient(t)
	ctx := testContext(t, 3*time.Minute)
	value := []byte(strings.Repeat("v", 100))
	var puts []hrpc.Batchable
	for _, r := range rows {
		var opts []hrpc.PutOption
		for q := range r.cells {
			opts = append(opts, hrpc.Value(famF, qual(q), value))
		}
		p, err := hrpc.NewPut(table, []byte(r.key), opts...)
		if err != nil {
			t.Fatal(err)
		}
		puts = append(puts, p)
	}
	for i, r := range c.SendBatch(ctx, puts) {
		if r.Err != nil {
			t.Fatalf("writing row %d: %v", i, r.Err)
		}
	}
	j, err := testCluster(t).StartJavaClient(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()

	goShapes := func(opts ...hrpc.ScanOption) []string {
		t.Helper()
		var shapes []string
		for res, err := range c.Scan(ctx, mustScanOf(t, table, opts...)) {
			if err != nil {
				t.Fatalf("Next after %d results: %v", len(shapes), err)
			}
			shapes = append(shapes, shape(string(res.Cells[0].Row), len(res.Cells), res.Partial))
		}
		return shapes
	}
	for _, tc := range []struct {
		batch        int
		size         int64
		allowPartial bool
	}{
		{batch, maxResultSize, false},
		{batch, 0, false},
		{batch, maxResultSize, true},
		{0, maxResultSize, true},
	} {
		t.Run(fmt.Sprintf("batch %d size %d allowPartial %t", tc.batch, tc.size, tc.allowPartial), func(t *testing.T) {
			var opts []hrpc.ScanOption
			if tc.batch > 0 {
				opts = append(opts, hrpc.BatchSize(tc.batch))
			}
			if tc.size > 0 {
				opts = append(opts, hrpc.MaxResultSize(tc.size))
			}
			if tc.allowPartial {
				opts = append(opts, hrpc.AllowPartialResults())
			}
			got := goShapes(opts...)
			want, err := j.ScanShapes(ctx, table, tc.batch, tc.size, tc.allowPartial)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("go-hbase returned %d results, Java %d:\ngo:   %s\njava: %s", len(got), len(want), abbrev(got), abbrev(want))
			}
			t.Logf("%d results, as Java's client: %s", len(got), abbrev(got))
			if tc.allowPartial {
				// The server did end pieces early: the batched cases above are tested with
				// pieces to regroup.
				early := 0
				for i, s := range got {
					row, rest, _ := strings.Cut(s, ":")
					var n int
					fmt.Sscanf(strings.TrimSuffix(rest, "+"), "%d", &n)
					if i+1 < len(got) && strings.HasPrefix(got[i+1], row+":") && n != tc.batch {
						early++
					}
				}
				if early == 0 {
					t.Fatalf("no piece ended early: %s", abbrev(got))
				}
				return
			}
			wantCounts, _ := javaBatches(tc.batch, false, rows...)
			if counts := stripFlags(got); !slices.Equal(counts, wantCounts) {
				t.Fatalf("results %s\nwant %s (Java's setBatch rule)", abbrev(counts), abbrev(wantCounts))
			}
		})
	}
}

// abbrev shortens a long list of shapes for a failure message: runs of one value collapse.
func abbrev(shapes []string) string {
	var b strings.Builder
	for i := 0; i < len(shapes); {
		k := i
		for k < len(shapes) && shapes[k] == shapes[i] {
			k++
		}
		if k-i > 1 {
			fmt.Fprintf(&b, "%s×%d ", shapes[i], k-i)
		} else {
			b.WriteString(shapes[i] + " ")
		}
		i = k
	}
	return b.String()
}

// TestIntegrationWrongParentZNodeFailsFast: a client of the real cluster given a parent znode
// that does not exist fails its calls at once, with the znode in the error, instead of
// retrying until the deadline.
func TestIntegrationWrongParentZNodeFailsFast(t *testing.T) {
	cl := testCluster(t)
	c, err := NewClient(cl.ZKQuorum, WithZNodeParent("/wrong"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 15*time.Second)
	for _, op := range []struct {
		name string
		call func() error
	}{
		{"Get", func() error { _, err := c.Get(ctx, mustGet(t, "t", []byte("r"))); return err }},
		{"Put", func() error { _, err := c.Put(ctx, mustPut(t, "t", []byte("r"), []byte("v"))); return err }},
		{"Scan", func() error { return scanErr(c.NewScanner(ctx, mustScanOf(t, "t"))) }},
	} {
		start := time.Now()
		err := op.call()
		took := time.Since(start)
		if !errors.Is(err, hberr.ErrConfiguration) || !errors.Is(err, zk.ErrNoParent) ||
			!strings.Contains(fmt.Sprint(err), "/wrong/meta-region-server") {
			t.Errorf("%s: %v; want hberr.ErrConfiguration naming /wrong/meta-region-server", op.name, err)
		}
		if took > time.Second {
			t.Errorf("%s failed after %v; want well under 1 s", op.name, took)
		}
		t.Logf("%s failed after %v: %v", op.name, took.Round(time.Millisecond), err)
	}
}
