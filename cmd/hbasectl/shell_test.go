package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

func TestParseShellSyntax(t *testing.T) {
	for _, tc := range []struct {
		src  string
		verb string
		want string // the arguments, described
	}{
		{`get 't1', 'r1'`, "get", "'t1' 'r1'"},
		{`get('t1', "r\x001")`, "get", `'t1' 'r\x001'`},
		{`put 't', "\xff\x0", 'f:q', 'a\x00'`, "put", `'t' '\xFF\x00' 'f:q' 'a\x5Cx00'`},
		{`put 't', "\101\n\e\s", 'f:q', "it's \"q\" \\ \u00e9"`, "put", `'t' 'A\x0A\x1B ' 'f:q' 'it's "q" \x5C \xC3\xA9'`},
		{`put 't', 'it\'s', 'f:q', 'a\\b'`, "put", `'t' 'it's' 'f:q' 'a\x5Cb'`},
		{"create 't', {NAME => 'f', VERSIONS => 5, TTL => 1_000}, SPLITS => ['a', 'm']", "create", "'t' {NAME=>'f' VERSIONS=>5 TTL=>1000} {SPLITS=>['a' 'm']}"},
		{"create 't',\n  {NAME => 'f',\n   IN_MEMORY => true},\n  {'SPLITS' => [\n 'a']}", "create", "'t' {NAME=>'f' IN_MEMORY=>true} {SPLITS=>['a']}"},
		{"scan 't', {LIMIT => 10, REVERSED => false, COLUMNS => []} # comment", "scan", "'t' {LIMIT=>10 REVERSED=>false COLUMNS=>[]}"},
		{"incr 't', 'r', 'f:q', -3", "incr", "'t' 'r' 'f:q' -3"},
		{"get 't', 'r', {TIMERANGE => [0x10, 2.5e3]}", "get", "'t' 'r' {TIMERANGE=>[16 2500]}"},
		{"list", "list", ""},
		{"alter 't', :delete => 'f'", "alter", "'t' {delete=>'f'}"},
		{"deleteall 't', 'r', nil, 5", "deleteall", "'t' 'r' nil 5"},
	} {
		sts, err := parseScript(tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if len(sts) != 1 || sts[0].verb != tc.verb {
			t.Errorf("%q: got %d statements, verb %q; want one %s", tc.src, len(sts), sts[0].verb, tc.verb)
			continue
		}
		var parts []string
		for _, a := range sts[0].args {
			parts = append(parts, dumpValue(a))
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("%q: arguments %s; want %s", tc.src, got, tc.want)
		}
	}
	sts, err := parseScript("list; exists 't'\n\n  # only a comment\nput 't', 'r', 'f:q', 'v'")
	if err != nil || len(sts) != 3 || sts[2].line != 4 || sts[1].text != "exists 't'" {
		t.Fatalf("three commands: %+v, %v", sts, err)
	}
}

func dumpValue(v value) string {
	switch v.kind {
	case vArray:
		var p []string
		for _, e := range v.arr {
			p = append(p, dumpValue(e))
		}
		return "[" + strings.Join(p, " ") + "]"
	case vHash:
		var p []string
		for _, e := range v.hash {
			p = append(p, e.key+"=>"+dumpValue(e.val))
		}
		return "{" + strings.Join(p, " ") + "}"
	case vFloat:
		return v.describe()
	}
	return v.describe()
}

func TestParseShellRefusals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`get 't', 'r`, "unterminated string"},
		{`get 't', "r`, "unterminated string"},
		{`get 't', 'r', {FOO => 1}`, "unknown constant FOO"},
		{`x = get 't', 'r'`, `"x = get 't', 'r'" is a Ruby expression`},
		{`t.scan`, "is a Ruby expression"},
		{`get 't', "r#{1}"`, "Ruby interpolation"},
		{`get 't', "\xZZ"`, `bad escape`},
		{`get 't', "\q"`, `unknown escape \q`},
		{`get 't', 'r', COLUMN => 'f'.upcase`, ".upcase"},
		{`scan 't', {FILTER => org.apache.hadoop.hbase.filter.KeyOnlyFilter.new}`, "is a Ruby expression"},
		{`put 't', 'r', 'f:q', 1.day`, "Ruby expression"},
		{`get 't' 'r'`, "unexpected"},
		{`get 't', {NAME => 'a', NAME => 'b'}`, "given twice"},
		{`scan 't', [1, 2`, "want ] or ,"},
		{`get 't', 1 + 2`, "Ruby operators"},
	} {
		_, err := parseScript(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want one containing %q", tc.src, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error over several lines: %q", tc.src, err)
		}
	}
}

func TestFilterLanguage(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want hrpc.Filter
	}{
		{"PrefixFilter('a')", hrpc.PrefixFilter{Prefix: []byte("a")}},
		{"KeyOnlyFilter()", hrpc.KeyOnlyFilter{}},
		{"KeyOnlyFilter(true)", hrpc.KeyOnlyFilter{LenAsValue: true}},
		{"ValueFilter(=, 'binary:it''s')", hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: []byte("it's")}}},
		{"RowFilter(>=, 'binaryprefix:b')", hrpc.RowFilter{Op: hrpc.GreaterOrEqual, Comparator: hrpc.BinaryPrefixComparator{Value: []byte("b")}}},
		{"QualifierFilter(!=, 'regexstring:^q.*')", hrpc.QualifierFilter{Op: hrpc.NotEqual, Comparator: hrpc.RegexStringComparator{Pattern: "^q.*"}}},
		{"FamilyFilter(=, 'substring:f')", hrpc.FamilyFilter{Op: hrpc.Equal, Comparator: hrpc.SubstringComparator{Substr: "f"}}},
		{"ColumnPaginationFilter(2, 1)", hrpc.ColumnPaginationFilter{Limit: 2, Offset: 1}},
		{"TimestampsFilter(5, 6)", hrpc.TimestampsFilter{Timestamps: []int64{5, 6}}},
		{"ColumnRangeFilter('a', true, '', false)", hrpc.ColumnRangeFilter{Min: []byte("a"), MinInclusive: true}},
		{"SingleColumnValueFilter('f', 'q', <, 'binary:5', true, false)", hrpc.SingleColumnValueFilter{Family: []byte("f"), Qualifier: []byte("q"), Op: hrpc.Less, Comparator: hrpc.BinaryComparator{Value: []byte("5")}, FilterIfMissing: true, AllVersions: true}},
		{"PrefixFilter('a') AND ValueFilter(=, 'binary:x')", hrpc.NewFilterList(hrpc.MustPassAll, hrpc.PrefixFilter{Prefix: []byte("a")}, hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: []byte("x")}})},
		{"PrefixFilter('a') OR PrefixFilter('b') AND FirstKeyOnlyFilter()", hrpc.NewFilterList(hrpc.MustPassOne, hrpc.PrefixFilter{Prefix: []byte("a")}, hrpc.NewFilterList(hrpc.MustPassAll, hrpc.PrefixFilter{Prefix: []byte("b")}, hrpc.FirstKeyOnlyFilter{}))},
		{"SKIP ValueFilter(!=, 'binary:0')", hrpc.SkipFilter{Filter: hrpc.ValueFilter{Op: hrpc.NotEqual, Comparator: hrpc.BinaryComparator{Value: []byte("0")}}}},
		{"WHILE (RowFilter(<, 'binary:m'))", hrpc.WhileMatchFilter{Filter: hrpc.RowFilter{Op: hrpc.Less, Comparator: hrpc.BinaryComparator{Value: []byte("m")}}}},
	} {
		got, err := parseFilterString(tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if gs, ws := dumpFilter(got), dumpFilter(tc.want); gs != ws {
			t.Errorf("%q: got %s; want %s", tc.src, gs, ws)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"PrefixFilter('a'", "unbalanced parenthesis"},
		{"PrefixFilter('a) AND", "unterminated quoted argument"},
		{"Bogus('a')", "unknown filter"},
		{"ValueFilter(=, 'nope:a')", `unknown comparator "nope"`},
		{"ValueFilter(<, 'substring:a')", "goes only with = or !="},
		{"ValueFilter(=~, 'binary:a')", `unexpected "~"`},
		{"ValueFilter(a, 'binary:a')", "compare operator"},
		{"PageFilter('x')", "want a number"},
		{"PrefixFilter('a') XOR PrefixFilter('b')", `unexpected "XOR"`},
		{"", "empty filter string"},
		{"PrefixFilter", "needs its arguments in parentheses"},
		{"ColumnPaginationFilter(1)", "want 2 arguments, got 1"},
	} {
		_, err := parseFilterString(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want one containing %q", tc.src, err, tc.want)
		}
	}
}

// dumpFilter prints a filter with its types, nested lists included.
func dumpFilter(f hrpc.Filter) string {
	switch x := f.(type) {
	case *hrpc.FilterList:
		var p []string
		for _, g := range x.Filters {
			p = append(p, dumpFilter(g))
		}
		return "List" + string(rune('0'+x.Operator)) + "(" + strings.Join(p, ", ") + ")"
	case hrpc.SkipFilter:
		return "Skip(" + dumpFilter(x.Filter) + ")"
	case hrpc.WhileMatchFilter:
		return "While(" + dumpFilter(x.Filter) + ")"
	}
	return strings.ReplaceAll(strings.TrimSpace(sprintT(f)), "\n", "")
}

// countingListener stands where the cluster would be and counts the connections made to it.
func countingListener(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			conn.Close()
		}
	}()
	return ln.Addr().String(), &n
}

// TestShellBadInputSendsNothing runs runbooks with bad input against a listener standing for
// ZooKeeper: each is one line on stderr and exit status 2, and no connection was made. A good
// runbook against the same listener does connect, so the count can tell.
func TestShellBadInputSendsNothing(t *testing.T) {
	addr, conns := countingListener(t)
	for _, tc := range []struct{ src, want string }{
		{"put 't', 'r', 'f:q', 'v'\nget 't', 'r", "line 2: unterminated string"},
		{"list\ncreate 't', {NAME => 'f', COLOUR => 'red'}", "line 2: unknown constant COLOUR"},
		{"put 't', 'r', 'f:q', 'v'\nt = get_table 't'", "line 2: \"t = get_table 't'\" is a Ruby expression"},
		{"put 't', \"\\x\", 'f:q', 'v'", "line 1: bad escape"},
		{"scan 't', {FILTER => \"ValueFilter(=, 'binary:a') AND Frob()\"}", "line 1: scan: filter Frob: unknown filter"},
		{"scan 't', {FILTER => \"ValueFilter(=, 'binary:a'\"}", "unbalanced parenthesis"},
		{"create 't', {NAME => 'f', COMPRESSION => 'ZIP'}", "COMPRESSION: want one of NONE, GZ"},
		{"get 't', 'r', {VERSIONS => 0}", "VERSIONS: want 1 or more"},
		{"scan 't', {RAW => true, VERSIONS => 3}", "RAW is not taken yet: the client library has no call for raw reads"},
		{"put 't', 'r', 'f:q', 'v'\nlist_snapshot_sizes", "line 2: list_snapshot_sizes: a command of the HBase shell that hbasectl does not take: waiting for the library call"},
		{"list_security_capabilities 'x'", "want list_security_capabilities"},
		{"frobnicate 't'", "frobnicate: unknown command"},
		{"scan 't', {METRICS => []}", "METRICS: empty list"},
		{"scan 't', {ALL_METRICS => 'yes'}", "ALL_METRICS"},
		{"list\nlist_procedures 1", "line 2: list_procedures: takes no arguments"},
		{"list_locks 'x'", "list_locks: takes no arguments"},
		{"abort_procedure", "want abort_procedure proc_id"},
		{"status 'replication'", "'replication' is not taken yet"},
		{"status 'verbose'", "format: want 'summary', 'simple' or 'detailed'"},
		{"abort_procedure '12'", "proc_id: want an integer"},
		{"abort_procedure 0", "proc_id: want a procedure id (1 or more)"},
		{"abort_procedure 12, 'maybe'", "may_interrupt_if_running: want true or false"},
		{"abort_procedure 12, true, 3", "want abort_procedure proc_id"},
		{"snapshot 't', 's', {SKIP_FLUSH => 'yes'}", "SKIP_FLUSH: want true or false"},
		{"snapshot 't', 's', {TTL => '1d'}", "TTL: want an integer"},
		{"snapshot 't', 's', {TTL => -5}", "TTL: want seconds"},
		{"snapshot 't', 's', {MAX_FILESIZE => 1}", "snapshot does not take MAX_FILESIZE"},
		{"alter 't', METHOD => 'table_att', COLOUR => 'x'", "unknown constant COLOUR"},
		{"alter 't', {NAME => 'f', METHOD => 'remove'}", "METHOD: want 'delete'"},
		{"incr 't', 'r', 'f:q', 'one'", "amount: want an integer"},
		{"deleteall 't', {ROWPREFIXFILTER => 1}", "ROWPREFIXFILTER: want a quoted string"},
		{"get 't', 'r', 'f:q:toBogus'", "converter 'toBogus': want one of"},
		{"scan 't', {FORMATTER_CLASS => 'com.example.Mine'}", "FORMATTER_CLASS: only"},
		{"merge_region 'a', 'b'", "is not a region name"},
		{"compact_rs 'h1'", "want 'host,port' or 'host,port,startcode'"},
		{"compact_rs 'h1,16020', 'yes'", "major: want true or false"},
		{"wal_roll 'h1,port,1'", "port and start code are numbers"},
		{"update_config", "want update_config 'host,port,startcode'"},
		{"update_all_config 'h1,16020'", "takes no arguments"},
		{"compaction_switch 'on'", "switch: want true or false"},
		{"compaction_switch false, []", "servers: empty list"},
		{"decommission_regionservers [], true", "servers: empty list"},
		{"recommission_regionserver 'h1,16020,1', 'r'", "regions: want an array"},
		{"recommission_regionserver 'h1,16020,1', ['r']", "is not a region name"},
		{"list_decommissioned_regionservers 'x'", "takes no arguments"},
		{"truncate_region 't'", "is not a region name"},
		{"regioninfo", "want regioninfo 'region name'"},
		{"clear_block_cache 't', 'f'", "want clear_block_cache 'table'"},
		{"compaction_state 't', 'f'", "want compaction_state 'table'"},
		{"compact 't', 'f', 'MOB'", "MOB) is not taken yet"},
		{"flush 't', ''", "family: empty"},
		{"major_compact 't', 1", "family: want a quoted string"},
		{"clear_deadservers 'h1,16020,1'", "waiting for the library call: clearing dead servers"},
		{"set_quota TYPE => THROTTLE, USER => 'u', LIMIT => '10req/week'", "want a count and a unit per time unit"},
		{"set_quota TYPE => THROTTLE, USER => 'u', LIMIT => '0req/sec'", "greater than 0"},
		{"set_quota TYPE => THROTTLE, THROTTLE_TYPE => BOTH, USER => 'u', LIMIT => '1req/sec'", "unknown constant BOTH"},
		{"set_quota TYPE => THROTTLE, THROTTLE_TYPE => READ_NUMBER, USER => 'u', LIMIT => '1req/sec'", "want REQUEST, READ or WRITE"},
		{"set_quota TYPE => THROTTLE, THROTTLE_TYPE => READ, TABLE => 't', LIMIT => NONE", "with LIMIT => NONE want one of REQUEST_NUMBER"},
		{"set_quota TYPE => THROTTLE, LIMIT => '1req/sec'", "one of USER, TABLE, NAMESPACE or REGIONSERVER"},
		{"set_quota TYPE => THROTTLE, TABLE => 't', NAMESPACE => 'n', LIMIT => '1req/sec'", "unexpected arguments: NAMESPACE"},
		{"set_quota TYPE => THROTTLE, REGIONSERVER => 'h1', LIMIT => '1req/sec'", "REGIONSERVER: want 'all'"},
		{"set_quota TYPE => THROTTLE, REGIONSERVER => 'all', LIMIT => '1req/sec', SCOPE => CLUSTER", "per machine"},
		{"set_quota TYPE => THROTTLE, TABLE => 't', LIMIT => '1req/sec', SCOPE => 'GLOBAL'", "SCOPE: want MACHINE or CLUSTER"},
		{"set_quota TYPE => THROTTLE, TABLE => 't'", "LIMIT: missing"},
		{"set_quota TYPE => SPACE, TABLE => 't', LIMIT => '1G'", "POLICY: missing"},
		{"set_quota TYPE => SPACE, TABLE => 't', LIMIT => '1G', POLICY => 'FREEZE'", "POLICY: want NO_INSERTS"},
		{"set_quota TYPE => SPACE, TABLE => 't', LIMIT => '1G%', POLICY => DISABLE", "want a size greater than 0"},
		{"set_quota TYPE => SPACE, TABLE => 't', NAMESPACE => 'n', LIMIT => NONE", "one of TABLE or NAMESPACE"},
		{"set_quota TYPE => SPACE, USER => 'u', TABLE => 't', LIMIT => '1G', POLICY => DISABLE", "unexpected arguments: USER"},
		{"set_quota TYPE => 'CPU', TABLE => 't', LIMIT => '1G'", "TYPE: want THROTTLE or SPACE"},
		{"set_quota USER => 'u', GLOBAL_BYPASS => 'maybe'", "GLOBAL_BYPASS: want true or false"},
		{"set_quota GLOBAL_BYPASS => true", "USER missing"},
		{"set_quota TABLE => 't'", "TYPE: missing"},
		{"set_quota 't'", "want set_quota KEY => value"},
		{"list_quotas REGIONSERVER => 'all'", "unexpected arguments: REGIONSERVER"},
		{"list_quotas LIMIT => 'ten'", "LIMIT: want an integer"},
		{"list_quota_snapshots({TABLE => 't', STATE => 'x'})", "unexpected arguments: STATE"},
		{"list_quota_table_sizes 't'", "takes no arguments"},
		{"enable_rpc_throttle true", "takes no arguments"},
		{"get_slowlog_responses", "want get_slowlog_responses '*'"},
		{"get_slowlog_responses '*', {'LIMIT' => 0}", "LIMIT: want 1 or more"},
		{"get_largelog_responses '*', {'FILTER_BY_OP' => 'XOR'}", "FILTER_BY_OP: want 'AND' or 'OR'"},
		{"get_slowlog_responses '*', {'TABLE' => 't'}", "unknown filter TABLE"},
		{"get_slowlog_responses [], {}", "servers: empty list"},
		{"clear_slowlog_responses 1", "servers: want a quoted string"},
		{"get_balancer_decisions {'LIMIT' => -1}", "LIMIT: want 1 or more"},
		{"get_balancer_rejections {'MAX' => 1}", "unknown option MAX"},
		{"list_snapshot_sizes", "waiting for the library call"},
		{"grant 'bob', 'RWZ', 't'", "grant: permissions 'RWZ': unknown action 'Z'"},
		{"grant 'bob', '', 't'", "grant: permissions: no action"},
		{"grant 'bob', 'R', '@ns', 'f'", "a namespace (@ns) takes no family"},
		{"grant 'bob', 'R', 't', 'f', 'q', 'x'", "want grant 'user', 'RWXCA'"},
		{"grant 't', {'bob' => 'R'}", "want grant 'table', {'user' => 'RW', ...}"},
		{"grant 't', {'bob' => 'X'}, {COLUMNS => 'f'}", "a cell's rights are R (read) and W (write)"},
		{"grant 't', {'bob' => 'R'}, {LIMIT => 1}", "grant does not take LIMIT"},
		{"revoke ''", "revoke: user: empty"},
		{"revoke 'bob', '@'", "namespace: empty after '@'"},
		{"user_permission '@[a-'", "namespace regular expression '[a-'"},
		{"add_labels ['ok', 'not ok']", "label 'not ok': a label is letters"},
		{"add_labels []", "want add_labels 'label'"},
		{"set_auths 'bob'", "want set_auths 'user', 'label'"},
		{"clear_auths 'bob', [1]", "label: want a quoted string"},
		{"get_auths 'a', 'b'", "want get_auths 'user'"},
		{"list_labels 'a', 'b'", "want list_labels['regex']"},
		{"set_visibility 't', 'a & (b'", "set_visibility:"},
		{"set_visibility 't', 'a', {LIMIT => 1}", "set_visibility does not take LIMIT"},
		{"set_visibility 't'", "want set_visibility 'table', 'expression'"},
		{"put 't', 'r', 'f:q', 'v', {TTL => 0}", "TTL: want milliseconds, from 1"},
		{"put 't', 'r', 'f:q', 'v', {TTL => '10'}", "TTL: want an integer"},
		{"put 't', 'r', 'f:q', 'v', {ACL => {'bob' => 'RX'}}", "a cell's rights are R (read) and W (write)"},
		{"put 't', 'r', 'f:q', 'v', {ACL => 'bob'}", "ACL: want a hash"},
		{"put 't', 'r', 'f:q', 'v', {VISIBILITY => 'a & (b'}", "put:"},
		{"delete 't', 'r', 'f:q', {TTL => 5}", "delete does not take TTL"},
		{"get 't', 'r', {AUTHORIZATIONS => 1}", "AUTHORIZATIONS: want a quoted string"},
		{"scan 't', {AUTHORIZATIONS => ['a b']}", "AUTHORIZATIONS: label 'a b'"},
		{"list\nadd_rsgroup 'my-group'", "line 2: add_rsgroup: group 'my-group': a group's name is letters, digits and '_'"},
		{"move_servers_rsgroup 'g', ['host']", "server 'host': want 'host:port'"},
		{"move_servers_rsgroup 'g', ['host:99999']", "server 'host:99999': want 'host:port'"},
		{"move_tables_rsgroup 'g', []", "tables: empty list"},
		{"move_namespaces_rsgroup 'g'", "want move_namespaces_rsgroup 'dest', ['ns', ...]"},
		{"balance_rsgroup 'g', 'dry_run'", "'ignore_rit' and 'dry_run' are not taken yet"},
		{"alter_rsgroup_config 'g', {METHOD => 'drop'}", "METHOD: want 'set' or 'unset', got 'drop'"},
		{"alter_rsgroup_config 'g'", "want alter_rsgroup_config 'group', {METHOD => 'set'"},
		{"remove_servers_rsgroup ['h:1'], 'h'", "server 'h': want 'host:port'"},
		{"rename_rsgroup 'a'", "want rename_rsgroup 'old_name', 'new_name'"},
		{"get_server_rsgroup 'h,1,2'", "server 'h,1,2': want 'host:port'"},
		{"move_servers_tables_rsgroup 'g', ['h:1']", "want move_servers_tables_rsgroup 'dest', ['host:port', ...], ['table', ...]"},
		{"move_servers_namespaces_rsgroup 'g', ['h'], ['ns']", "server 'h': want 'host:port'"},
		{"add_peer '1', 'zk:2181:/hbase'", "want add_peer 'id', CLUSTER_KEY"},
		{"add_peer '1', STATE => 'DISABLED'", "either ENDPOINT_CLASSNAME or CLUSTER_KEY must be given"},
		{"add_peer '1', CLUSTER_KEY => 'zk:2181:/h', STATE => 'OFF'", "STATE: want 'ENABLED' or 'DISABLED'"},
		{"add_peer '1', CLUSTER_KEY => 'zk:2181:/h', REMOTE_WAL_DIR => '/w'", "REMOTE_WAL_DIR is not taken"},
		{"add_peer '1', CLUSTER_KEY => 'zk:2181:/h', BANDWIDTH => 5", "add_peer does not take BANDWIDTH"},
		{"add_peer 'a-b', CLUSTER_KEY => 'zk:2181:/h'", "peer id 'a-b': want a non-empty name"},
		{"remove_peer ''", "peer id '': want a non-empty name"},
		{"enable_peer 1", "peer id: want a quoted string"},
		{"set_peer_tableCFs '1', ['t']", "table CFs: want a hash"},
		{"set_peer_tableCFs '1', {'a:b:c' => []}", "'a:b:c' is not a table name"},
		{"append_peer_tableCFs '1', {'t' => ['']}", "an empty family name"},
		{"remove_peer_tableCFs '1', {}", "table CFs: empty"},
		{"append_peer_namespaces '1', []", "namespaces: empty"},
		{"set_peer_namespaces '1', [1]", "namespace: want a quoted string"},
		{"set_peer_replicate_all '1', 'yes'", "replicate all: want true or false"},
		{"set_peer_serial '1'", "want set_peer_serial 'id', true"},
		{"set_peer_bandwidth '1', -1", "bandwidth: want 0 or more"},
		{"update_peer_config '1', STATE => 'ENABLED'", "update_peer_config does not take STATE"},
		{"list_peers 'x'", "takes no arguments"},
		{"list_replicated_tables '('", "regex"},
		{"enable_table_replication", "want enable_table_replication 'table'"},
		{"transit_peer_sync_replication_state '1', 'ACTIVE'", "waiting for the library call: synchronous replication"},
		{"splitormerge_switch 'SPLIT'", "want splitormerge_switch 'SPLIT'|'MERGE', true|false"},
		{"splitormerge_switch 'COMPACT', true", "switch type: want 'SPLIT' or 'MERGE', got 'COMPACT'"},
		{"splitormerge_switch 'MERGE', 'maybe'", "switch: want true or false"},
		{"splitormerge_enabled", "want splitormerge_enabled 'SPLIT'|'MERGE'"},
		{"catalogjanitor_switch 1", "switch: want true or false, got 1"},
		{"catalogjanitor_run true", "takes no arguments"},
		{"cleaner_chore_enabled 'x'", "takes no arguments"},
		{"is_in_maintenance_mode true", "takes no arguments"},
		{"normalize 't'", "want normalize or normalize TABLE_NAMES"},
		{"normalize TABLE_NAMES => []", "TABLE_NAMES: empty list"},
		{"normalize TABLE_NAMES => ['']", "TABLE_NAMES: an empty table name"},
		{"normalize REGEX => ''", "REGEX: empty"},
		{"normalize NAMESPACE => 1", "NAMESPACE: want a quoted string"},
		{"normalize TABLE => 't'", "normalize does not take TABLE"},
	} {
		code, stdout, stderr := runArgs(t, env("HBASE_ZK", addr), "-connect-timeout", "2s", "-e", tc.src)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q", tc.src, code, stdout, stderr, tc.want)
		}
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connection(s) to the cluster for bad input; want none", n)
	}
	code, _, stderr := runArgs(t, env("HBASE_ZK", addr), "-connect-timeout", "1s", "-e", "list")
	deadline := time.Now().Add(2 * time.Second)
	for conns.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if conns.Load() == 0 || code != 2 || !strings.Contains(stderr, "cannot reach the cluster") {
		t.Fatalf("list against the listener: exit %d, stderr %q, %d connections; want an attempt", code, stderr, conns.Load())
	}
}

// TestShellCommandTable checks the README's table against the dispatcher: every command
// marked supported is taken, every command taken has a row, and no row is there twice.
func TestShellCommandTable(t *testing.T) {
	table := shellCommandTable()
	if len(table) < 150 {
		t.Fatalf("the README's table has %d rows; want every command of the shell (150 or more)", len(table))
	}
	verbs := shellVerbs()
	seen := map[string]bool{}
	groups := map[string]bool{}
	for _, r := range table {
		if seen[r.name] {
			t.Errorf("%s has two rows", r.name)
		}
		seen[r.name] = true
		groups[r.group] = true
		supported := strings.HasPrefix(r.status, "supported")
		if supported != (verbs[r.name] != nil) {
			t.Errorf("%s: the README says %q, the dispatcher takes it: %v", r.name, r.status, verbs[r.name] != nil)
		}
		notMerged := strings.HasPrefix(r.status, "not written yet: the verb over the library calls of ") && strings.HasSuffix(r.status, "")
		if !supported && !notMerged && !strings.HasPrefix(r.status, "waiting for the library call: ") && !strings.HasPrefix(r.status, "not planned: ") {
			t.Errorf("%s: status %q is neither supported, waiting for the library call, not written yet nor not planned", r.name, r.status)
		}
		if v := verbs[r.name]; v != nil && v.group != r.group && !(r.group == "general" && v.group == "general") {
			t.Errorf("%s: group %q in the README, %q in the dispatcher", r.name, r.group, v.group)
		}
	}
	for name := range verbs {
		if !seen[name] && name != "desc" {
			t.Errorf("the dispatcher takes %s, which has no row in the README's table", name)
		}
	}
	for _, g := range []string{"general", "ddl", "namespace", "dml", "tools", "snapshots", "configuration", "quotas", "security", "visibility labels", "procedures", "replication", "rsgroup"} {
		if !groups[g] {
			t.Errorf("the README's table has no command of group %s", g)
		}
	}
	for _, v := range verbs {
		if !strings.HasPrefix(v.usage, v.name+" ") && v.usage != v.name && !strings.HasPrefix(v.usage, v.name+"\n") {
			t.Errorf("%s: usage %q does not start with the command", v.name, v.usage)
		}
	}
	if !slices.Contains(shellVerbNames(), "help") {
		t.Error("help is not among the names completed")
	}
}

func sprintT(f hrpc.Filter) string { return fmt.Sprintf("%T%+v", f, f) }

// TestUniformSplitKeys holds the keys of HBase's UniformSplit (RegionSplitter), as the Java
// client computed them for 3 and 4 regions.
func TestUniformSplitKeys(t *testing.T) {
	for n, want := range map[int]string{
		3: `UUUUUUUU \xAA\xAA\xAA\xAA\xAA\xAA\xAA\xAA`,
		4: `@\x00\x00\x00\x00\x00\x00\x00 \x80\x00\x00\x00\x00\x00\x00\x00 \xC0\x00\x00\x00\x00\x00\x00\x00`,
	} {
		var got []string
		for _, k := range uniformSplitKeys(n) {
			got = append(got, formatBinary(k))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("uniformSplitKeys(%d) = %s; want %s", n, strings.Join(got, " "), want)
		}
	}
}

// TestCorpusCoversEveryCommand checks that testdata/corpus, which TestShellCorpus runs against
// the real cluster and compares with the Java client, has every command hbasectl takes.
func TestCorpusCoversEveryCommand(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.hb")
	secure, _ := filepath.Glob("testdata/corpus-secure/*.hb")
	files = append(files, secure...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sts, err := parseScript(string(src))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, st := range sts {
			seen[st.verb] = true
		}
	}
	for name := range shellVerbs() {
		if !seen[name] {
			t.Errorf("no command of testdata/corpus runs %s", name)
		}
	}
}
