// Package conformance holds the conformance suite of package fakehbase: black-box cases,
// through the public client API only, that run against the in-process server always and
// against a real HBase mini cluster (package hbasetest) unless clusters are skipped (-short,
// GOHBASE_SKIP_CLUSTER=1). Each case's outcome (results, cells with their timestamps, errors
// as the client classifies them) must equal the outcome recorded from HBase 2.6.1 in
// testdata/conformance.golden, on both servers. -update rewrites that file from the real
// cluster (never from the fake).
package conformance

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

var (
	update = flag.Bool("update", false, "rewrite testdata/conformance.golden from the real cluster")
	// Two region servers on both sides, so that a case can move a region (env.move).
	cluster = hbasetest.NewShared(hbasetest.Options{RegionServers: 2})
)

func TestMain(m *testing.M) { os.Exit(cluster.Run(m)) }

const goldenFile = "testdata/conformance.golden"

// kase is one conformance case: the table it gets (nil: none, it makes its own) and what it
// does, recording its outcome in the env.
type kase struct {
	name   string
	layout *layout
	run    func(e *env)
}

// layout is a table: its families and split keys.
type layout struct {
	families []famSpec
	splits   []string
}

type famSpec struct {
	name     string
	versions int
	ttl      time.Duration
}

// allCases lists every case, in the order they run.
func allCases() []kase {
	var all []kase
	for _, group := range [][]kase{basicCases, deleteCases, deltaCases, checkCases, batchCases,
		scanCases, filterCases, adminCases, seedCases, replicationCases, docCases} {
		all = append(all, group...)
	}
	return all
}

// tableOf is the table a case gets: one per case, so cases do not see each other's rows.
func tableOf(k kase) string { return "conf_" + k.name }

func TestConformance(t *testing.T) {
	cases := allCases()
	if re := os.Getenv("GOHBASE_CONFORMANCE_CASES"); re != "" {
		// For debugging: only the cases whose names match.
		pattern := regexp.MustCompile(re)
		cases = slices.DeleteFunc(cases, func(k kase) bool { return !pattern.MatchString(k.name) })
	}
	names := map[string]bool{}
	for _, k := range cases {
		if names[k.name] {
			t.Fatalf("case %s defined twice", k.name)
		}
		names[k.name] = true
	}
	golden := readGolden(t)

	srv := fakehbase.NewServer(t, fakehbase.WithRegionServers(2))
	fc, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	began := time.Now()
	fake := runAll(t, fc, fakeServer{srv}, cases, func(_ context.Context, table string, row []byte) error {
		return srv.MoveRegion(table, row)
	})
	t.Logf("fake: %d cases in %v", len(cases), time.Since(began).Round(time.Millisecond))
	if path := os.Getenv("GOHBASE_CONFORMANCE_DUMP"); path != "" {
		writeOutcomes(t, path+".fake", cases, fake)
	}
	if !*update {
		for _, k := range cases {
			t.Run("fake/"+k.name, func(t *testing.T) { compare(t, "golden", golden[k.name], "fake", fake[k.name]) })
		}
	}

	cl := cluster.Cluster(t) // skipped under -short
	rc, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	began = time.Now()
	real := runAll(t, rc, clientServer{rc}, cases, func(ctx context.Context, table string, row []byte) error {
		regions, err := cl.Regions(ctx, table)
		if err != nil {
			return err
		}
		for _, r := range regions {
			if bytes.Compare(r.StartKey, row) <= 0 && (len(r.EndKey) == 0 || bytes.Compare(row, r.EndKey) < 0) {
				return cl.Move(ctx, r.EncodedName, 1-r.Server)
			}
		}
		return fmt.Errorf("no region of %s holds %q", table, row)
	})
	t.Logf("real: %d cases in %v", len(cases), time.Since(began).Round(time.Millisecond))
	if path := os.Getenv("GOHBASE_CONFORMANCE_DUMP"); path != "" {
		writeOutcomes(t, path+".real", cases, real)
	}
	if *update {
		writeOutcomes(t, goldenFile, cases, real)
		return
	}
	equal := 0
	for _, k := range cases {
		ok := t.Run("real/"+k.name, func(t *testing.T) {
			compare(t, "real", real[k.name], "fake", fake[k.name])
			compare(t, "golden", golden[k.name], "real", real[k.name])
		})
		if ok {
			equal++
		}
	}
	t.Logf("%d cases; %d with equal outcomes on HBase and on fakehbase", len(cases), equal)
}

// runAll makes every case's table, then runs the cases one by one, and returns their outcomes.
// srv is the server side of the cases that seed or read without the client; move moves the
// region of a table holding a row to the other region server.
func runAll(t *testing.T, c *hbase.Client, srv server, cases []kase, move func(ctx context.Context, table string, row []byte) error) map[string][]string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	began := time.Now()
	admin := admin.New(c)
	if err := dropLeftovers(ctx, admin); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	errs := make(chan error, len(cases))
	for _, k := range cases {
		if k.layout == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := createTable(ctx, admin, tableOf(k), k.layout); err != nil {
				errs <- fmt.Errorf("case %s: creating its table: %w", k.name, err)
			}
		}()
	}
	wg.Wait()
	t.Logf("tables created in %v", time.Since(began).Round(time.Millisecond))
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, k := range cases {
		cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
		e := &env{t: t, ctx: cctx, c: c, admin: admin, table: tableOf(k), tb: tableOf(k), start: time.Now(), mover: move, srv: srv}
		caseBegan := time.Now()
		k.run(e)
		if d := time.Since(caseBegan); d > time.Second {
			t.Logf("case %s took %v", k.name, d.Round(time.Millisecond))
		}
		ccancel()
		out[k.name] = e.out
	}
	return out
}

// dropLeftovers deletes the tables and namespace an earlier run left on the cluster
// (go test -count=2 shares one cluster), so that cases start from nothing.
func dropLeftovers(ctx context.Context, admin *admin.Admin) error {
	tables, err := admin.ListTables(ctx, hrpc.IncludeSystemTables())
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	errs := make(chan error, len(tables))
	for _, name := range tables {
		if !strings.HasPrefix(name, "conf_") && !strings.Contains(name, "cadm") {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := admin.DisableTable(ctx, name); err != nil && !errors.Is(err, hberr.ErrTableDisabled) {
				errs <- err
				return
			}
			if err := admin.DeleteTable(ctx, name); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	if err := admin.DeleteNamespace(ctx, "cadmns"); err != nil && !errors.Is(err, hberr.ErrNamespaceNotFound) {
		return err
	}
	return nil
}

func createTable(ctx context.Context, admin *admin.Admin, name string, l *layout) error {
	var opts []hrpc.TableOption
	for _, f := range l.families {
		var fo []hrpc.FamilyOption
		if f.versions > 0 {
			fo = append(fo, hrpc.Versions(f.versions))
		}
		if f.ttl > 0 {
			fo = append(fo, hrpc.TTL(f.ttl))
		}
		opts = append(opts, hrpc.WithFamily(f.name, fo...))
	}
	desc, err := hrpc.NewTableDescriptor(name, opts...)
	if err != nil {
		return err
	}
	var splits []hrpc.CreateTableOption
	if len(l.splits) > 0 {
		var keys [][]byte
		for _, s := range l.splits {
			keys = append(keys, []byte(s))
		}
		splits = append(splits, hrpc.SplitKeys(keys...))
	}
	return admin.CreateTable(ctx, desc, splits...)
}

func compare(t *testing.T, wantName string, want []string, gotName string, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	t.Errorf("%s and %s differ:\n%s", gotName, wantName, diff(wantName, want, gotName, got))
}

func diff(an string, a []string, bn string, b []string) string {
	var sb strings.Builder
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x == y {
			fmt.Fprintf(&sb, "    %s\n", x)
			continue
		}
		fmt.Fprintf(&sb, "  - %s: %s\n  + %s: %s\n", an, x, bn, y)
	}
	return sb.String()
}

func readGolden(t *testing.T) map[string][]string {
	f, err := os.Open(goldenFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	var cur string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "== "); ok {
			cur = name
			out[cur] = []string{}
			continue
		}
		if line == "" || cur == "" {
			continue
		}
		out[cur] = append(out[cur], line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeOutcomes writes outcomes in the golden file's form.
func writeOutcomes(t *testing.T, path string, cases []kase, outcomes map[string][]string) {
	var sb strings.Builder
	sb.WriteString("# Outcomes of the conformance cases against HBase 2.6.1 (a mini cluster), written by\n")
	sb.WriteString("# go test -run Conformance -update; fakehbase must give the same.\n")
	for _, k := range cases {
		fmt.Fprintf(&sb, "\n== %s\n", k.name)
		for _, l := range outcomes[k.name] {
			sb.WriteString(l)
			sb.WriteByte('\n')
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
