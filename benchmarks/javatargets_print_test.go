package benchmarks

import (
	"fmt"
	"strings"
	"time"
)

// peFigures are one side's figures for one workload.
type peFigures struct {
	opsPerSec, rowsPerSec   float64
	p50, p75, p99           time.Duration
	cpuPerOp, serverPerOp   time.Duration
	allocsPerOp, bytesPerOp float64
	allocsPerRow            float64 // scans: per row returned
	requestAllocsPerOp      float64
	gcs                     uint64
	callsPerWrite           float64 // RPCs per socket write (go-hbase)
	ops, rows               int64
	rssBefore, rssPeak      int64 // buffered workloads
}

func (a *peAcc) figures() peFigures {
	n := max(a.n, 1)
	f := peFigures{
		opsPerSec: float64(a.n) / a.wall.Seconds(), rowsPerSec: float64(a.rows) / a.wall.Seconds(),
		p50: time.Duration(a.h.Percentile(50)), p75: time.Duration(a.h.Percentile(75)),
		p99:      time.Duration(a.h.Percentile(99)),
		cpuPerOp: a.cpu / time.Duration(n), serverPerOp: a.server / time.Duration(n),
		allocsPerOp: float64(a.mallocs) / float64(n), bytesPerOp: float64(a.bytes) / float64(n),
		requestAllocsPerOp: a.requestAllocsPerOp, gcs: a.gcs, ops: a.n, rows: a.rows,
		rssBefore: a.rssBefore, rssPeak: a.rssPeak,
	}
	if a.writes > 0 {
		f.callsPerWrite = float64(a.calls) / float64(a.writes)
	}
	if a.rows > 0 {
		f.allocsPerRow = float64(a.mallocs) / float64(a.rows)
	}
	return f
}

// peTarget is one target of issue 15 for one workload: holds reports whether go (g) meets it
// against Java (j), and what was measured.
type peTarget struct {
	name  string
	check func(g, j peFigures) (bool, string)
}

func ratioTarget(name string, max float64, of func(peFigures) float64) peTarget {
	return peTarget{name, func(g, j peFigures) (bool, string) {
		r := of(g) / of(j)
		return r <= max, fmt.Sprintf("%.2f", r)
	}}
}

func atLeastRatio(name string, min float64, of func(peFigures) float64) peTarget {
	return peTarget{name, func(g, j peFigures) (bool, string) {
		r := of(g) / of(j)
		return r >= min, fmt.Sprintf("%.2f", r)
	}}
}

var (
	targetThroughput = atLeastRatio("ops/s ≥ 1.3× Java", 1.3, func(f peFigures) float64 { return f.opsPerSec })
	targetRows       = atLeastRatio("rows/s ≥ 1.3× Java", 1.3, func(f peFigures) float64 { return f.rowsPerSec })
	targetP50        = ratioTarget("p50 ≤ Java", 1, func(f peFigures) float64 { return float64(f.p50) })
	targetP75        = ratioTarget("p75 ≤ Java", 1, func(f peFigures) float64 { return float64(f.p75) })
	targetP99        = ratioTarget("p99 ≤ Java", 1, func(f peFigures) float64 { return float64(f.p99) })
	targetCPUThird   = ratioTarget("client CPU/op ≤ ⅓ Java", 1.0/3, func(f peFigures) float64 { return float64(f.cpuPerOp) })
	targetCPU07      = ratioTarget("client CPU/op ≤ 0.7× Java", 0.7, func(f peFigures) float64 { return float64(f.cpuPerOp) })
	targetCPU8us     = peTarget{"client CPU/Get ≤ 8 µs", func(g, _ peFigures) (bool, string) {
		return g.cpuPerOp <= 8*time.Microsecond, fmt.Sprintf("%.1f µs", us(g.cpuPerOp))
	}}
	targetAllocs6 = peTarget{"allocations/Get ≤ 6", func(g, _ peFigures) (bool, string) {
		return g.allocsPerOp <= 6, fmt.Sprintf("%.1f", g.allocsPerOp)
	}}
	targetAllocsRow = peTarget{"allocations/row ≤ 0.1", func(g, _ peFigures) (bool, string) {
		return g.allocsPerRow <= 0.1, fmt.Sprintf("%.2f", g.allocsPerRow)
	}}
)

// rssSlack is what issue 23 lets a client's RSS exceed its writers' buffer bound by.
const rssSlack = 32 << 20

var (
	targetWritten = atLeastRatio("rows written/s ≥ 1.3× Java", 1.3, func(f peFigures) float64 { return f.opsPerSec })
	targetCPUHalf = ratioTarget("client CPU/row ≤ ½ Java", 0.5, func(f peFigures) float64 { return float64(f.cpuPerOp) })
)

// targetRSS: go-hbase's peak RSS during w's blocks at most its writers' bound (callers × the
// bound each, twice the write buffer) plus rssSlack.
func targetRSS(w peWorkload) peTarget {
	bound := int64(w.callers) * 2 * w.writeBuffer
	return peTarget{fmt.Sprintf("client RSS ≤ %d MiB bound + 32 MiB", bound>>20), func(g, _ peFigures) (bool, string) {
		return g.rssPeak <= bound+rssSlack, fmt.Sprintf("%.0f MiB", float64(g.rssPeak)/(1<<20))
	}}
}

// targetsOf are issue 15's targets for a workload (issue 23's for the buffered ones).
func targetsOf(w peWorkload) []peTarget {
	switch {
	case w.buffered():
		return []peTarget{targetWritten, targetCPUHalf, targetRSS(w)}
	case w.workload == "scanRange":
		return []peTarget{targetRows, targetAllocsRow, targetP99}
	case w.callers == 1:
		return []peTarget{targetCPU07, targetP50}
	case w.workload == "randomRead" && w.callers == 32:
		return []peTarget{targetThroughput, targetP75, targetP99, targetCPUThird, targetCPU8us, targetAllocs6}
	case w.workload == "randomRead":
		return []peTarget{targetThroughput, targetP75, targetP99, targetCPUThird}
	}
	return []peTarget{targetThroughput, targetP75, targetP99}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func fmtDur(d time.Duration) string {
	if d >= time.Millisecond {
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.0f µs", us(d))
}

// printPEResults prints three Markdown tables: each side's figures, go-hbase's ratios to the
// Java client, and issue 15's targets.
func printPEResults(ws []peWorkload, results [][2]*peAcc) {
	fmt.Print("\n| workload | callers | client | ops/s | rows/s | p50 | p75 | p99 | client CPU/op | server CPU/op | allocs/op | B/op | GCs | RPCs/write | ops |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, w := range ws {
		for k, name := range []string{"go-hbase", "Java"} {
			f := results[i][k].figures()
			allocs, bytes, gcs, perWrite := "", "", "", ""
			if k == 0 {
				allocs, bytes, gcs = fmt.Sprintf("%.1f", f.allocsPerOp), fmt.Sprintf("%.0f", f.bytesPerOp), fmt.Sprint(f.gcs)
				perWrite = fmt.Sprintf("%.2f", f.callsPerWrite)
			}
			rows := ""
			if w.rangeLen > 0 {
				rows = fmt.Sprintf("%.0f", f.rowsPerSec)
			}
			fmt.Printf("| %s | %d | %s | %.0f | %s | %s | %s | %s | %.1f µs | %.1f µs | %s | %s | %s | %s | %d |\n", w.name, w.callers, name,
				f.opsPerSec, rows, fmtDur(f.p50), fmtDur(f.p75), fmtDur(f.p99), us(f.cpuPerOp), us(f.serverPerOp), allocs, bytes, gcs, perWrite, f.ops)
		}
	}
	fmt.Print("\nRatios go-hbase / Java client (same run); client CPU per operation go-hbase and Java; go-hbase allocations per operation (the benchmark loop's own request building in brackets) and per row returned:\n\n")
	fmt.Print("| workload | callers | throughput | p50 | p75 | p99 | client CPU/op go / Java | CPU ratio | go allocs/op (request) | go allocs/row |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for i, w := range ws {
		g, j := results[i][0].figures(), results[i][1].figures()
		perRow := ""
		if w.rangeLen > 0 {
			perRow = fmt.Sprintf("%.2f", g.allocsPerRow)
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.1f / %.1f µs | %.2f | %.1f (%.0f) | %s |\n", w.name, w.callers,
			g.opsPerSec/j.opsPerSec, ratio(g.p50, j.p50), ratio(g.p75, j.p75), ratio(g.p99, j.p99),
			us(g.cpuPerOp), us(j.cpuPerOp), ratio(g.cpuPerOp, j.cpuPerOp), g.allocsPerOp, g.requestAllocsPerOp, perRow)
	}
	printRSS(ws, results)
	fmt.Print("\nIssue 15's targets (issue 23's for the buffered workloads):\n\n| workload | callers | target | measured | met |\n|---|---|---|---|---|\n")
	met, all := 0, 0
	for i, w := range ws {
		g, j := results[i][0].figures(), results[i][1].figures()
		for _, tg := range targetsOf(w) {
			ok, got := tg.check(g, j)
			verdict := "**no**"
			if ok {
				verdict = "yes"
				met++
			}
			all++
			fmt.Printf("| %s | %d | %s | %s | %s |\n", w.name, w.callers, tg.name, got, verdict)
		}
	}
	fmt.Printf("\n%d of %d targets met.\n%s\n", met, all, strings.Repeat("-", 40))
}

// printRSS prints the clients' resident memory during the buffered workloads: before the
// first recorded block and the peak sampled (every 5 ms) during the blocks.
func printRSS(ws []peWorkload, results [][2]*peAcc) {
	header := false
	for i, w := range ws {
		if !w.buffered() {
			continue
		}
		if !header {
			fmt.Print("\nClient RSS during the buffered workloads (MiB, before the first block / peak):\n\n| workload | callers | write buffer | go-hbase | Java |\n|---|---|---|---|---|\n")
			header = true
		}
		g, j := results[i][0].figures(), results[i][1].figures()
		mib := func(n int64) float64 { return float64(n) / (1 << 20) }
		fmt.Printf("| %s | %d | %d KiB | %.0f / %.0f | %.0f / %.0f |\n", w.name, w.callers, w.writeBuffer>>10,
			mib(g.rssBefore), mib(g.rssPeak), mib(j.rssBefore), mib(j.rssPeak))
	}
}
