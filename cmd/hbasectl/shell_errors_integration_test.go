package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestShellErrorsAgainstTheCluster runs runbooks that fail on the real cluster: one line on
// stderr in the shell's terms (the line, the command, what is wrong; no Java class name), the
// exit status (2 when what the command named is not there or already is, 1 when the server
// refuses the request itself), and the commands before the failing one done, those after it
// not.
func TestShellErrorsAgainstTheCluster(t *testing.T) {
	table := newTable(t, []string{"f"})
	zk := env("HBASE_ZK", shared.Cluster(t).ZKQuorum)
	for _, tc := range []struct {
		src  string
		code int
		want string
	}{
		{"put '" + table + "', 'e1', 'f:q', 'v'\nget 'sh_err_none', 'r'\nput '" + table + "', 'e2', 'f:q', 'v'", 2,
			`^hbasectl: line 2: get 'sh_err_none', 'r': Table sh_err_none does not exist$`},
		{"put '" + table + "', 'r', 'nofam:q', 'v'", 2, `^hbasectl: line 1: put '` + table + `', 'r', 'nofam:q', 'v': Unknown column family`},
		{"create '" + table + "', 'f'", 2, `^hbasectl: line 1: create '` + table + `', 'f': Table ` + table + ` already exists$`},
		{"drop '" + table + "'", 2, `^hbasectl: line 1: drop '` + table + `': Table ` + table + ` is enabled: disable it first$`},
		{"describe_namespace 'sh_err_nons'", 2, `^hbasectl: line 1: describe_namespace 'sh_err_nons': Unknown namespace sh_err_nons$`},
		{"delete_snapshot 'sh_err_nosnap'", 2, `^hbasectl: line 1: delete_snapshot 'sh_err_nosnap': Snapshot sh_err_nosnap does not exist$`},
		{"list_rsgroups", 1, `^hbasectl: line 1: list_rsgroups: not supported: RSGroups are off in this cluster \(HBase 2.x: put the hbase-rsgroup jar`},
		{"remove_peer 'sh_err_nopeer'", 2, `^hbasectl: line 1: remove_peer 'sh_err_nopeer': Replication peer sh_err_nopeer does not exist$`},
		{"add_peer 'sh_err_badkey', CLUSTER_KEY => 'not-a-cluster-key'", 1, `^hbasectl: line 1: add_peer 'sh_err_badkey', CLUSTER_KEY => 'not-a-cluster-key': .*Invalid cluster key`},
		{"put '" + table + "', 'n', 'f:s', 'abc'\nincr '" + table + "', 'n', 'f:s', 1", 1, `^hbasectl: line 2: incr '` + table + `', 'n', 'f:s', 1: .*not a long`},
	} {
		code, _, stderr := runArgs(t, zk, "-e", tc.src)
		line := strings.TrimSuffix(stderr, "\n")
		if code != tc.code || line == stderr || strings.Contains(line, "\n") || !regexp.MustCompile(tc.want).MatchString(line) || strings.Contains(line, "Exception") {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and one line matching %q, without a Java class", tc.src, code, stderr, tc.code, tc.want)
		}
	}
	// The first runbook's put before the failing get ran; the one after it did not.
	code, stdout, stderr := runArgs(t, zk, "-json", "-e", "get '"+table+"', 'e1'; get '"+table+"', 'e2'")
	if code != 0 || strings.Count(stdout, `"value": "v"`) != 1 {
		t.Errorf("get e1, e2 after the failed runbook: exit %d, stderr %q; want e1 only:\n%s", code, stderr, stdout)
	}
}
