package benchmarks

import (
	"fmt"
	"os"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/kerberos"
)

// TestJavaClientLatency measures go-hbase beside the standard HBase Java client (2.6.1, the
// cluster's own version, in a JVM of its own: hbasetest.JavaClient) in the same run: Gets and
// Puts of 1 KB values from one caller and from 16, the two clients taking turns in blocks of
// GOHBASE_BENCH_BLOCK operations against the same cluster, once on a plain cluster and once on
// a secure one with privacy and AES. Client CPU is each client's own process; the reference is
// the Java client.
func TestJavaClientLatency(t *testing.T) {
	if os.Getenv("GOHBASE_BENCH") != "1" {
		t.Skip("benchmark against real clusters: set GOHBASE_BENCH=1")
	}
	ops, repeat, block := benchSize(t)
	concs := []int{1, 16}
	for _, setup := range []struct {
		name   string
		opts   hbasetest.Options
		goOpts func(cl *hbasetest.Cluster) []hbase.Option
	}{
		{"plain (SIMPLE)", hbasetest.Options{FullJIT: true}, func(*hbasetest.Cluster) []hbase.Option { return nil }},
		{"Kerberos, privacy with AES", hbasetest.Options{Secure: true, Protection: "privacy", AES: true, FullJIT: true},
			func(cl *hbasetest.Cluster) []hbase.Option {
				return []hbase.Option{
					kerberos.WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf),
					kerberos.WithProtection(kerberos.ProtectionPrivacy), kerberos.WithAES(kerberos.AESRequired),
				}
			}},
	} {
		sts := make([]*stats, len(concs))
		for i := range sts {
			sts[i] = newStats()
		}
		for range repeat {
			compareWithJava(t, sts, concs, setup.opts, setup.goOpts, ops, block)
		}
		for i, conc := range concs {
			printResults(sts[i].results(), "Java client", "Java", fmt.Sprintf("%s, callers: %d", setup.name, conc))
		}
	}
}

// compareWithJava measures both clients on one cluster, for each number of concurrent callers
// in concs (threads for the Java client, goroutines for go-hbase) into the stats beside it.
func compareWithJava(t *testing.T, sts []*stats, concs []int, opts hbasetest.Options, goOpts func(*hbasetest.Cluster) []hbase.Option, ops, block int) {
	cl := hbasetest.StartT(t, opts)
	defer cl.Stop()
	ctx := t.Context()
	const table = "bench"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	c, err := hbase.NewClient(cl.ZKQuorum, append([]hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent)}, goOpts(cl)...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	j, err := cl.StartJavaClient(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	// The Java client's JIT compiles its hot paths with C2 only after thousands of calls
	// (HotSpot's Tier4 thresholds are 5,000 to 15,000), hence a warm-up far longer than the Go
	// side needs.
	sides := []side{goSide("go-hbase", c, table), javaSide(j, table)}
	for i, conc := range concs {
		// Longer turns with more callers, so that the start and end of a turn, where fewer
		// than conc calls are in flight, weigh as little as with one caller.
		blk := min(block*max(1, conc/2), ops/quarters)
		interleave(t, sts[i], cl, sides, ops, blk, max(ops/10, 10000), conc, nil)
	}
}
