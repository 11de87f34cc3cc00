package main

import (
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
)

// TestQuotaAndLogHelpFormsPrepare prepares every form the help of the quota and log verbs
// shows (with names made concrete): each is taken.
func TestQuotaAndLogHelpFormsPrepare(t *testing.T) {
	verbs := shellVerbs()
	for _, v := range quotasVerbs() {
		for _, line := range strings.Split(v.usage, "\n") {
			if !strings.HasPrefix(line, v.name) {
				continue
			}
			if _, err := prepareAll(line, verbs); err != nil {
				t.Errorf("%s: %v", line, err)
			}
		}
	}
}

func TestParseThrottle(t *testing.T) {
	for _, tc := range []struct {
		kind, limit string
		want        admin.Throttle
	}{
		{"REQUEST", "10req/sec", admin.Throttle{Type: admin.RequestNumber, Limit: 10, Per: time.Second}},
		{"READ", "10M/sec", admin.Throttle{Type: admin.ReadSize, Limit: 10 << 20, Per: time.Second}},
		{"WRITE", "5CU/min", admin.Throttle{Type: admin.WriteCapacityUnit, Limit: 5, Per: time.Minute}},
		{"REQUEST", "3b/hour", admin.Throttle{Type: admin.RequestSize, Limit: 3, Per: time.Hour}},
		{"WRITE", "2P/DAY", admin.Throttle{Type: admin.WriteSize, Limit: 2 << 50, Per: 24 * time.Hour}},
		{"READ", "7REQ/day", admin.Throttle{Type: admin.ReadNumber, Limit: 7, Per: 24 * time.Hour}},
	} {
		got, err := parseThrottle(tc.kind, tc.limit)
		if err != nil || got != tc.want {
			t.Errorf("parseThrottle(%s, %s) = %+v, %v; want %+v", tc.kind, tc.limit, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ kind, limit, want string }{
		{"REQUEST", "0req/sec", "greater than 0"},
		{"REQUEST", "10req/week", "want a count and a unit"},
		{"REQUEST", " 10req/sec", "want a count and a unit"},
		{"REQUEST", "10/sec", "want a count and a unit"},
		{"REQUEST", "9000000P/sec", "too large"},
		{"REQUEST", "99999999999999999999req/sec", "greater than 0"},
		{"READ_NUMBER", "10req/sec", "want REQUEST, READ or WRITE"},
		{"BOTH", "10req/sec", "want REQUEST, READ or WRITE"},
	} {
		if _, err := parseThrottle(tc.kind, tc.limit); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseThrottle(%s, %s) = %v; want an error containing %q", tc.kind, tc.limit, err, tc.want)
		}
	}
}

// TestQuotaRowsAsJavaPrintsThem checks list_quotas' rows against QuotaSettings.toString of
// the Java client (HBase 2.6.1) for the same settings.
func TestQuotaRowsAsJavaPrintsThem(t *testing.T) {
	qs := []admin.Quota{
		{Target: admin.QuotaTarget{User: "u1"}, Throttles: []admin.Throttle{
			{Type: admin.RequestNumber, Limit: 10, Per: time.Second},
			{Type: admin.ReadSize, Limit: 10 << 20, Per: time.Second},
			{Type: admin.WriteCapacityUnit, Limit: 5, Per: time.Minute, ClusterWide: true},
			{Type: admin.WriteSize, Limit: 1536, Per: time.Hour},
			{Type: admin.RequestSize, Limit: 100, Per: 24 * time.Hour},
		}, BypassGlobals: true},
		{Target: admin.QuotaTarget{User: "u1", Table: "ns:t"}, Throttles: []admin.Throttle{{Type: admin.ReadNumber, Limit: 3, Per: time.Minute}}},
		{Target: admin.QuotaTarget{Table: "t1"}, Space: &admin.SpaceQuota{Limit: 1 << 30, Policy: admin.SpaceNoInserts}},
		{Target: admin.QuotaTarget{Namespace: "ns1"}, Space: &admin.SpaceQuota{Limit: 50 << 40, Policy: admin.SpaceNoWrites}},
		{Target: admin.QuotaTarget{RegionServer: "all"}, Throttles: []admin.Throttle{{Type: admin.WriteNumber, Limit: 20000, Per: time.Second}}},
	}
	want := []quotaRowOut{
		{"USER => u1", "TYPE => THROTTLE, THROTTLE_TYPE => REQUEST_NUMBER, LIMIT => 10req/sec, SCOPE => MACHINE"},
		{"USER => u1", "TYPE => THROTTLE, THROTTLE_TYPE => READ_SIZE, LIMIT => 10.00M/sec, SCOPE => MACHINE"},
		{"USER => u1", "TYPE => THROTTLE, THROTTLE_TYPE => WRITE_CAPACITY_UNIT, LIMIT => 5CU/min, SCOPE => CLUSTER"},
		{"USER => u1", "TYPE => THROTTLE, THROTTLE_TYPE => WRITE_SIZE, LIMIT => 1.50K/hour, SCOPE => MACHINE"},
		{"USER => u1", "TYPE => THROTTLE, THROTTLE_TYPE => REQUEST_SIZE, LIMIT => 100.00B/day, SCOPE => MACHINE"},
		{"USER => u1", "GLOBAL_BYPASS => true"},
		{"USER => u1, TABLE => ns:t", "TYPE => THROTTLE, THROTTLE_TYPE => READ_NUMBER, LIMIT => 3req/min, SCOPE => MACHINE"},
		{"TABLE => t1", "TYPE => SPACE, TABLE => t1, LIMIT => 1.00G, VIOLATION_POLICY => NO_INSERTS"},
		{"NAMESPACE => ns1", "TYPE => SPACE, NAMESPACE => ns1, LIMIT => 50.00T, VIOLATION_POLICY => NO_WRITES"},
		{"REGIONSERVER => all", "TYPE => THROTTLE, THROTTLE_TYPE => WRITE_NUMBER, LIMIT => 20000req/sec, SCOPE => MACHINE"},
	}
	got := quotaRows(qs)
	if len(got) != len(want) {
		t.Fatalf("quotaRows = %d rows %+v; want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %+v; want %+v", i, got[i], want[i])
		}
	}
}

// TestQuotaSnapshotsSelect selects the tables' usages as the shell does: TABLE is the name
// without its namespace, NAMESPACE the table's namespace ("default" for a bare name).
func TestQuotaSnapshotsSelect(t *testing.T) {
	us := []admin.SpaceQuotaUsage{
		{Target: admin.QuotaTarget{Table: "t1"}, Usage: 5, Limit: 10},
		{Target: admin.QuotaTarget{Table: "ns,1:t1"}, Usage: 20, Limit: 10, InViolation: true, Policy: admin.SpaceNoWrites},
		{Target: admin.QuotaTarget{Namespace: "ns,1"}, Usage: 20, Limit: 100},
		{Target: admin.QuotaTarget{Table: "a:t2"}, Usage: 1, Limit: 2},
	}
	for _, tc := range []struct{ table, ns, want string }{
		{"", "", "a:t2 ns,1:t1/NO_WRITES t1"},
		{"t1", "", "ns,1:t1/NO_WRITES t1"},
		{"", "default", "t1"},
		{"t1", "ns,1", "ns,1:t1/NO_WRITES"},
		{"ns,1:t1", "", ""},
	} {
		var got []string
		for _, s := range quotaSnapshots(us, tc.table, tc.ns).Snapshots {
			w := s.Table
			if s.InViolation {
				w += "/" + s.Policy
			} else if s.Policy != "None" {
				t.Errorf("%s: policy %q out of violation; want None", s.Table, s.Policy)
			}
			got = append(got, w)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("quotaSnapshots(%q, %q) = %q; want %q", tc.table, tc.ns, strings.Join(got, " "), tc.want)
		}
	}
}

func TestLogQueryOptions(t *testing.T) {
	sts, err := parseScript(`get_slowlog_responses ['h1,16020,1', 'h2:16020'], {'REGION_NAME' => 't,,1.abc.', 'TABLE_NAME' => 't', 'CLIENT_IP' => '10.0.0.1:5', USER => 'bob', LIMIT => 7, 'FILTER_BY_OP' => 'AND'}`)
	if err != nil {
		t.Fatal(err)
	}
	args, opts := splitOpts(sts[0].args)
	q, err := logQuery(opts)
	if err != nil {
		t.Fatal(err)
	}
	want := admin.LogQuery{Region: "t,,1.abc.", Table: "t", Client: "10.0.0.1:5", User: "bob", Limit: 7, MatchAll: true}
	if q.Region != want.Region || q.Table != want.Table || q.Client != want.Client || q.User != want.User || q.Limit != want.Limit || !q.MatchAll {
		t.Errorf("logQuery = %+v; want %+v", q, want)
	}
	servers, err := logServers(args[0])
	if err != nil || strings.Join(servers, " ") != "h1,16020,1 h2:16020" {
		t.Errorf("logServers = %q, %v; want both servers", servers, err)
	}
	if servers, err := logServers(value{kind: vString, s: "*"}); err != nil || servers != nil {
		t.Errorf("logServers('*') = %q, %v; want every server (nil)", servers, err)
	}
}

// TestQuotaVerbsOnFakehbase: fakehbase keeps no quotas or logs; the verbs say so and exit 1.
func TestQuotaVerbsOnFakehbase(t *testing.T) {
	srv := fakehbase.NewServer(t)
	for _, src := range []string{
		"set_quota TYPE => THROTTLE, TABLE => 't', LIMIT => '10req/sec'",
		"list_quotas",
		"enable_rpc_throttle",
		"get_slowlog_responses '*'",
		"get_balancer_decisions",
	} {
		code, stdout, stderr := runShell(t, srv, src)
		if code != 1 || !strings.Contains(stderr, "not supported") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 saying not supported", src, code, stdout, stderr)
		}
	}
}
