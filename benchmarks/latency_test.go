package benchmarks

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/histogram"
	"github.com/go-hbase/hbase/kerberos"
)

// mode is one client setting measured, and the layer its handshakes must negotiate.
type mode struct {
	name string
	opts []hbase.Option
	want string // "qop cipher" as the sasl handshaker logs it, see handshakeLog
}

type measurement struct {
	side, op      string // the side (client or mode) measured and its operation
	p50, p75, p95 time.Duration
	quarterP75    [quarters]time.Duration // p75 of each quarter of the rounds, in order
	opsPerSec     float64
	cpuPerOp      time.Duration // this process (the client)
	serverPerOp   time.Duration // the cluster's JVM
	ops           int
}

// quarters splits the rounds into four spans whose ratios are printed apart: how far the
// figure moves within one run is the noise any single figure carries.
const quarters = 4

// encryptionModes are the three settings compared. Apart from protection and AES the clients
// are configured alike.
var encryptionModes = []mode{
	{"none (auth)", []hbase.Option{kerberos.WithProtection(kerberos.ProtectionAuthentication)}, "auth -"},
	{"privacy, GSS wrap", []hbase.Option{kerberos.WithProtection(kerberos.ProtectionPrivacy), kerberos.WithAES(kerberos.AESOff)}, "auth-conf gss-wrap"},
	{"privacy, AES", []hbase.Option{kerberos.WithProtection(kerberos.ProtectionPrivacy), kerberos.WithAES(kerberos.AESRequired)}, "auth-conf " + cipher.Transformation},
}

// TestEncryptionLatency measures sequential Get and Put latency, and the CPU per operation of
// the client and of the cluster's JVM. All three modes run against one secure cluster whose
// servers offer both QoPs (hbase.rpc.protection "authentication,privacy", AES enabled): each
// client picks its own. The modes take turns in blocks of GOHBASE_BENCH_BLOCK operations (200
// by default), in a balanced order (blockOrder), so that drift of this shared machine and of the
// JVM (garbage collection, memstore flushes, JIT) hits all modes alike. Each client's
// handshakes are checked to have negotiated the layer its mode names.
func TestEncryptionLatency(t *testing.T) {
	if os.Getenv("GOHBASE_BENCH") != "1" {
		t.Skip("benchmark against real clusters: set GOHBASE_BENCH=1")
	}
	ops, repeat, block := benchSize(t)
	st := newStats()
	for range repeat {
		measureCluster(t, st, hbasetest.Options{Secure: true, Protection: "authentication,privacy", AES: true, FullJIT: true},
			encryptionModes, ops, block)
	}
	printResults(st.results(), encryptionModes[0].name, "none", "mode")
}

// benchSize reads the run's size: operations per side and operation (GOHBASE_BENCH_OPS),
// clusters in a row (GOHBASE_BENCH_REPEAT) and the length of a turn (GOHBASE_BENCH_BLOCK).
func benchSize(t *testing.T) (ops, repeat, block int) {
	ops = envInt(t, "GOHBASE_BENCH_OPS", 3000)
	repeat = envInt(t, "GOHBASE_BENCH_REPEAT", 1)
	block = envInt(t, "GOHBASE_BENCH_BLOCK", 200)
	if ops < quarters*block {
		t.Fatalf("GOHBASE_BENCH_OPS %d: want at least %d (%d blocks of GOHBASE_BENCH_BLOCK %d)", ops, quarters*block, quarters, block)
	}
	return ops, repeat, block
}

// printResults prints results as a Markdown table, each row related to the row of the same
// operation whose side is named ref (shown as refLabel); column names the sides.
func printResults(results []measurement, ref, refLabel, column string) {
	refs := map[string]measurement{} // op -> the reference row
	for _, m := range results {
		if m.side == ref {
			refs[m.op] = m
		}
	}
	fmt.Printf("\n| %s | op | ops/s | p50 | p75 | p95 | client CPU/op | server CPU/op | ops/s / %[2]s | p75 / %[2]s | p75 / %[2]s by quarter | client CPU / %[2]s | server CPU / %[2]s | ops |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", column, refLabel)
	for _, m := range results {
		r := refs[m.op]
		var q []string
		for i := range quarters {
			q = append(q, fmt.Sprintf("%.2f", ratio(m.quarterP75[i], r.quarterP75[i])))
		}
		fmt.Printf("| %s | %s | %.0f | %v | %v | %v | %v | %v | %.2f | %.2f | %s | %.2f | %.2f | %d |\n", m.side, m.op, m.opsPerSec,
			m.p50.Round(time.Microsecond), m.p75.Round(time.Microsecond), m.p95.Round(time.Microsecond),
			m.cpuPerOp.Round(100*time.Nanosecond), m.serverPerOp.Round(100*time.Nanosecond),
			m.opsPerSec/r.opsPerSec, ratio(m.p75, r.p75), strings.Join(q, " "), ratio(m.cpuPerOp, r.cpuPerOp),
			ratio(m.serverPerOp, r.serverPerOp), m.ops)
	}
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// acc accumulates one side and operation over every cluster it ran on.
type acc struct {
	h      *histogram.Histogram
	q      [quarters]*histogram.Histogram
	cpu    time.Duration
	server time.Duration
	wall   time.Duration // the blocks' wall time, for throughput
	n      int
}

type stats struct {
	order []string // side\x00op in first-seen order
	m     map[string]*acc
}

func newStats() *stats { return &stats{m: map[string]*acc{}} }

func newHistogram() *histogram.Histogram { return histogram.New(int64(10*time.Second), 3) }

func (s *stats) get(side, op string) *acc {
	k := side + "\x00" + op
	a, ok := s.m[k]
	if !ok {
		a = &acc{h: newHistogram()}
		for i := range a.q {
			a.q[i] = newHistogram()
		}
		s.m[k] = a
		s.order = append(s.order, k)
	}
	return a
}

func (s *stats) results() []measurement {
	var out []measurement
	for _, k := range s.order {
		a := s.m[k]
		side, op, _ := strings.Cut(k, "\x00")
		m := measurement{
			side: side, op: op, ops: a.n,
			p50: time.Duration(a.h.Percentile(50)), p75: time.Duration(a.h.Percentile(75)),
			p95:      time.Duration(a.h.Percentile(95)),
			cpuPerOp: a.cpu / time.Duration(max(a.n, 1)), serverPerOp: a.server / time.Duration(max(a.n, 1)),
			opsPerSec: float64(a.n) / a.wall.Seconds(),
		}
		for i, h := range a.q {
			m.quarterP75[i] = time.Duration(h.Percentile(75))
		}
		out = append(out, m)
	}
	return out
}

func measureCluster(t *testing.T, st *stats, opts hbasetest.Options, modes []mode, ops, block int) {
	cl := hbasetest.StartT(t, opts)
	defer cl.Stop()
	ctx := t.Context()
	table := "bench"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	clients := make([]*hbase.Client, len(modes))
	logs := make([]*handshakeLog, len(modes))
	for i, m := range modes {
		logs[i] = newHandshakeLog()
		o := append([]hbase.Option{
			hbase.WithZNodeParent(cl.ZNodeParent),
			kerberos.WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf),
			hbase.WithLogger(slog.New(logs[i])),
		}, m.opts...)
		c, err := hbase.NewClient(cl.ZKQuorum, o...)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		clients[i] = c
	}
	sides := make([]side, len(modes))
	for i, m := range modes {
		sides[i] = goSide(m.name, clients[i], table)
	}
	interleave(t, st, cl, sides, ops, block, max(ops/10, block), 1, func() {
		// Every client has connected (meta and the table's region) in the warm-up.
		for i, m := range modes {
			if got := logs[i].layers(); len(got) != 1 || got[0] != m.want {
				t.Fatalf("%s: handshakes negotiated %q, want only %q", m.name, got, m.want)
			}
		}
	})
}
