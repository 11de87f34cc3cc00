package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// peWorkloads runs every PerformanceEvaluation workload briefly against a real
// cluster, in PE's layout (-pe), and checks what each did: the load wrote PE's rows, the
// read-only workloads read them from the existing table without loading it again, scanRangeN
// returned N rows, the increments add up to the acknowledged ones, checkAndMutate's checks
// held, a paced run offered its schedule, and a missing table is one line and exit code 2.
func peWorkloads(t *testing.T, cl *hbasetest.Cluster) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	const rows, ops = 2000, 200
	base := []string{"-zk", cl.ZKQuorum, "-znode", cl.ZNodeParent, "-pe", "-rows", "2000", "-concurrency", "4", "-json"}
	bench := func(args ...string) *report {
		t.Helper()
		var stdout, stderr strings.Builder
		if code := run(ctx, append(append([]string(nil), base...), args...), env(), &stdout, &stderr); code != 0 {
			t.Fatalf("hbase-bench %q: exit code %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout.String(), stderr.String())
		}
		var rep report
		if err := json.Unmarshal([]byte(stdout.String()), &rep); err != nil {
			t.Fatalf("output is not the JSON report: %v\n%s", err, stdout.String())
		}
		for _, r := range rep.Results {
			if r.Errors != 0 {
				t.Errorf("%s: %d errors: %q", r.Workload, r.Errors, r.ErrorSamples)
			}
		}
		return &rep
	}
	client, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	// sequentialWrite fills TestTable as PE would: 2000 rows of info0:0, 1000 bytes each.
	rep := bench("-create", "-regions", "4", "-workload", "sequentialWrite", "-ops", "2000")
	if r := rep.Results[0]; r.Ops != rows {
		t.Fatalf("sequentialWrite: %d ops, want %d", r.Ops, rows)
	}
	scan, _ := hrpc.NewScan("TestTable")
	n := 0
	for res, err := range client.Scan(ctx, scan) {
		if err != nil {
			t.Fatal(err)
		}
		c := res.Cells[0]
		if len(res.Cells) != 1 || len(c.Row) != 26 || string(c.Family) != "info0" || string(c.Qualifier) != "0" || len(c.Value) != 1000 ||
			!bytes.Equal(c.Row, appendKey(nil, uint64(n), 26)) {
			t.Fatalf("row %d: %d cells, first %q %s:%s with %d bytes; want PE's layout", n, len(res.Cells), c.Row, c.Family, c.Qualifier, len(c.Value))
		}
		n++
	}
	if n != rows {
		t.Fatalf("table holds %d rows, want %d", n, rows)
	}

	// The same through buffered writers (PE's --autoFlush=false): every row written at the end.
	rep = bench("-table", "Buffered", "-create", "-regions", "4", "-workload", "sequentialWrite", "-ops", "2000",
		"-buffered", "-write-buffer", "64KiB")
	if r := rep.Results[0]; r.Ops != rows {
		t.Fatalf("buffered sequentialWrite: %d ops, want %d", r.Ops, rows)
	}
	scan, _ = hrpc.NewScan("Buffered")
	n = 0
	for _, err := range client.Scan(ctx, scan) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != rows {
		t.Fatalf("buffered sequentialWrite: the table holds %d rows, want %d", n, rows)
	}

	// The read-only workloads against the table as it is (no load), with a chart.
	svg := filepath.Join(t.TempDir(), "run.svg")
	rep = bench("-load", "false", "-workload", "randomRead,scanRange10,scanRange100,scanRange1000,scan,filterScan,mixed",
		"-ops", "200", "-interval", "100ms", "-plot", svg)
	if len(rep.Results) != 7 {
		t.Fatalf("%d results, want 7", len(rep.Results))
	}
	got := map[string]*result{}
	for _, r := range rep.Results {
		got[r.Workload] = r
		if r.Ops != ops || len(r.Series) == 0 || r.P50Micros <= 0 || r.P99Micros < r.P50Micros {
			t.Errorf("%s: ops %d, %d windows, p50 %d p99 %d", r.Workload, r.Ops, len(r.Series), r.P50Micros, r.P99Micros)
		}
	}
	if r := got["randomRead"]; r.Empty != 0 {
		t.Errorf("randomRead: %d of %d Gets found nothing in the loaded table", r.Empty, r.Ops)
	}
	// A scan of [s, s+N) returns min(N, 2000-s) rows: N unless s is in the last N rows.
	for _, tc := range []struct {
		name   string
		lo, hi int64 // bounds on the rows of 200 scans
	}{{"scanRange10", 200 * 10 * 95 / 100, 200 * 10}, {"scanRange100", 200 * 100 * 85 / 100, 200 * 100}, {"scanRange1000", 200 * 600, 200 * 1000}} {
		if r := got[tc.name]; r.Rows < tc.lo || r.Rows > tc.hi || r.Empty != 0 {
			t.Errorf("%s: %d rows in %d scans (empty %d), want %d .. %d", tc.name, r.Rows, r.Ops, r.Empty, tc.lo, tc.hi)
		}
	}
	if r := got["scan"]; r.Rows != ops {
		t.Errorf("scan: %d rows in %d operations, want one each", r.Rows, r.Ops)
	}
	if r := got["filterScan"]; r.Rows != 0 {
		t.Errorf("filterScan: %d rows matched a random value", r.Rows)
	}
	if r := got["mixed"]; r.Reads < 60 || r.Reads > 140 || r.Empty != 0 {
		t.Errorf("mixed: %d Gets of %d (empty %d), want about half", r.Reads, r.Ops, r.Empty)
	}
	checkSVG(t, svg, "scanRange100", "filterScan", "p99")

	// increment on a fresh table: every acknowledged increment is in the counters.
	rep = bench("-table", "Counters", "-create", "-regions", "2", "-rows", "50", "-workload", "increment,checkAndMutate", "-ops", "1000")
	inc, cam := rep.Results[0], rep.Results[1]
	var sum int64
	var checked int
	scan, _ = hrpc.NewScan("Counters")
	for res, err := range client.Scan(ctx, scan) {
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Cells {
			switch string(c.Qualifier) {
			case "IncrementTest":
				sum += int64(binary.BigEndian.Uint64(c.Value))
			case "CheckAndMutateTest":
				if !bytes.Equal(c.Value, c.Row) {
					t.Errorf("row %q: CheckAndMutateTest holds %q", c.Row, c.Value)
				}
				checked++
			}
		}
	}
	if inc.Ops != 1000 || sum != inc.Ops {
		t.Errorf("increment: %d acknowledged, counters sum to %d", inc.Ops, sum)
	}
	if cam.Ops != 1000 || cam.Empty != 0 || checked != 50 {
		t.Errorf("checkAndMutate: %d ops, %d checks failed, %d rows; want 1000, 0, 50", cam.Ops, cam.Empty, checked)
	}

	// A paced run offers its schedule: 200 ops/s for 2 s.
	rep = bench("-load", "false", "-workload", "randomRead", "-rate", "200", "-duration", "2s")
	if r := rep.Results[0]; r.Ops+r.Missed != 400 || r.OfferedRate != 200 || r.Empty != 0 {
		t.Errorf("paced: ops %d missed %d offered %v empty %d, want 400 in all at 200/s", r.Ops, r.Missed, r.OfferedRate, r.Empty)
	}

	// A missing table: one line, exit code 2.
	oneLine(t, []string{"-zk", cl.ZKQuorum, "-znode", cl.ZNodeParent, "-table", "NoSuchTable", "-workload", "randomRead", "-ops", "10"},
		`^hbase-bench: table "NoSuchTable" does not exist on the cluster at `)
}
