package main

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestParseConfigDefaults(t *testing.T) {
	c, err := parseConfig(nil, env("HBASE_ZK", "127.0.0.1:2181", "HBASE_ZNODE", "/hb"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.ZKQuorum != "127.0.0.1:2181" || c.ZNodeParent != "/hb" {
		t.Errorf("quorum %q znode %q, want them from the environment", c.ZKQuorum, c.ZNodeParent)
	}
	if c.KeySize != 26 || c.ValueSize != 100 || c.Concurrency != 16 || c.Duration != 10*time.Second || c.Rounds != 1 {
		t.Errorf("defaults: key %d value %d concurrency %d duration %v rounds %d", c.KeySize, c.ValueSize, c.Concurrency, c.Duration, c.Rounds)
	}
	if c.Load {
		t.Error("-load auto without -local must not write the table")
	}
	if c.Seed == 0 {
		t.Error("seed 0 was not replaced by a clock seed")
	}
}

func TestParseConfigLocal(t *testing.T) {
	c, err := parseConfig([]string{"-local", "-workload", "randwrite,randread,seqwrite,scan", "-ops", "300"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Load {
		t.Error("-local with randread: the table must be loaded first")
	}
	if c.Duration != 0 || c.Ops != 300 {
		t.Errorf("-ops without -duration: duration %v ops %d, want 0 and 300", c.Duration, c.Ops)
	}
	if len(c.Workloads) != 4 || c.Workloads[3] != seqScan {
		t.Errorf("workloads %v", c.Workloads)
	}
	c, err = parseConfig([]string{"-local", "-workload", "randwrite,seqwrite"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Load {
		t.Error("write-only workloads need no load")
	}
}

func TestParseConfigCompareSecurity(t *testing.T) {
	c, err := parseConfig([]string{"-local", "-compare-security", "-duration", "9s"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rounds != 20 || !c.Load || len(c.Workloads) != 2 || c.Warmup != defaultCompareWarmup {
		t.Errorf("rounds %d load %v workloads %v warm-up %v; want 20, true, [randread randwrite], %v", c.Rounds, c.Load, c.Workloads, c.Warmup, defaultCompareWarmup)
	}
	modes := modesFor(c)
	if len(modes) != 4 {
		t.Fatalf("%d modes, want 4", len(modes))
	}
	want := []struct {
		name, prot string
		aes, tls   bool
	}{{modeNone, "authentication", false, false}, {modeGSS, "privacy", false, false}, {modeAES, "privacy", true, false}, {modeTLS, "authentication", false, true}}
	for i, w := range want {
		m := modes[i]
		if m.Name != w.name || !m.Security.Kerberos || m.Security.Protection != w.prot || m.Security.AES != w.aes || m.Security.TLS != w.tls {
			t.Errorf("mode %d = %+v, want %s with kerberos, %s, aes=%v, tls=%v", i, m, w.name, w.prot, w.aes, w.tls)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	zk := env("HBASE_ZK", "127.0.0.1:2181")
	for _, tc := range []struct {
		args []string
		env  func(string) string
		want string
	}{
		{nil, env(), "no cluster: give -zk"},
		{[]string{"-zk", "nocolon"}, env(), `"nocolon" is not host:port`},
		{[]string{"-workload", "randread,bogus"}, zk, `unknown workload "bogus"`},
		{[]string{"-workload", ""}, zk, `unknown workload ""`},
		{[]string{"-rows", "0"}, zk, "-rows"},
		{[]string{"-rows", "1000", "-key-size", "2"}, zk, "need keys of 3 .. 1024 bytes, got 2"},
		{[]string{"-value-size", "-1"}, zk, "-value-size"},
		{[]string{"-concurrency", "0"}, zk, "-concurrency"},
		{[]string{"-duration", "0"}, zk, "must be bounded"},
		{[]string{"-ops", "-5"}, zk, "-ops"},
		{[]string{"-op-timeout", "0s"}, zk, "-op-timeout"},
		{[]string{"-op-timeout", "2m"}, zk, "-op-timeout"},
		{[]string{"-table", "a b"}, zk, "-table"},
		{[]string{"-protection", "secret"}, zk, "-protection: want one of"},
		{[]string{"-protection", "integrity"}, zk, "-protection needs -kerberos"},
		{[]string{"-zk", "127.0.0.1:1", "-bootstrap", "127.0.0.1:2"}, zk, "-zk and -bootstrap do not go together"},
		{[]string{"-bootstrap", "nohostport"}, env(), "-bootstrap: \"nohostport\" is not host:port"},
		{[]string{"-tls-ca", "/ca.pem"}, zk, "need -tls"},
		{[]string{"-local", "-bootstrap", "127.0.0.1:1"}, env(), "do not go with -local"},
		{[]string{"-local", "-tls"}, env(), "do not go with -local"},
		{[]string{"-kerberos"}, zk, "-kerberos needs -principal"},
		{[]string{"-regions", "4"}, zk, "needs -local or -create"},
		{[]string{"-create", "-regions", "0"}, zk, "-regions"},
		{[]string{"-local", "-create"}, env(), "-create does not go with -local"},
		{[]string{"-compare-security"}, zk, "-compare-security needs -local"},
		{[]string{"-local", "-zk", "127.0.0.1:1"}, env(), "do not go with -local"},
		{[]string{"-local", "-regions", "0"}, env(), "-regions"},
		{[]string{"-local", "-rows", "5", "-regions", "6", "-key-size", "3"}, env(), "-regions"},
		{[]string{"-local", "-regionservers", "0"}, env(), "-regionservers"},
		{[]string{"-local", "-keytab", "/x"}, env(), "do not go with -local"},
		{[]string{"-local", "-compare-security", "-workload", "scan"}, env(), "may hold randomRead and randomWrite"},
		{[]string{"-local", "-compare-security", "-aes=false"}, env(), "sets -kerberos, -protection and -aes itself"},
		{[]string{"-local", "-ops", "2", "-rounds", "3"}, env(), "cannot be split into 3 rounds"},
		{[]string{"-load", "maybe"}, zk, "-load"},
		{[]string{"-write-buffer", "1MiB"}, zk, "-write-buffer goes with -buffered"},
		{[]string{"-buffered", "-write-buffer", "lots"}, zk, "-write-buffer: want a positive size"},
		{[]string{"-buffered", "-workload", "randomRead"}, zk, "no workload writes through a buffer"},
		{[]string{"-buffered", "-rate", "100"}, zk, "does not go with -rate"},
		{[]string{"-nosuchflag"}, zk, "flag provided but not defined"},
		{[]string{"stray"}, zk, `unexpected argument "stray"`},
	} {
		_, err := parseConfig(tc.args, tc.env, io.Discard)
		if err == nil {
			t.Errorf("%q: no error, want one containing %q", tc.args, tc.want)
			continue
		}
		if !errors.Is(err, errUsage) {
			t.Errorf("%q: error %v is not a usage error", tc.args, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q does not contain %q", tc.args, err, tc.want)
		}
	}
}

func TestRunUsageExitCode(t *testing.T) {
	var stderr strings.Builder
	code := run(t.Context(), []string{"-workload", "nope"}, env("HBASE_ZK", "127.0.0.1:2181"), io.Discard, &stderr)
	if code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), `unknown workload "nope"`) {
		t.Errorf("stderr %q does not name the bad workload", stderr.String())
	}
	if code := run(t.Context(), []string{"-h"}, env(), io.Discard, io.Discard); code != 0 {
		t.Errorf("-h: exit code %d, want 0", code)
	}
}
