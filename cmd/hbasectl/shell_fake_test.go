package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/fakehbase"
)

var timings = regexp.MustCompile(`(in|Took) [0-9]+\.[0-9]{4} seconds`)

// runShell runs src with -e against srv and returns the exit code, stdout (timings as
// "T") and stderr.
func runShell(t *testing.T, srv *fakehbase.Server, src string, flags ...string) (int, string, string) {
	t.Helper()
	args := append([]string{"-bootstrap", srv.Addr()}, flags...)
	code, stdout, stderr := runArgs(t, env(), append(args, "-e", src)...)
	return code, timings.ReplaceAllString(stdout, "$1 T seconds"), stderr
}

// TestShellOutputOnFake checks the text of get, scan, count, incr and the write commands as
// the shell prints them, against fakehbase (no JVM).
func TestShellOutputOnFake(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t1", []string{"f", "g"}); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runShell(t, srv, `put 't1', 'r1', 'f:q', 'v1', 100
put 't1', "r\x002", 'f:q', "\xff\\", 200
get 't1', 'r1'
scan 't1', {LIMIT => 5}
count 't1'
incr 't1', 'c', 'g:n', 5
get_counter 't1', 'c', 'g:n'
append 't1', 'c', 'g:s', 'x'
deleteall 't1', 'c'
exists 't1'`)
	want := `put: wrote 'f:q' of row 'r1' in t1
Took T seconds
put: wrote 'f:q' of row 'r\x002' in t1
Took T seconds
COLUMN                           CELL
 f:q                             timestamp=100, value=v1
1 row(s) in T seconds
ROW                              COLUMN+CELL
 r\x002                          column=f:q, timestamp=200, value=\xFF\x5C
 r1                              column=f:q, timestamp=100, value=v1
2 row(s) in T seconds
2 row(s) in T seconds
COUNTER VALUE = 5
incr: added 5 to 'g:n' of row 'c' in t1
Took T seconds
COUNTER VALUE = 5
Took T seconds
CURRENT VALUE = x
append: appended 1 byte(s) to 'g:s' of row 'c' in t1
Took T seconds
deleteall: deleted every cell of row 'c' in t1
Took T seconds
Table t1 does exist
true
Took T seconds
`
	if code != 0 || stdout != want {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}

	// Value converters, as the shell takes them.
	code, stdout, stderr = runShell(t, srv, `incr 't1', 'c', 'g:n', 258
put 't1', 'c', 'g:i', "\x00\x00\x01\x02"
put 't1', 'c', 'g:s', "caf\xc3\xa9"
get 't1', 'c', 'g:n:toLong', 'g:i:c(org.apache.hadoop.hbase.util.Bytes).toInt', 'g:s:toString'
get 't1', 'c', {COLUMN => 'g:i', FORMATTER => 'toHex'}
get 't1', 'c', {COLUMN => 'g:s', MAXLENGTH => 34}
get 't1', 'c', 'g:s:toLong'`)
	for _, want := range []string{
		" g:i                             timestamp=", ", value=258\n",
		" g:n                             timestamp=", ", value=258\n",
		", value=café\n", ", value=00000102\n", ", value=caf\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("converters: %q is not in\n%s", want, stdout)
		}
	}
	if code != 1 || !strings.Contains(stderr, "line 7: get 't1', 'c', 'g:s:toLong': column g:s: the value caf\\xC3\\xA9 has 5 byte(s); the converter needs 8") {
		t.Errorf("a converter that does not fit: exit %d, stderr %q", code, stderr)
	}

	// -json: one document per command.
	code, stdout, stderr = runShell(t, srv, "get 't1', 'r1'; list", "-json")
	dec := json.NewDecoder(strings.NewReader(stdout))
	var docs []map[string]any
	for dec.More() {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("-json: %v in %s", err, stdout)
		}
		docs = append(docs, d)
	}
	if code != 0 || len(docs) != 2 || docs[0]["command"] != "get 't1', 'r1'" || docs[1]["command"] != "list" {
		t.Fatalf("-json: exit %d, stderr %q, %d documents: %s", code, stderr, len(docs), stdout)
	}
	if cells := docs[0]["result"].(map[string]any)["cells"].([]any); len(cells) != 1 || cells[0].(map[string]any)["value"] != "v1" {
		t.Errorf("-json get: %v", docs[0])
	}

	// A command that fails on the cluster stops the runbook: exit 2 (what it named does not
	// exist), one line naming the line and the command, in the shell's terms.
	code, stdout, stderr = runShell(t, srv, "put 't1', 'r9', 'f:q', 'v'\nget 'nosuch', 'r'\nput 't1', 'r10', 'f:q', 'v'")
	if code != 2 || !strings.Contains(stderr, "line 2: get 'nosuch', 'r': Table nosuch does not exist") || strings.Count(stderr, "\n") != 1 || strings.Contains(stdout, "r10") {
		t.Errorf("a failing command: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if strings.Contains(stderr, "org.apache") || strings.Contains(stderr, "Exception") {
		t.Errorf("a Java class name in %q", stderr)
	}
	if _, ok, _ := srv.Get("t1", "r10", "f", "q"); ok {
		t.Error("the command after the failing one ran")
	}
}

// TestShellBadInputOnFake runs bad runbooks against fakehbase: exit 2, and its call log shows
// that nothing reached the server, not even the lookup of hbase:meta.
func TestShellBadInputOnFake(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t1", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	before := len(srv.CallLog())
	for _, src := range []string{
		"put 't1', 'r1', 'f:q', 'v'\nget 't1', 'r1\n",
		"put 't1', 'r1', 'f:q', 'v'\nscan 't1', {FILTER => \"PrefixFilter('a') AND Nope()\"}",
		"put 't1', 'r1', 'f:q', 'v'\nscan 't1', {LIMIT => TEN}",
		"put 't1', 'r1', 'f:q', 'v'\nputs 'hello'.reverse",
		"put 't1', 'r1', 'f:q', \"\\xG0\"",
	} {
		code, stdout, stderr := runShell(t, srv, src)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", src, code, stdout, stderr)
		}
	}
	if log := srv.CallLog(); len(log) != before {
		t.Fatalf("the server received %d call(s) for bad input: %+v", len(log)-before, log[before:])
	}
	if _, ok, _ := srv.Get("t1", "r1", "f", "q"); ok {
		t.Fatal("a put of a bad runbook ran")
	}
}
