package benchmarks

import (
	"fmt"
	"io"
	"net"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/internal/cputime"
)

// TestOneCallerFloor asks whether any Go client can meet issue 15's one-caller target
// (client CPU per Get at most 0.7x the Java client's) against the same real HBase, before
// anyone redesigns go-hbase's connection for it. On TestJavaClientTargets' cluster and PE
// table (startPEBench), one caller's randomRead Gets run in blocks that take turns
// (runPEWorkload) through:
//   - (a) go-hbase: hbase.Client.Get as it is;
//   - (b) floor, caller reads: floorConn on a net.Conn, the calling goroutine writing the
//     request and reading its own response: what a lone caller reading its own response
//     could cost;
//   - (c) floor, reader goroutine: the same, but a reader goroutine reads the responses and
//     hands them over through a channel, go-hbase's shape; (c) - (b) is that hand-off's cost;
//   - (b') and (c'): the same two on raw system calls through the netpoller, as region's
//     rawConn reads and writes (no entersyscall/exitsyscall);
//   - (e) floor, blocking syscalls: floorConn on a blocking socket outside the netpoller (raw
//     write and read system calls, no scheduler): the kernel's share alone;
//   - (d) the Java client (hbasetest.JavaClient), the target's reference.
//
// The Go sides run in this process and the Java client in its JVM: each side's CPU is its
// process's over its own blocks only. Skipped unless GOHBASE_BENCH=1; GOHBASE_BENCH_SECONDS
// (24) and GOHBASE_BENCH_BLOCK_SECONDS (1) size the blocks as for TestJavaClientTargets,
// GOHBASE_BENCH_WARMUP (20,000) the unrecorded Gets each side runs first. Blocks carry the
// pprof label block=randomRead-x1/<side>, a floor's reader goroutine
// block=randomRead-x1/<side> reader. The scheduler's work between goroutines carries no
// label; to see it for one side, GOHBASE_BENCH_SIDES=floor-chan-raw (a comma-separated list
// of side names) runs only the sides named and GOHBASE_BENCH_CPUPROFILE=file profiles the
// warm-ups and blocks alone, not the cluster's start and the table's load.
func TestOneCallerFloor(t *testing.T) {
	if os.Getenv("GOHBASE_BENCH") != "1" {
		t.Skip("benchmark against a real cluster: set GOHBASE_BENCH=1")
	}
	perSide := time.Duration(envInt(t, "GOHBASE_BENCH_SECONDS", 24)) * time.Second
	blockDur := time.Duration(envInt(t, "GOHBASE_BENCH_BLOCK_SECONDS", 1)) * time.Second
	w := selectPEWorkloads(t, "randomRead-1")[0]
	// In make bench-java the Java client reaches randomRead x1 after 200,000 other Gets; here
	// it starts cold, and with randomRead-1's own warm-up (4,000) C2 still compiles in the
	// measured blocks (87 µs of CPU per Get in a first run instead of 67).
	w.warmup = envInt(t, "GOHBASE_BENCH_WARMUP", 20000)
	ctx := t.Context()
	cl, c, j := startPEBench(t)
	regions, err := cl.Regions(ctx, peTable)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != peRegions {
		t.Fatalf("%d regions, want %d", len(regions), peRegions)
	}
	addr := regions[0].Addr
	for _, r := range regions {
		if r.Addr == "" || r.Addr != addr {
			t.Fatalf("regions on %q and %q: the floor client talks to one server", addr, r.Addr)
		}
	}
	sides := []peSide{{name: "go-hbase", run: goWork(c), cpu: cputime.Self, isGo: true}}
	// floor adds a floor side on rw, unless dialling it failed (raw system calls: Linux only).
	floor := func(name string, rw io.ReadWriteCloser, err error, withReader bool) {
		if err != nil {
			t.Logf("%s left out: %v", name, err)
			return
		}
		reader := ""
		if withReader {
			reader = "randomRead-x1/" + name + " reader"
		}
		f, err := newFloorConn(rw, rw, reader)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		sides = append(sides, peSide{name: name, run: floorWork(f, regions), cpu: cputime.Self, isGo: true})
	}
	dial := func() net.Conn {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		return nc
	}
	floor("floor-direct", dial(), nil, false)
	raw, err := newPollRawConn(dial())
	floor("floor-direct-raw", raw, err, false)
	floor("floor-chan", dial(), nil, true)
	raw, err = newPollRawConn(dial())
	floor("floor-chan-raw", raw, err, true)
	fd, err := dialBlocking(addr)
	floor("floor-syscalls", fd, err, false)
	sides = append(sides, peSide{name: "Java client", run: j.Work, cpu: j.CPUTime})
	if list := os.Getenv("GOHBASE_BENCH_SIDES"); list != "" {
		sides = slices.DeleteFunc(sides, func(sd peSide) bool { return !slices.Contains(strings.Split(list, ","), sd.name) })
		if len(sides) == 0 {
			t.Fatalf("GOHBASE_BENCH_SIDES=%q names no side", list)
		}
	}
	if path := os.Getenv("GOHBASE_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	began := time.Now()
	accs := runPEWorkload(t, cl, sides, w, perSide, blockDur)
	t.Logf("randomRead x1: %d blocks of %d Gets per side in %v", accs[0].blocks, accs[0].blockOps, time.Since(began).Round(time.Second))
	printOneCallerFloor(sides, accs)
}

// oneCallerVariants describes the sides of TestOneCallerFloor in its table.
var oneCallerVariants = map[string]string{
	"go-hbase":         "(a) go-hbase `Client.Get`",
	"floor-direct":     "(b) floor: caller reads its response (net.Conn)",
	"floor-chan":       "(c) floor: reader goroutine + channel (net.Conn)",
	"floor-direct-raw": "(b') floor: caller reads, raw syscalls on the netpoller",
	"floor-chan-raw":   "(c') floor: reader goroutine + channel, raw syscalls on the netpoller",
	"floor-syscalls":   "(e) floor: blocking socket, raw syscalls",
	"Java client":      "(d) Java client",
}

// printOneCallerFloor prints each side's figures and its ratios to the Java client (the last
// side), then the hand-off's cost and the verdict on the 0.7x target.
func printOneCallerFloor(sides []peSide, accs []*peAcc) {
	byName := map[string]peFigures{}
	var java peFigures
	for i, sd := range sides {
		if !sd.isGo {
			java = accs[i].figures()
		}
	}
	fmt.Print("\n| variant | ops/s | p50 | p75 | p99 | client CPU/Get | server CPU/Get | allocs/Get | Gets | ops/s ÷ Java | p50 ÷ Java | CPU/Get ÷ Java |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, sd := range sides {
		f := accs[i].figures()
		byName[sd.name] = f
		allocs := ""
		if sd.isGo {
			allocs = fmt.Sprintf("%.1f", f.allocsPerOp)
		}
		ratios := "| | |"
		if java.ops > 0 {
			ratios = fmt.Sprintf("%.2f | %.2f | %.2f", f.opsPerSec/java.opsPerSec, ratio(f.p50, java.p50), ratio(f.cpuPerOp, java.cpuPerOp))
		}
		fmt.Printf("| %s | %.0f | %s | %s | %s | %.1f µs | %.1f µs | %s | %d | %s |\n", oneCallerVariants[sd.name],
			f.opsPerSec, fmtDur(f.p50), fmtDur(f.p75), fmtDur(f.p99), us(f.cpuPerOp), us(f.serverPerOp), allocs, f.ops, ratios)
	}
	for _, pair := range [][3]string{{"floor-direct", "floor-chan", "(c) - (b)"}, {"floor-direct-raw", "floor-chan-raw", "(c') - (b')"}} {
		direct, ok1 := byName[pair[0]]
		handed, ok2 := byName[pair[1]]
		if ok1 && ok2 {
			fmt.Printf("\nThe reader goroutine's hand-off, %s: %.1f µs of client CPU per Get, p50 %+.0f µs.", pair[2],
				us(handed.cpuPerOp-direct.cpuPerOp), us(handed.p50-direct.p50))
		}
	}
	if java.ops == 0 {
		return // the Java client was left out (GOHBASE_BENCH_SIDES)
	}
	limit := time.Duration(0.7 * float64(java.cpuPerOp))
	fmt.Printf("\n0.7x the Java client's CPU per Get: %.1f µs.\n", us(limit))
	for _, name := range []string{"floor-direct", "floor-direct-raw", "floor-syscalls"} {
		if f, ok := byName[name]; ok {
			verdict := "above"
			if f.cpuPerOp <= limit {
				verdict = "at or below"
			}
			fmt.Printf("%s: %.1f µs (%.2fx Java's), %s the target.\n", oneCallerVariants[name], us(f.cpuPerOp), ratio(f.cpuPerOp, java.cpuPerOp), verdict)
		}
	}
}
