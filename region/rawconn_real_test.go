package region

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/pb"
)

// TestRawIOAgainstRealHBase measures what rawConn buys one caller against a real region server
// in another process: two connections to the same server, one through rawConn and one through
// net.Conn's own reads and writes (the reference), take turns in blocks of 200 Gets; it prints
// p50, p75 and this process's CPU per Get of each, and their ratios. Opt-in like the other
// benchmarks against real clusters: GOHBASE_BENCH=1.
func TestRawIOAgainstRealHBase(t *testing.T) {
	if os.Getenv("GOHBASE_BENCH") != "1" {
		t.Skip("benchmark against a real cluster: set GOHBASE_BENCH=1")
	}
	cluster := hbasetest.StartT(t, hbasetest.Options{FullJIT: true})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	const table = "rawio"
	if err := cluster.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := cluster.Put(ctx, table, []byte("row"), []byte("f"), []byte("q"), make([]byte, 1024)); err != nil {
		t.Fatal(err)
	}
	regions, err := cluster.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions: %v %v", regions, err)
	}
	req := &pb.GetRequest{Region: regionSpec(regions[0].Name), Get: &pb.Get{Row: []byte("row")}}
	modes := []struct {
		name string
		opts []Option
	}{{"rawConn", nil}, {"net.Conn", []Option{withNetConnIO()}}}
	clients := make([]*Client, len(modes))
	lat := make([][]time.Duration, len(modes))
	cpu := make([]time.Duration, len(modes))
	for i, m := range modes {
		clients[i] = dialT(t, regions[0].Addr, m.opts...)
	}
	const block, rounds = 200, 100
	var resp pb.GetResponse
	for round := -10; round < rounds; round++ { // ten rounds of warm-up
		for k := range modes {
			i := (k + max(round, 0)) % len(modes)
			cpu0 := processCPU(t)
			for range block {
				start := time.Now()
				if _, err := clients[i].Call(ctx, "Get", req, nil, &resp); err != nil {
					t.Fatal(err)
				}
				if round >= 0 {
					lat[i] = append(lat[i], time.Since(start))
				}
			}
			if round >= 0 {
				cpu[i] += processCPU(t) - cpu0
			}
		}
	}
	pct := func(d []time.Duration, p int) time.Duration {
		d = slices.Clone(d)
		slices.Sort(d)
		return d[len(d)*p/100]
	}
	ref := len(modes) - 1
	fmt.Printf("\n| I/O | p50 | p75 | CPU/Get | p75 / net.Conn | CPU / net.Conn | Gets |\n|---|---|---|---|---|---|---|\n")
	for i, m := range modes {
		n := time.Duration(len(lat[i]))
		fmt.Printf("| %s | %v | %v | %v | %.2f | %.2f | %d |\n", m.name,
			pct(lat[i], 50).Round(time.Microsecond), pct(lat[i], 75).Round(time.Microsecond), (cpu[i] / n).Round(100*time.Nanosecond),
			float64(pct(lat[i], 75))/float64(pct(lat[ref], 75)), float64(cpu[i])/float64(cpu[ref]), len(lat[i]))
	}
}
