package benchmarks

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
	"github.com/go-hbase/hbase/parallelscan"
)

// TestParallelScanThroughput measures a scan of a whole table of GOHBASE_BENCH_SCAN_ROWS rows
// (default 200000, 100-byte values) in GOHBASE_BENCH_SCAN_REGIONS regions (default 12) on
// three region servers: go-hbase's single Scan, its parallel scan (unordered and ordered) and
// the Java client (2.6.1, in a JVM of its own) scanning the same regions with a pool of as
// many threads, one scan per region, as a batch job does. The table is flushed first, so the
// scans read store files. Each figure is the median of GOHBASE_BENCH_REPEAT (default 3)
// rounds, the clients taking turns; client CPU is each client's own process.
func TestParallelScanThroughput(t *testing.T) {
	if os.Getenv("GOHBASE_BENCH") != "1" {
		t.Skip("benchmark against a real cluster: set GOHBASE_BENCH=1")
	}
	nrows := envInt(t, "GOHBASE_BENCH_SCAN_ROWS", 200000)
	nregions := envInt(t, "GOHBASE_BENCH_SCAN_REGIONS", 12)
	repeat := envInt(t, "GOHBASE_BENCH_REPEAT", 3)
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 3, FullJIT: true})
	defer cl.Stop()
	ctx := t.Context()
	const table = "pscan"
	row := func(i int) []byte { return fmt.Appendf(nil, "r%08d", i) }
	var splits [][]byte
	for i := 1; i < nregions; i++ {
		splits = append(splits, row(i*nrows/nregions))
	}
	if err := cl.CreateTable(ctx, table, []string{"f"}, splits); err != nil {
		t.Fatal(err)
	}
	c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	value := make([]byte, 100)
	for from := 0; from < nrows; from += 5000 {
		var batch []hrpc.Batchable
		for i := from; i < min(from+5000, nrows); i++ {
			p, err := hrpc.NewPut(table, row(i), hrpc.Value([]byte("f"), []byte("q"), value))
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, p)
		}
		for _, r := range c.SendBatch(ctx, batch) {
			if r.Err != nil {
				t.Fatalf("loading: %v", r.Err)
			}
		}
	}
	if err := cl.Flush(ctx, table); err != nil {
		t.Fatal(err)
	}
	java, err := cl.StartJavaClient(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer java.Close()

	type run struct {
		name string
		scan func(context.Context) (int64, error)
		cpu  func() (time.Duration, error)
	}
	goScan := func(opts ...parallelscan.Option) func(context.Context) (int64, error) {
		return func(ctx context.Context) (int64, error) {
			s, err := hrpc.NewScan(table)
			if err != nil {
				return 0, err
			}
			var n int64
			if opts == nil {
				for _, err := range c.Scan(ctx, s) {
					if err != nil {
						return n, err
					}
					n++
				}
				return n, nil
			}
			for _, err := range parallelscan.Scan(ctx, c, s, opts...) {
				if err != nil {
					return n, err
				}
				n++
			}
			return n, nil
		}
	}
	javaScan := func(threads int) func(context.Context) (int64, error) {
		return func(ctx context.Context) (int64, error) {
			_, n, err := java.ParallelScan(ctx, table, threads, 0)
			return n, err
		}
	}
	var runs []run
	runs = append(runs, run{"go-hbase Scan", goScan(), cputime.Self})
	for _, conc := range []int{1, 4, 8} {
		runs = append(runs,
			run{fmt.Sprintf("go-hbase parallel scan, %d", conc), goScan(parallelscan.WithConcurrency(conc)), cputime.Self},
			run{fmt.Sprintf("go-hbase parallel scan Ordered, %d", conc), goScan(parallelscan.WithConcurrency(conc), parallelscan.WithOrder()), cputime.Self},
			run{fmt.Sprintf("Java client, %d threads", conc), javaScan(conc), java.CPUTime})
	}
	walls := make([][]time.Duration, len(runs))
	cpus := make([][]time.Duration, len(runs))
	for round := -1; round < repeat; round++ { // round -1 warms both clients up
		for i, r := range runs {
			cpu0, err := r.cpu()
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			n, err := r.scan(ctx)
			wall := time.Since(t0)
			if err != nil {
				t.Fatalf("%s: %v", r.name, err)
			}
			if n != int64(nrows) {
				t.Fatalf("%s: %d rows, want %d", r.name, n, nrows)
			}
			cpu1, err := r.cpu()
			if err != nil {
				t.Fatal(err)
			}
			if round >= 0 {
				walls[i] = append(walls[i], wall)
				cpus[i] = append(cpus[i], cpu1-cpu0)
			}
		}
	}
	median := func(ds []time.Duration) time.Duration {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	fmt.Printf("\n%d rows of 100 bytes, %d regions on 3 region servers, median of %d rounds\n\n", nrows, nregions, repeat)
	fmt.Printf("| scan | rows/s | wall | client CPU/row |\n|---|---|---|---|\n")
	for i, r := range runs {
		w, cpu := median(walls[i]), median(cpus[i])
		fmt.Printf("| %s | %.0f | %v | %v |\n", r.name, float64(nrows)/w.Seconds(), w.Round(time.Millisecond),
			(cpu / time.Duration(nrows)).Round(time.Nanosecond))
	}
}
