package main

import (
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestPELayout(t *testing.T) {
	zk := env("HBASE_ZK", "127.0.0.1:2181")
	c, err := parseConfig([]string{"-pe", "-workload", "randomRead"}, zk, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Table != "TestTable" || c.Family != "info0" || c.Qualifier != "0" || c.ValueSize != 1000 || c.Rows != 1048576 || c.KeySize != 26 || c.Caching != 30 {
		t.Errorf("-pe: table %q family %q qualifier %q value %d rows %d key %d caching %d", c.Table, c.Family, c.Qualifier, c.ValueSize, c.Rows, c.KeySize, c.Caching)
	}
	c, err = parseConfig([]string{"-pe", "-table", "Mine", "-rows", "2000", "-create", "-regions", "4"}, zk, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Table != "Mine" || c.Rows != 2000 || c.Family != "info0" {
		t.Errorf("flags given must override -pe: table %q rows %d family %q", c.Table, c.Rows, c.Family)
	}
	splits, err := c.tableSplits()
	if err != nil || len(splits) != 3 || string(splits[0]) != string(appendKey(nil, 500, 26)) {
		t.Errorf("-pe splits %q, %v; want PE's at 500, 1000, 1500", splits, err)
	}
	c, _ = parseConfig([]string{"-local", "-workload", "increment,checkAndMutate"}, env(), io.Discard)
	if c.Load {
		t.Error("increment and checkAndMutate need no load")
	}
	c, _ = parseConfig([]string{"-local", "-workload", "filterScan"}, env(), io.Discard)
	if !c.Load {
		t.Error("-local filterScan: the table must be loaded")
	}
}

func TestParseConfigNewFlagErrors(t *testing.T) {
	zk := env("HBASE_ZK", "127.0.0.1:2181")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-rate", "-1"}, "-rate"},
		{[]string{"-read-ratio", "1.5"}, "-read-ratio"},
		{[]string{"-read-ratio", "NaN"}, "-read-ratio"},
		{[]string{"-caching", "0"}, "-caching"},
		{[]string{"-interval", "0s"}, "-interval"},
		{[]string{"-progress", "-1s"}, "-progress"},
		{[]string{"-plot", "x.pdf"}, "-plot"},
		{[]string{"-workload", "scanRange7"}, `unknown workload "scanRange7"`},
		{[]string{"-rate", "fast"}, "invalid value"},
	} {
		_, err := parseConfig(tc.args, zk, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}

// oneLine checks a run that must fail before measuring: exit 2, nothing on stdout, one line on
// stderr matching want.
func oneLine(t *testing.T, args []string, want string) {
	t.Helper()
	var stdout, stderr strings.Builder
	code := run(t.Context(), args, env(), &stdout, &stderr)
	if code != 2 || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !regexp.MustCompile(want).MatchString(stderr.String()) {
		t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, one line matching %q", args, code, stdout.String(), stderr.String(), want)
	}
}

func TestBadFlagIsOneLine(t *testing.T) {
	oneLine(t, []string{"-nosuchflag"}, `^hbase-bench: usage: flag provided but not defined: -nosuchflag`)
	oneLine(t, []string{"-zk", "127.0.0.1:1", "-rows", "many"}, `invalid value "many" for flag -rows`)
	oneLine(t, []string{"-zk", "127.0.0.1:1", "-workload", "bogus"}, `unknown workload "bogus"`)
}

// TestUnreachableClusterIsOneLine: a quorum on a closed port, a short -op-timeout.
func TestUnreachableClusterIsOneLine(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	oneLine(t, []string{"-zk", addr, "-op-timeout", "1s", "-workload", "randomRead", "-ops", "10"},
		`^hbase-bench: cluster at `+regexp.QuoteMeta(addr)+` did not answer within -op-timeout 1s`)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v to give up", d)
	}
}

// TestHelpDocumentsEveryFlag: -h prints every flag with its description, and every workload.
func TestHelpDocumentsEveryFlag(t *testing.T) {
	var out strings.Builder
	if code := run(t.Context(), []string{"-h"}, env(), io.Discard, &out); code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	help := out.String()
	flags := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(help, -1)
	if len(flags) < 40 {
		t.Fatalf("-h lists %d flags:\n%s", len(flags), help)
	}
	for _, name := range []string{"pe", "rate", "plot", "compare", "interval", "progress", "read-ratio", "caching", "qualifier", "workload", "zk", "local", "json"} {
		if !regexp.MustCompile(`(?m)^  -` + name + `\b.*\n\s+\S`).MatchString(help) {
			t.Errorf("-h does not document -%s", name)
		}
	}
	for _, w := range allWorkloads {
		if !strings.Contains(help, "  "+string(w)+" ") {
			t.Errorf("-h does not describe workload %s", w)
		}
	}
}
