package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
)

// createOnExistingCluster runs hbase-bench with -create: the table is made through the admin
// API, pre-split as asked, then benchmarked; a second run finds it there and leaves it.
func createOnExistingCluster(t *testing.T, cl *hbasetest.Cluster) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	args := []string{"-zk", cl.ZKQuorum, "-znode", cl.ZNodeParent, "-table", "created", "-create", "-regions", "4",
		"-rows", "1000", "-workload", "randwrite", "-ops", "200", "-concurrency", "2", "-json"}
	for i := range 2 {
		var stdout, stderr strings.Builder
		if code := run(ctx, args, env(), &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit code %d\nstdout:\n%s\nstderr:\n%s", i, code, stdout.String(), stderr.String())
		}
		var rep report
		if err := json.Unmarshal([]byte(stdout.String()), &rep); err != nil || len(rep.Results) != 1 || rep.Results[0].Errors != 0 {
			t.Fatalf("run %d: report %+v, %v\n%s", i, rep, err, stdout.String())
		}
		if want := []string{"table created", "table exists"}[i]; !strings.Contains(stderr.String(), want) {
			t.Fatalf("run %d: log lacks %q:\n%s", i, want, stderr.String())
		}
	}
	c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rs, err := admin.New(c).Regions(ctx, "created")
	if err != nil || len(rs) != 4 {
		t.Fatalf("regions of the created table = %d, %v; want 4", len(rs), err)
	}
	if string(rs[1].Start) != string(appendKey(nil, 250, defaultKeySize)) {
		t.Fatalf("second region starts at %q; want row 250's key", rs[1].Start)
	}
}
