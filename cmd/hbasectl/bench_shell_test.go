package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// TestShellBenchmark measures, on the package's cluster, the time from starting a process to
// its first result line for hbasectl and for the smallest Java client program doing the same
// (the launcher's ShellBench, a JVM of its own): a get, a scan of 10 rows, and a runbook of
// 1,000 lines (500 puts, then 500 gets) to its end. Not a timed test: it runs with
// GOHBASE_SHELL_BENCH=1 (make bench-shell) and prints a table of medians and ratios.
func TestShellBenchmark(t *testing.T) {
	if os.Getenv("GOHBASE_SHELL_BENCH") == "" {
		t.Skip("a benchmark: GOHBASE_SHELL_BENCH=1 (make bench-shell) runs it")
	}
	rounds := 5
	cluster := shared.Cluster(t)
	bin := filepath.Join(t.TempDir(), "hbasectl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	table := fmt.Sprintf("shellbench_%d", time.Now().UnixNano()%1e6)
	client, err := hbase.NewClient(cluster.ZKQuorum)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	a := admin.New(client)
	desc, err := hrpc.NewTableDescriptor(table, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(t.Context(), desc); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.DisableTable(t.Context(), table); _ = a.DeleteTable(t.Context(), table) }()
	var runbook strings.Builder
	for i := range 500 {
		fmt.Fprintf(&runbook, "put '%s', 'r%d', 'f:q', 'v%d'\n", table, i, i)
	}
	for i := range 500 {
		fmt.Fprintf(&runbook, "get '%s', 'r%d'\n", table, i)
	}
	rb := filepath.Join(t.TempDir(), "runbook.hb")
	if err := os.WriteFile(rb, []byte(runbook.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The rows the get and scan read.
	if code, _, stderr := runArgs(t, env("HBASE_ZK", cluster.ZKQuorum), "-f", rb); code != 0 {
		t.Fatalf("runbook: %s", stderr)
	}

	type job struct {
		name      string
		goArgs    []string
		javaArgs  []string
		wantFirst string // a line of the first result
		toEnd     bool   // time to the process's end, not to the first result
	}
	jobs := []job{
		{"get", []string{"-e", "get '" + table + "', 'r7'"}, []string{"get", table, "r7"}, "value=v7", false},
		{"scan 't', {LIMIT => 10}", []string{"-e", "scan '" + table + "', {LIMIT => 10}"}, []string{"scan", table, "10"}, "value=v0", false},
		{"runbook of 1,000 lines", []string{"-f", rb}, []string{"runbook", table, "1000"}, "", true},
	}
	type result struct{ goT, javaT []time.Duration }
	results := make([]result, len(jobs))
	for r := range rounds {
		for i, j := range jobs {
			g := measure(t, exec.Command(bin, append([]string{"-zk", cluster.ZKQuorum}, j.goArgs...)...), j.wantFirst, j.toEnd)
			jv := measure(t, cluster.JavaProgram("org.gohbase.minicluster.ShellBench", append([]string{cluster.ZKQuorum}, j.javaArgs...)...), j.wantFirst, j.toEnd)
			results[i].goT = append(results[i].goT, g)
			results[i].javaT = append(results[i].javaT, jv)
			t.Logf("round %d %s: hbasectl %v, java %v", r, j.name, g, jv)
		}
	}
	median := func(d []time.Duration) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[len(s)/2]
	}
	var table2 strings.Builder
	fmt.Fprintf(&table2, "| %d rounds, medians | hbasectl | Java client program (own JVM) | Java / hbasectl |\n|---|---|---|---|\n", rounds)
	for i, j := range jobs {
		g, jv := median(results[i].goT), median(results[i].javaT)
		what := "to the first result"
		if j.toEnd {
			what = "to the end"
		}
		fmt.Fprintf(&table2, "| `%s`, %s | %v | %v | %.1fx |\n", j.name, what, g.Round(time.Millisecond), jv.Round(time.Millisecond), float64(jv)/float64(g))
	}
	fmt.Print("\n" + table2.String())
}

// measure starts cmd and returns the time until its stdout holds a line containing first
// (or until it exits, with toEnd or an empty first). The process must exit with status 0.
func measure(t *testing.T, cmd *exec.Cmd, first string, toEnd bool) time.Duration {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var at time.Duration
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if at == 0 && first != "" && !toEnd && strings.Contains(sc.Text(), first) {
			at = time.Since(start)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v: %s", cmd.Args[0], err, stderr.String())
	}
	if at == 0 {
		if !toEnd && first != "" {
			t.Fatalf("%s printed no line with %q", cmd.Args, first)
		}
		at = time.Since(start)
	}
	return at
}
