package main

import (
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

func testStatus() *hrpc.ClusterStatus {
	rs := func(host string, port int) hrpc.ServerName {
		return hrpc.ServerName{Host: host, Port: port, StartCode: 17}
	}
	return &hrpc.ClusterStatus{
		ClusterID: "c1", Version: "2.6.1", Master: rs("m", 16000), BackupMasters: []hrpc.ServerName{rs("m2", 16000)},
		LiveServers: []hrpc.ServerStatus{
			{Server: rs("rs2", 16020), RequestsPerSec: 5, TotalRequests: 50, UsedHeapMB: 100, MaxHeapMB: 1000, Regions: []hrpc.RegionLoad{
				{Encoded: "e1", Table: "t", StoreFiles: 2, DataLocality: 0.5, BlocksLocalWeight: 10, BlocksTotalWeight: 40, ReadRequests: 3},
				{Encoded: "e2", Table: "t", StoreFiles: 1, DataLocality: 1, BlocksLocalWeight: 60, BlocksTotalWeight: 60},
				{Encoded: "e3", Table: "t"}, // no store files: no locality
				{Encoded: "m1", Table: "hbase:meta", StoreFiles: 1, DataLocality: 0.25},
			}},
			{Server: rs("rs1", 16020), Regions: []hrpc.RegionLoad{
				{Encoded: "e4", Table: "t", StoreFiles: 1, DataLocality: 0.1}, // no weights reported
			}},
		},
		DeadServers: []hrpc.ServerName{rs("rs3", 16020)},
	}
}

func TestLocality(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	r := localityOf(testStatus(), 0.9, "t", now)
	if len(r.Servers) != 2 || r.Servers[0].Server != "rs1:16020" || r.Servers[1].Server != "rs2:16020" {
		t.Fatalf("servers %+v", r.Servers)
	}
	// rs2: weighted by blocks over t's regions, (10+60)/(40+60); rs1 reports no weights:
	// the mean of its regions with files.
	if s := r.Servers[1]; s.Regions != 3 || s.Locality == nil || *s.Locality != 0.7 || s.Below != 1 {
		t.Errorf("rs2: %+v (locality %v)", s, s.Locality)
	}
	if s := r.Servers[0]; s.Regions != 1 || s.Locality == nil || *s.Locality < 0.0999 || *s.Locality > 0.1001 || s.Below != 1 {
		t.Errorf("rs1: %+v", s)
	}
	if len(r.Below) != 2 || r.Below[0].Region != "e4" || r.Below[1].Region != "e1" {
		t.Errorf("below %+v, want e4 then e1 (lowest first; e3 without files is not listed)", r.Below)
	}
	var sb strings.Builder
	if err := r.writeText(&sb); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"2026-11-24T09:00:00Z  locality threshold 0.90\n" +
		"SERVER     REGIONS  LOCALITY  BELOW\n" +
		"rs1:16020  1        0.10      1\n" +
		"rs2:16020  3        0.70      1\n" +
		"\n" +
		"REGION  TABLE  SERVER     READS  WRITES  STOREFILES  STOREFILE MB  MEMSTORE MB  LOCALITY\n" +
		"e4      t      rs1:16020  0      0       1           0             0            0.10\n" +
		"e1      t      rs2:16020  3      0       2           0             0            0.50\n"
	if got := sb.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}

	all := localityOf(testStatus(), 0.2, "", now)
	if all.Servers[1].Regions != 4 || len(all.Below) != 1 || all.Below[0].Region != "e4" {
		t.Errorf("every table, threshold 0.2: %+v below %+v", all.Servers, all.Below)
	}
	sb.Reset()
	localityOf(testStatus(), 0, "t", now).writeText(&sb)
	if !strings.HasSuffix(sb.String(), "\nno region below 0.00\n") {
		t.Errorf("threshold 0:\n%s", sb.String())
	}
}

func TestStatus(t *testing.T) {
	r := statusOf(testStatus(), "", false)
	if r.LiveServers != 2 || r.DeadServers != 1 || r.Regions != 5 || len(r.Servers) != 3 || r.Servers[2].State != "dead" || r.RegionLoads != nil {
		t.Fatalf("status %+v", r)
	}
	var sb strings.Builder
	if err := r.writeText(&sb); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"cluster c1, version 2.6.1, master m,16000,17, backup masters [m2,16000,17]\n" +
		"2 live, 1 dead servers; 5 regions, 0 in transition; balancer off\n" +
		"\n" +
		"SERVER        STATE  REGIONS  REQUESTS/S  REQUESTS  HEAP MB\n" +
		"rs2,16020,17  live   4        5           50        100/1000\n" +
		"rs1,16020,17  live   1        0           0         0/0\n" +
		"rs3,16020,17  dead   -        -           -         -\n"
	if got := sb.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	r = statusOf(testStatus(), "t", true)
	if len(r.RegionLoads) != 4 || r.RegionLoads[0].Region != "e1" || r.RegionLoads[2].Locality != nil || r.RegionLoads[3].Server != "rs1:16020" {
		t.Errorf("status -regions -table t: %+v", r.RegionLoads)
	}
}

func TestIsRegionName(t *testing.T) {
	for name, want := range map[string]bool{
		"users":                            false,
		"ns:users":                         false,
		"2acdf59c33c95ad258d73d44510f14e7": true,
		"2acdf59c33c95ad258d73d44510f14eX": false,
		"users,m,1764000000000.2acdf59c33c95ad258d73d44510f14e7.": true,
	} {
		if got := isRegionName(name); got != want {
			t.Errorf("isRegionName(%q) = %v; want %v", name, got, want)
		}
	}
}

func TestAdminBadInput(t *testing.T) {
	zk := env("HBASE_ZK", "127.0.0.1:2181")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "t"}, "create: missing arguments"},
		{[]string{"create", "t", "f", "-regions", "1"}, "create: -regions: want 2 or more"},
		{[]string{"create", "t", "f", "-regions", "4", "-algo", "md5"}, `create: -algo: want hex or uniform, got "md5"`},
		{[]string{"create", "t", "f", "-split", ""}, "empty split key"},
		{[]string{"create", "bad name", "f"}, "create: "},
		{[]string{"split", "t"}, "split: a table splits at a key"},
		{[]string{"merge", "a"}, "merge: missing arguments"},
		{[]string{"merge", "a", "b"}, `merge: "a" is not a region name`},
		{[]string{"move", "t"}, `move: "t" is not a region name`},
		{[]string{"balance", "maybe"}, `balance: want on, off or status, got "maybe"`},
		{[]string{"status", "-table", "t"}, "status: -table needs -regions"},
		{[]string{"locality", "-threshold", "2"}, "locality: -threshold: want 0 .. 1"},
		{[]string{"locality", "-rounds", "3"}, "-rounds needs -watch"},
		{[]string{"list", "extra"}, `list: unexpected argument "extra"`},
	} {
		code, _, stderr := runArgs(t, zk, tc.args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit code %d, stderr %q; want 2 and one line containing %q", tc.args, code, stderr, tc.want)
		}
	}
}
