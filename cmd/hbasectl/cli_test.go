package main

import (
	"flag"
	"io"
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// runArgs runs the program and returns its exit code, stdout and stderr.
func runArgs(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	code := run(t.Context(), args, getenv, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	zk := env("HBASE_ZK", "127.0.0.1:2181")
	for _, tc := range []struct {
		env  func(string) string
		args []string
		want string
	}{
		{zk, nil, "no command given: want one of"},
		{zk, []string{"frob"}, `unknown command "frob"`},
		{zk, []string{"-nosuch", "get"}, "flag provided but not defined: -nosuch"},
		{zk, []string{"get", "t", "-nosuch"}, "get: flag provided but not defined: -nosuch"},
		{zk, []string{"get", "t"}, "get: missing arguments: want get <table> <row>"},
		{zk, []string{"get", "t", "r", "extra"}, `get: unexpected argument "extra"`},
		{env(), []string{"get", "t", "r"}, "no cluster: give -zk"},
		{zk, []string{"-zk", "nohost", "get", "t", "r"}, `-zk: "nohost" is not host:port`},
		{zk, []string{"-kerberos", "get", "t", "r"}, "-kerberos needs -principal and -keytab"},
		{zk, []string{"put", "t", "r", "f:q"}, "put: missing arguments"},
		{zk, []string{"put", "t", "r", "f:q", "v", "f:q2"}, `put: "f:q2" has no value`},
		{zk, []string{"put", "t", "r", "fq", "v"}, `put: want family:qualifier, got "fq"`},
		{zk, []string{"put", "t", `r\x4`, "f:q", "v"}, `row: bad escape`},
		{zk, []string{"put", "-ts", "-1", "t", "r", "f:q", "v"}, "-ts must not be negative"},
		{zk, []string{"scan", "-limit", "-1", "t"}, "scan: -limit must not be negative"},
		{zk, []string{"scan", "-start", `\x4`, "t"}, "-start: bad escape"},
		{zk, []string{"scan", "-column", ":q", "t"}, "want family or family:qualifier"},
		{zk, []string{"get", "-versions", "0", "t", "r"}, "get: "},
		{zk, []string{"count", "-caching", "0", "t"}, "count: -caching must be positive"},
		{zk, []string{"-timeout", "0s", "get", "t", "r"}, "-timeout: must be positive"},
		{zk, []string{"get", "t", "r", "-timeout", "-1s"}, "-timeout: must be positive"},
		{zk, []string{"namespace", "frob"}, `namespace: want create, delete, describe or list, got "frob"`},
		{zk, []string{"namespace", "create"}, "namespace create: want namespace create <name>"},
		{zk, []string{"namespace", "list", "-prop", "a=b"}, "-prop goes with create only"},
		{zk, []string{"namespace", "create", "-prop", "a", "ns"}, "-prop: want key=value"},
		{zk, []string{"namespace", "create", "bad/ns"}, "namespace create: "},
		{zk, []string{"enable"}, "enable: missing arguments"},
		{zk, []string{"compact", "-major", "t", "extra"}, `compact: unexpected argument "extra"`},
		{zk, []string{"flush", "-major", "t"}, "flush: flag provided but not defined: -major"},
	} {
		code, stdout, stderr := runArgs(t, tc.env, tc.args...)
		if code != 2 {
			t.Errorf("%q: exit code %d, want 2 (stderr %q)", tc.args, code, stderr)
			continue
		}
		if stdout != "" {
			t.Errorf("%q: stdout %q, want nothing", tc.args, stdout)
		}
		if !strings.HasPrefix(stderr, "hbasectl: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
			t.Errorf("%q: stderr %q, want one line starting with hbasectl: ", tc.args, stderr)
		}
		if !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: stderr %q does not contain %q", tc.args, stderr, tc.want)
		}
	}
}

// TestUnreachableClusterExitsTwo needs no cluster: nothing listens on port 1.
func TestUnreachableClusterExitsTwo(t *testing.T) {
	for _, args := range [][]string{
		{"-zk", "127.0.0.1:1", "-connect-timeout", "1s", "get", "t", "r"},
		{"-bootstrap", "127.0.0.1:1", "-connect-timeout", "1s", "scan", "t"},
	} {
		code, stdout, stderr := runArgs(t, env(), args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "hbasectl: cannot reach the cluster ("+args[0][1:]+" 127.0.0.1:1) within 1s (-connect-timeout): ") {
			t.Errorf("%q: exit code %d, stdout %q, stderr %q; want 2, nothing, one line naming the cluster", args, code, stdout, stderr)
		}
	}
}

func TestHelpDocumentsEveryCommandAndFlag(t *testing.T) {
	code, stdout, stderr := runArgs(t, env(), "-h")
	if code != 0 || stderr != "" {
		t.Fatalf("-h: exit code %d, stderr %q; want 0 and nothing", code, stderr)
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	(&cli{}).globalFlags(fs, env())
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(stdout, "  -"+f.Name+" ") && !strings.Contains(stdout, "  -"+f.Name+"\t") && !strings.Contains(stdout, "  -"+f.Name+"\n") {
			t.Errorf("-h does not document the global flag -%s", f.Name)
		}
	})
	for _, cmd := range commands() {
		if !strings.Contains(stdout, "  "+cmd.name+" ") || !strings.Contains(stdout, cmd.summary) || !strings.Contains(stdout, "  "+strings.TrimSpace("hbasectl "+cmd.name+" "+cmd.args)+"\n") {
			t.Errorf("-h does not list %s with its arguments and summary", cmd.name)
		}
		cfs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
		cmd.setup(cfs)
		section := stdout[strings.Index(stdout, strings.TrimSpace("hbasectl "+cmd.name+" "+cmd.args)+"\n"):]
		cfs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(section, "-"+f.Name) {
				t.Errorf("-h does not document %s -%s", cmd.name, f.Name)
			}
		})
		for _, args := range [][]string{{"help", cmd.name}, {cmd.name, "-h"}} {
			code, out, _ := runArgs(t, env(), args...)
			if code != 0 || !strings.Contains(out, cmd.summary) || !strings.Contains(out, "hbasectl "+cmd.name) {
				t.Errorf("%q: exit code %d, output %q", args, code, out)
			}
		}
	}
}

func TestParseInterleaved(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		limit     int
		positions string
	}{
		{[]string{"t", "-limit", "5"}, 5, "t"},
		{[]string{"-limit", "5", "t"}, 5, "t"},
		{[]string{"t", "-limit", "5", "u"}, 5, "t u"},
		{[]string{"-limit", "5", "--", "t", "-row"}, 5, "t -row"},
		{[]string{"t", "--", "-limit", "7"}, 1, "t -limit 7"},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		limit := fs.Int("limit", 1, "")
		pos, err := parseInterleaved(fs, tc.args)
		if err != nil || *limit != tc.limit || strings.Join(pos, " ") != tc.positions {
			t.Errorf("%q: limit %d, positional %q, error %v; want %d, %q", tc.args, *limit, pos, err, tc.limit, tc.positions)
		}
	}
}

func TestJSONAndTimeoutBeforeOrAfterTheCommand(t *testing.T) {
	for _, args := range [][]string{
		{"-json", "-timeout", "5s", "count", "t"},
		{"count", "t", "-json", "-timeout", "5s"},
	} {
		c := &cli{stdout: io.Discard, stderr: io.Discard}
		// -connect-timeout 0 stops the run after the flags are parsed, before any connection.
		err := c.main(t.Context(), append([]string{"-zk", "127.0.0.1:1", "-connect-timeout", "0s"}, args...), env())
		if !strings.Contains(errString(err), "-connect-timeout") {
			t.Fatalf("%q: error %v", args, err)
		}
		if !c.json || c.timeout.String() != "5s" {
			t.Errorf("%q: json %v timeout %v; want true and 5s", args, c.json, c.timeout)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
