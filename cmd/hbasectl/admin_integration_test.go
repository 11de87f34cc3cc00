package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCLITables runs create, list, describe, split, merge, move, count and drop through
// hbasectl against the real cluster and checks the -json output of each.
func TestCLITables(t *testing.T) {
	cluster := shared.Cluster(t)
	table := fmt.Sprintf("ctl_tables_%d", time.Now().UnixNano()%1e6)

	var desc describeResult
	ctl(t, &desc, "create", "-versions", "3", "-ttl", "1h", "-compression", "gz", "-bloom", "rowcol", "-split", "m", "-split", "t", table, "f,g")
	if desc.Table != table || !desc.Enabled || len(desc.Families) != 2 || len(desc.Regions) != 3 {
		t.Fatalf("create printed %+v", desc)
	}
	for _, f := range desc.Families {
		if f.Versions != 3 || f.TTLSeconds != 3600 || f.Compression != "GZ" || f.BloomFilter != "ROWCOL" {
			t.Errorf("family %+v: want 3 versions, TTL 3600 s, GZ, ROWCOL", f)
		}
	}
	if r := desc.Regions; r[0].Start != "" || r[0].End != "m" || r[1].Start != "m" || r[2].Start != "t" || r[2].End != "" || r[0].Server == "" || len(r[0].Encoded) != 32 {
		t.Errorf("regions %+v, want [-, m), [m, t) and [t, -) assigned", r)
	}
	ctlFails(t, 2, "table already exists|TableExistsException", "create", table, "f")
	ctlFails(t, 2, "create: -split and -regions do not go together", "create", "-split", "a", "-regions", "4", table+"x", "f")

	var list listResult
	ctl(t, &list, "list", "-regex", "ctl_tables_.*")
	if !slices.Contains(list.Tables, table) {
		t.Errorf("list -regex: %q does not hold %s", list.Tables, table)
	}
	list = listResult{}
	ctl(t, &list, "list", "-system")
	if !slices.Contains(list.Tables, "hbase:meta") || !slices.Contains(list.Tables, table) {
		t.Errorf("list -system: %q", list.Tables)
	}

	for _, r := range []string{"a", "k", "n", "u", "x"} {
		ctl(t, nil, "put", table, r, "f:q", "v"+r)
	}
	// Split the first region; merge the two others (a daughter with reference files is not
	// mergeable until compacted).
	var regions regionsResult
	ctl(t, &regions, "split", table, "c")
	if len(regions.Regions) != 4 || regions.Regions[1].Start != "c" || regions.Regions[1].End != "m" {
		t.Fatalf("split at c: regions %+v", regions.Regions)
	}
	ctlFails(t, 2, "split: a table splits at a key", "split", table)

	regions = regionsResult{}
	ctl(t, &regions, "merge", desc.Regions[1].Encoded, "-force=false", desc.Regions[2].Encoded)
	if len(regions.Regions) != 3 || regions.Regions[2].Start != "m" || regions.Regions[2].End != "" {
		t.Fatalf("merge of [m, t) and [t, -): regions %+v", regions.Regions)
	}
	ctlFails(t, 2, "merge: \"nope\" is not a region name", "merge", "nope", regions.Regions[1].Encoded)

	// Move the first region to the other server.
	var status statusResult
	ctl(t, &status, "status")
	if status.LiveServers != 2 || len(status.Servers) != 2 {
		t.Fatalf("status: %+v", status)
	}
	first := regions.Regions[0]
	var dest string
	for _, s := range status.Servers {
		if addr := hostPort(s.Server); addr != first.Server {
			dest = addr
		}
	}
	var mv moveResult
	ctl(t, &mv, "move", first.Encoded, dest)
	if mv.Region != first.Encoded || mv.Table != table || mv.From != first.Server || mv.To != dest {
		t.Errorf("move to %s printed %+v (region was on %s)", dest, mv, first.Server)
	}
	ctlFails(t, 2, "region not found|UnknownRegionException", "move", strings.Repeat("0", 32))

	// The data is all there after split, merge and move.
	var n countResult
	ctl(t, &n, "count", table)
	if n.Rows != 5 {
		t.Errorf("count after split, merge and move: %d rows, want 5", n.Rows)
	}

	var drop dropResult
	ctl(t, &drop, "drop", table)
	if !drop.Disabled || !drop.Dropped || drop.Table != table {
		t.Errorf("drop printed %+v", drop)
	}
	ctlFails(t, 2, "table not found|TableNotFoundException", "describe", table)
	ctlFails(t, 2, "table not found|TableNotFoundException", "drop", table)
	_ = cluster
}

// hostPort turns "host,port,startcode" into "host:port".
func hostPort(server string) string {
	parts := strings.Split(server, ",")
	if len(parts) != 3 {
		return server
	}
	return parts[0] + ":" + parts[1]
}

// TestCLIStatusLocalityBalance checks status -regions, locality once and with -watch, and
// the balancer switch.
func TestCLIStatusLocalityBalance(t *testing.T) {
	cluster := shared.Cluster(t)
	table := newTable(t, []string{"f"}, "h", "p")
	for _, r := range []string{"b", "j", "s"} {
		ctl(t, nil, "put", table, r, "f:q", strings.Repeat("v", 1000))
	}
	if err := cluster.Flush(t.Context(), table); err != nil {
		t.Fatal(err)
	}

	// The servers report their regions to the master every second (the launcher's
	// hbase.regionserver.msginterval): wait for the new table's regions to show.
	var status statusResult
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Second) {
		status = statusResult{}
		ctl(t, &status, "status", "-regions", "-table", table)
		if len(status.RegionLoads) == 3 || time.Now().After(deadline) {
			break
		}
	}
	if len(status.RegionLoads) != 3 {
		t.Logf("the whole status:\n%s", ctl(t, nil, "status", "-regions"))
	}
	if status.Master == "" || status.LiveServers != 2 || status.DeadServers != 0 || status.Regions < 3 || status.ClusterID == "" {
		t.Errorf("status: %+v", status)
	}
	var regions int
	for _, s := range status.Servers {
		if s.State != "live" || s.MaxHeapMB == 0 {
			t.Errorf("server %+v", s)
		}
		regions += s.Regions
	}
	if regions != status.Regions {
		t.Errorf("servers hold %d regions, status says %d", regions, status.Regions)
	}
	if len(status.RegionLoads) != 3 {
		t.Errorf("status -regions -table %s: %d regions, want 3: %+v", table, len(status.RegionLoads), status.RegionLoads)
	}
	for _, l := range status.RegionLoads {
		if l.Table != table || len(l.Region) != 32 || l.Server == "" {
			t.Errorf("region load %+v", l)
		}
	}

	// The servers report their store files every second or so: look (one round at a time,
	// at most a minute) until the flushed files show, then watch three rounds.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(500 * time.Millisecond) {
		var r localityResult
		ctl(t, &r, "locality", "-table", table, "-threshold", "1")
		if roundHasFiles(r) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no round of locality showed the flushed store files in a minute: %+v", r)
		}
	}
	code, stdout, stderr := runArgs(t, env(), "-zk", cluster.ZKQuorum, "-json", "locality", "-table", table, "-threshold", "1", "-watch", "1s", "-rounds", "3")
	if code != 0 {
		t.Fatalf("locality -watch: exit code %d, stderr %q", code, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var rounds []localityResult
	for {
		var r localityResult
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("locality -watch output: %v\n%s", err, stdout)
		}
		rounds = append(rounds, r)
	}
	if len(rounds) != 3 {
		t.Fatalf("locality -watch 1s -rounds 3: %d rounds", len(rounds))
	}
	if d := rounds[2].Time.Sub(rounds[0].Time); d < 2*time.Second {
		t.Errorf("3 rounds of -watch 1s took %v", d)
	}
	for _, r := range rounds {
		var regs int
		if len(r.Servers) != 2 || r.Threshold != 1 {
			t.Fatalf("round %+v", r)
		}
		for _, s := range r.Servers {
			regs += s.Regions
			if s.Locality != nil && (*s.Locality < 0 || *s.Locality > 1) {
				t.Errorf("server locality %v", *s.Locality)
			}
		}
		if regs != 3 {
			t.Errorf("round at %v: %d regions of %s, want 3", r.Time, regs, table)
		}
		for i, b := range r.Below {
			if b.Locality == nil || *b.Locality >= 1 || b.StoreFiles == 0 || b.Table != table || (i > 0 && *r.Below[i-1].Locality > *b.Locality) {
				t.Errorf("below the threshold: %+v", b)
			}
		}
		if !roundHasFiles(r) {
			t.Errorf("round at %v does not show the flushed store files the round before it showed", r.Time)
		}
	}

	// The human form of one round.
	code, stdout, _ = runArgs(t, env(), "-zk", cluster.ZKQuorum, "locality", "-table", table)
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Scan()
	sc.Scan()
	if code != 0 || !strings.Contains(stdout, "locality threshold 0.90") || !strings.HasPrefix(sc.Text(), "SERVER") {
		t.Errorf("locality as text:\n%s", stdout)
	}

	var b balanceResult
	ctl(t, &b, "balance", "on")
	if !b.BalancerOn || b.WasOn == nil {
		t.Errorf("balance on printed %+v", b)
	}
	b = balanceResult{}
	ctl(t, &b, "balance")
	if !b.BalancerOn || b.Ran == nil {
		t.Errorf("balance printed %+v", b)
	}
	b = balanceResult{}
	ctl(t, &b, "balance", "off")
	if b.BalancerOn || b.WasOn == nil || !*b.WasOn {
		t.Errorf("balance off printed %+v", b)
	}
	b = balanceResult{}
	ctl(t, &b, "balance", "status")
	if b.BalancerOn || b.Ran != nil || b.WasOn != nil {
		t.Errorf("balance status printed %+v", b)
	}
	ctlFails(t, 2, `balance: want on, off or status, got "maybe"`, "balance", "maybe")
}

// roundHasFiles reports whether a round of locality shows store files: a server's locality
// is known only from its regions' files.
func roundHasFiles(r localityResult) bool {
	for _, s := range r.Servers {
		if s.Locality != nil {
			return true
		}
	}
	return false
}
