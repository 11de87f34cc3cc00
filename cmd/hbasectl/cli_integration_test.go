package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// The end-to-end tests run hbasectl in process against one real cluster of two region
// servers (move needs somewhere to go).
var shared = hbasetest.NewShared(hbasetest.Options{RegionServers: 2})

// corpusCluster is TestShellCorpus's: shared's options and what the corpus needs besides (a
// peer cluster for the replication commands).
var corpusCluster = hbasetest.NewShared(hbasetest.Options{RegionServers: 2, PeerCluster: true})

func TestMain(m *testing.M) {
	code := shared.Run(m)
	corpusCluster.Stop()
	os.Exit(code)
}

// ctl runs hbasectl against the shared cluster with -json and decodes its output into out
// (when not nil); it fails the test unless the exit code is 0.
func ctl(t *testing.T, out any, args ...string) string {
	t.Helper()
	cluster := shared.Cluster(t)
	all := append([]string{"-zk", cluster.ZKQuorum, "-znode", cluster.ZNodeParent, "-json"}, args...)
	code, stdout, stderr := runArgs(t, env(), all...)
	if code != 0 {
		t.Fatalf("hbasectl %s: exit code %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, stdout, stderr)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(stdout), out); err != nil {
			t.Fatalf("hbasectl %s: output is not JSON: %v\n%s", strings.Join(args, " "), err, stdout)
		}
	}
	return stdout
}

// ctlFails runs hbasectl and checks that it exits with code and one line on stderr
// matching the regular expression want.
func ctlFails(t *testing.T, code int, want string, args ...string) {
	t.Helper()
	cluster := shared.Cluster(t)
	all := append([]string{"-zk", cluster.ZKQuorum, "-znode", cluster.ZNodeParent}, args...)
	got, stdout, stderr := runArgs(t, env(), all...)
	if got != code || stdout != "" || strings.Count(stderr, "\n") != 1 || !regexp.MustCompile(want).MatchString(stderr) {
		t.Errorf("hbasectl %s: exit code %d, stdout %q, stderr %q; want %d, nothing, one line containing %q",
			strings.Join(args, " "), got, stdout, stderr, code, want)
	}
}

// newTable creates a table through the launcher and returns its name.
func newTable(t *testing.T, families []string, splits ...string) string {
	t.Helper()
	cluster := shared.Cluster(t)
	name := fmt.Sprintf("ctl_%s_%d", strings.ToLower(t.Name()), time.Now().UnixNano()%1e6)
	var keys [][]byte
	for _, s := range splits {
		keys = append(keys, []byte(s))
	}
	if err := cluster.CreateTable(t.Context(), name, families, keys); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestCLIPutGetScanCount(t *testing.T) {
	table := newTable(t, []string{"f", "g"}, "m")
	var put putResult
	ctl(t, &put, "put", table, "alice", "f:email", "alice@example.com", "g:age", "41")
	if put.Table != table || put.Row != "alice" || put.Cells != 2 {
		t.Errorf("put printed %+v", put)
	}
	// A binary row and value, and a timestamp of our own.
	ctl(t, nil, "put", "-ts", "1700000000000", table, `bin\x00\xFF`, "f:raw", `\x01\x5C`)
	for _, r := range []string{"carol", "dave", "mallory", "oscar", "zed"} {
		ctl(t, nil, "put", table, r, "f:n", r)
	}

	var got cellsResult
	ctl(t, &got, "get", table, "alice")
	if got.Rows != 1 || len(got.Cells) != 2 {
		t.Fatalf("get alice: %+v", got)
	}
	if c := got.Cells[0]; c.Row != "alice" || c.Family != "f" || c.Qualifier != "email" || c.Value != "alice@example.com" || c.Timestamp < time.Now().Add(-time.Hour).UnixMilli() {
		t.Errorf("get alice: first cell %+v", c)
	}
	if c := got.Cells[1]; c.Family != "g" || c.Qualifier != "age" || c.Value != "41" {
		t.Errorf("get alice: second cell %+v", c)
	}
	got = cellsResult{}
	ctl(t, &got, "get", "-column", "g", table, "alice")
	if len(got.Cells) != 1 || got.Cells[0].Qualifier != "age" {
		t.Errorf("get -column g: %+v", got)
	}
	got = cellsResult{}
	ctl(t, &got, "get", table, `bin\x00\xFF`)
	if len(got.Cells) != 1 || got.Cells[0].Row != `bin\x00\xFF` || got.Cells[0].Value != `\x01\x5C` || got.Cells[0].Timestamp != 1700000000000 {
		t.Errorf("get of the binary row: %+v", got)
	}
	got = cellsResult{}
	ctl(t, &got, "get", table, "nobody")
	if got.Rows != 0 || len(got.Cells) != 0 {
		t.Errorf("get of a missing row: %+v", got)
	}

	// Seven rows over two regions (split at "m").
	got = cellsResult{}
	ctl(t, &got, "scan", table, "-limit", "3")
	if got.Rows != 3 || !got.More || got.Limit != 3 || len(got.Cells) != 4 {
		t.Errorf("scan -limit 3: %+v", got)
	} else if rows := []string{got.Cells[0].Row, got.Cells[2].Row, got.Cells[3].Row}; strings.Join(rows, ",") != `alice,bin\x00\xFF,carol` {
		t.Errorf("scan -limit 3: rows %q", rows)
	}
	got = cellsResult{}
	ctl(t, &got, "scan", "-start", "d", "-stop", "z", "-column", "f:n", table)
	if got.Rows != 3 || got.More || got.Cells[0].Row != "dave" || got.Cells[2].Row != "oscar" {
		t.Errorf("scan -start d -stop z: %+v", got)
	}
	got = cellsResult{}
	ctl(t, &got, "scan", "-reverse", "-limit", "0", table)
	if got.Rows != 7 || got.More || got.Cells[0].Row != "zed" {
		t.Errorf("scan -reverse -limit 0: %+v", got)
	}

	for _, tc := range []struct {
		args []string
		want int64
	}{{nil, 7}, {[]string{"-prefix", "ma"}, 1}, {[]string{"-start", "c", "-caching", "2"}, 5}} {
		var n countResult
		ctl(t, &n, append(append([]string{"count"}, tc.args...), table)...)
		if n.Rows != tc.want || n.Table != table {
			t.Errorf("count %q: %+v, want %d rows", tc.args, n, tc.want)
		}
	}

	// The human form: an aligned table and the row count.
	cluster := shared.Cluster(t)
	code, stdout, stderr := runArgs(t, env("HBASE_ZK", cluster.ZKQuorum), "scan", "-limit", "2", "-column", "f", table)
	wantLines := []string{"ROW          COLUMN   TIMESTAMP                 VALUE\n", "alice        f:email  ", "  alice@example.com", `bin\x00\xFF  f:raw    2023-11-14T22:13:20.000Z  \x01\x5C`, "2 rows (stopped at -limit 2; there are more)"}
	for _, w := range wantLines {
		if !strings.Contains(stdout, w) {
			t.Errorf("scan as text: %q is not in\n%s(exit %d, stderr %q)", w, stdout, code, stderr)
		}
	}
}

func TestCLIBadInputAgainstTheCluster(t *testing.T) {
	table := newTable(t, []string{"f"})
	ctlFails(t, 2, "table not found", "get", "no_such_table", "r")
	ctlFails(t, 2, "table not found", "scan", "no_such_table")
	ctlFails(t, 2, "table not found", "count", "no_such_table")
	ctlFails(t, 2, "table not found", "put", "no_such_table", "r", "f:q", "v")
	ctlFails(t, 2, "NoSuchColumnFamily", "put", table, "r", "nofamily:q", "v")
	ctlFails(t, 2, `unknown command "gett"`, "gett", table, "r")
	ctlFails(t, 2, "scan: missing arguments", "scan")
	ctlFails(t, 2, `cannot reach the cluster \(zk 127\.0\.0\.1:1\)`, "-zk", "127.0.0.1:1", "-connect-timeout", "2s", "get", table, "r")
	// The wrong parent znode is a configuration error, not a wait.
	ctlFails(t, 2, "cannot reach the cluster", "-znode", "/nothbase", "get", table, "r")
}
