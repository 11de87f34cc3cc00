package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// mode is one client setting measured.
type mode struct {
	name string
	opts []hbase.Option
}

type measurement struct {
	mode, op      string
	p50, p75, p95 time.Duration
	cpuPerOp      time.Duration
	ops           int
}

// TestEncryptionLatency measures sequential Get and Put latency and client CPU per operation.
// "none" runs on a Kerberos cluster with QoP authentication; the two privacy modes share one
// privacy+AES cluster and are interleaved in rounds so that drift of this shared machine hits
// both alike. Clusters run one after another.
func TestEncryptionLatency(t *testing.T) {
	if os.Getenv("GOHBASE_BENCH") != "1" {
		t.Skip("benchmark against real clusters: set GOHBASE_BENCH=1")
	}
	ops := 3000
	if s := os.Getenv("GOHBASE_BENCH_OPS"); s != "" {
		ops, _ = strconv.Atoi(s)
	}
	repeat := 1
	if s := os.Getenv("GOHBASE_BENCH_REPEAT"); s != "" {
		repeat, _ = strconv.Atoi(s)
	}
	// Alternate the two clusters so slow phases of this shared machine spread over all modes.
	st := newStats()
	for range repeat {
		measureCluster(t, st, hbasetest.Options{Secure: true, Protection: "authentication", FullJIT: true},
			[]mode{{"none (auth)", []hbase.Option{hbase.WithProtection(hbase.ProtectionAuthentication)}}}, ops)
		measureCluster(t, st, hbasetest.Options{Secure: true, Protection: "privacy", AES: true, FullJIT: true},
			[]mode{
				{"privacy, GSS wrap", []hbase.Option{hbase.WithProtection(hbase.ProtectionPrivacy), hbase.WithAES(false)}},
				{"privacy, AES", []hbase.Option{hbase.WithProtection(hbase.ProtectionPrivacy)}},
			}, ops)
	}
	results := st.results()
	fmt.Printf("\n| mode | op | p50 | p75 | p95 | client CPU/op | ops |\n|---|---|---|---|---|---|---|\n")
	for _, m := range results {
		fmt.Printf("| %s | %s | %v | %v | %v | %v | %d |\n", m.mode, m.op,
			m.p50.Round(time.Microsecond), m.p75.Round(time.Microsecond), m.p95.Round(time.Microsecond),
			m.cpuPerOp.Round(100*time.Nanosecond), m.ops)
	}
}

// acc accumulates one mode and operation over every cluster it ran on.
type acc struct {
	h   *hdrhistogram.Histogram
	cpu time.Duration
	n   int
}

type stats struct {
	order []string // mode\x00op in first-seen order
	m     map[string]*acc
}

func newStats() *stats { return &stats{m: map[string]*acc{}} }

func (s *stats) get(mode, op string) *acc {
	k := mode + "\x00" + op
	a, ok := s.m[k]
	if !ok {
		a = &acc{h: hdrhistogram.New(1, int64(10*time.Second), 3)}
		s.m[k] = a
		s.order = append(s.order, k)
	}
	return a
}

func (s *stats) results() []measurement {
	var out []measurement
	for _, k := range s.order {
		a := s.m[k]
		mode, op, _ := strings.Cut(k, "\x00")
		out = append(out, measurement{
			mode: mode, op: op, ops: a.n,
			p50: time.Duration(a.h.ValueAtQuantile(50)), p75: time.Duration(a.h.ValueAtQuantile(75)),
			p95: time.Duration(a.h.ValueAtQuantile(95)), cpuPerOp: a.cpu / time.Duration(max(a.n, 1)),
		})
	}
	return out
}

func measureCluster(t *testing.T, st *stats, opts hbasetest.Options, modes []mode, ops int) {
	cl := hbasetest.StartT(t, opts)
	defer cl.Stop()
	ctx := context.Background()
	table := "bench"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	clients := make([]*hbase.Client, len(modes))
	for i, m := range modes {
		o := append([]hbase.Option{
			hbase.WithZNodeParent(cl.ZNodeParent),
			hbase.WithKerberosKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf),
		}, m.opts...)
		c, err := hbase.NewClient(cl.ZKQuorum, o...)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		clients[i] = c
	}
	value := bytes.Repeat([]byte("v"), 1024)
	const rounds = 10
	warm := ops / 10
	per := ops / rounds
	for round := -1; round < rounds; round++ {
		n := per
		if round < 0 {
			n = warm // warm-up round: JIT, connections, region cache; not recorded
		}
		for i, c := range clients {
			for _, op := range []string{"Get", "Put"} {
				a := st.get(modes[i].name, op)
				cpu0 := cpuTime()
				for j := range n {
					row := []byte(fmt.Sprintf("row%05d", j%500))
					start := time.Now()
					var err error
					if op == "Put" {
						var p *hrpc.Mutation
						if p, err = hrpc.NewPut([]byte(table), row, hrpc.Value([]byte("f"), []byte("q"), value)); err == nil {
							_, err = c.Put(ctx, p)
						}
					} else {
						var g *hrpc.Get
						if g, err = hrpc.NewGet([]byte(table), row); err == nil {
							_, err = c.Get(ctx, g)
						}
					}
					d := time.Since(start)
					if err != nil {
						t.Fatalf("%s %s: %v", modes[i].name, op, err)
					}
					if round >= 0 {
						a.h.RecordValue(d.Nanoseconds())
					}
				}
				if round >= 0 {
					a.cpu += cpuTime() - cpu0
					a.n += n
				}
			}
		}
	}
}

// cpuTime is this process's user+system CPU time (the JVM is another process).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
