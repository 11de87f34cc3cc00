package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// TestShellCorpus runs each runbook of testdata/corpus through hbasectl (-f) against the real
// cluster, again with -json on tables of its own, and the Java Admin and Table calls that do
// the same (its "#java:" lines, run by the launcher's ShellEquivalent) on tables of their
// own; then it compares the state of the tables ("#state:"), namespaces ("#ns-state:"),
// snapshot sets ("#snapshots:"), quotas ("#quotas: user|table|namespace NAME"), request
// log entries of a table ("#reqlog: slow|large TABLE [wait]"), region server groups
// ("#rsgroups: PREFIX") and replication peers ("#peers: ...") of each hbasectl run with Java's as the Java client reads them,
// checks hbasectl's output ("#out:" lines, in order), cluster-wide state as the Java Admin
// reads it after a part ("#switches: split=false ..." or "#admin-state: decommissioned=...":
// "key=value" words of the launcher's admin-state; a file with #switches: lines gets its
// start values set back at its end), and that -json printed one document with a result for
// every command.
// Placeholders: $T $U $V $W tables, $NS a namespace, $S a snapshot prefix, $P and $Q names of
// a side's own (replication peers; a user of quotas or of the secure corpus), $KEY the peer
// cluster's key, $G a prefix of rsgroup names (in the secure corpus a group of users), $RS the
// first live region server ("host,port,startcode"), $MS a region server without hbase:meta
// ("host:port", the same for every side), and after a
// "#phase" line $R0 $R1 ... the encoded names of $T's regions in key order (a phase's checks
// run after it; the next phase sees their state).
func TestShellCorpus(t *testing.T) {
	if os.Getenv("GOHBASE_SHELL_CORPUS") == "" {
		t.Skip("about four minutes: GOHBASE_SHELL_CORPUS=1 (make test-shell-corpus, which .ci/run calls) runs it")
	}
	runCorpusDir(t, "testdata/corpus", func(t *testing.T) corpusTarget { return plainTarget(corpusCluster.Cluster(t)) })
}

// runCorpusDir runs each runbook of dir as a subtest on the cluster target gives.
func runCorpusDir(t *testing.T, dir string, target func(*testing.T) corpusTarget) {
	files, err := filepath.Glob(filepath.Join(dir, "*.hb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".hb")
		t.Run(name, func(t *testing.T) { runCorpusFile(t, target(t), file, name) })
	}
}

// corpusCluster is the corpus' cluster: shared's with quotas on, the region servers'
// request logs kept (the large log from 2 KB answers, so that quotas.hb can make one) and
// region server groups on (rsgroups.hb moves one of the two servers into a group and back),
// and a peer cluster for the replication commands.
var corpusCluster = hbasetest.NewShared(hbasetest.Options{
	RegionServers: 2,
	Quotas:        true,
	RSGroups:      true,
	PeerCluster:   true,
	Conf: map[string]string{
		"hbase.regionserver.slowlog.buffer.enabled":     "true",
		"hbase.ipc.warn.response.size":                  "2048",
		"hbase.master.balancer.decision.buffer.enabled": "true",
	},
})

// firstServer is the name ("host,port,startcode") of the first live region server.
func firstServer(t *testing.T, a *admin.Admin) string {
	cs, err := a.ClusterStatus(t.Context())
	if err != nil || len(cs.LiveServers) == 0 {
		t.Fatalf("cluster status: %v (%d live servers)", err, len(cs.LiveServers))
	}
	names := make([]string, 0, len(cs.LiveServers))
	for _, s := range cs.LiveServers {
		names = append(names, s.Server.String())
	}
	slices.Sort(names)
	return names[0]
}

// corpusTarget is the cluster a corpus runs on and how hbasectl and the Go client reach it.
type corpusTarget struct {
	cluster *hbasetest.Cluster
	getenv  func(string) string // hbasectl's environment
	flags   []string            // hbasectl's flags before each run's own
	options []hbase.Option      // the Go client's
	guest   func(string) string // hbasectl's environment as the guest (secure only)
}

func plainTarget(c *hbasetest.Cluster) corpusTarget {
	return corpusTarget{cluster: c, getenv: env("HBASE_ZK", c.ZKQuorum)}
}

// corpusNames are the placeholders of one side (hbasectl's or Java's).
func corpusNames(base, side string) map[string]string {
	return map[string]string{
		"$NS": "sh_" + base + "_ns_" + side, "$T": "sh_" + base + "_t_" + side, "$U": "sh_" + base + "_u_" + side,
		"$V": "sh_" + base + "_v_" + side, "$W": "sh_" + base + "_w_" + side, "$S": "sh_" + base + "_s_" + side,
		"$Q": "sh_" + base + "_q_" + side,
		// Cluster-global names of the secure corpus: a user, a group and a label prefix.
		"$P": "sh_" + base + "_p_" + side, "$G": "sh_" + base + "_g_" + side, "$L": "sh_" + base + "_l_" + side + "_",
	}
}

// corpusKeys are replaced in this order ($KEY first: no other name holds it).
var corpusKeys = []string{"$KEY", "$NS", "$T", "$U", "$V", "$W", "$S", "$Q", "$P", "$G", "$L"}

func substitute(s string, names map[string]string) string {
	for _, k := range corpusKeys {
		s = strings.ReplaceAll(s, k, names[k])
	}
	return s
}

// unsubstitute writes one side's names back as placeholders, to compare the two sides.
func unsubstitute(s string, names map[string]string) string {
	for _, k := range corpusKeys {
		if names[k] != "" { // $KEY has no value on a cluster without a peer
			s = strings.ReplaceAll(s, names[k], k)
		}
	}
	return s
}

type corpusPart struct {
	script           string
	java, outs       []string
	states, nsStates []string
	snapshotPrefixes []string
	snapshotOpts     []string // #snapshot-opts: lines
	quotas, reqLogs  []string
	secStates        [][2]string // kind and argument of #perms:, #labels:, #auths:
	guests           []string    // #guest: lines
	rsgroupPrefixes  []string
	peers            []string
	adminStates      []string // #switches: and #admin-state: lines, "key=value" words
}

func parseCorpus(src string) []*corpusPart {
	parts := []*corpusPart{{}}
	var script strings.Builder
	flush := func() { parts[len(parts)-1].script = script.String(); script.Reset() }
	for _, line := range strings.Split(src, "\n") {
		p := parts[len(parts)-1]
		switch {
		case line == "#phase":
			flush()
			parts = append(parts, &corpusPart{})
			continue
		case strings.HasPrefix(line, "#java: "):
			p.java = append(p.java, strings.TrimPrefix(line, "#java: "))
		case strings.HasPrefix(line, "#out: "):
			p.outs = append(p.outs, strings.TrimPrefix(line, "#out: "))
		case strings.HasPrefix(line, "#state: "):
			p.states = append(p.states, strings.TrimPrefix(line, "#state: "))
		case strings.HasPrefix(line, "#ns-state: "):
			p.nsStates = append(p.nsStates, strings.TrimPrefix(line, "#ns-state: "))
		case strings.HasPrefix(line, "#snapshots: "):
			p.snapshotPrefixes = append(p.snapshotPrefixes, strings.TrimPrefix(line, "#snapshots: "))
		case strings.HasPrefix(line, "#quotas: "):
			p.quotas = append(p.quotas, strings.TrimPrefix(line, "#quotas: "))
		case strings.HasPrefix(line, "#reqlog: "):
			p.reqLogs = append(p.reqLogs, strings.TrimPrefix(line, "#reqlog: "))
		case strings.HasPrefix(line, "#perms: "), strings.HasPrefix(line, "#labels: "), strings.HasPrefix(line, "#auths: "):
			kind, arg, _ := strings.Cut(line[1:], ": ")
			p.secStates = append(p.secStates, [2]string{kind, arg})
		case strings.HasPrefix(line, "#guest: "):
			p.guests = append(p.guests, strings.TrimPrefix(line, "#guest: "))
		case strings.HasPrefix(line, "#rsgroups: "):
			p.rsgroupPrefixes = append(p.rsgroupPrefixes, strings.TrimPrefix(line, "#rsgroups: "))
		case strings.HasPrefix(line, "#peers: "):
			p.peers = append(p.peers, strings.TrimPrefix(line, "#peers: "))
		case strings.HasPrefix(line, "#switches: "), strings.HasPrefix(line, "#admin-state: "):
			_, words, _ := strings.Cut(line, ": ")
			p.adminStates = append(p.adminStates, words)
		case strings.HasPrefix(line, "#snapshot-opts: "):
			p.snapshotOpts = append(p.snapshotOpts, strings.TrimPrefix(line, "#snapshot-opts: "))
		}
		script.WriteString(line)
		script.WriteByte('\n')
	}
	flush()
	return parts
}

func runCorpusFile(t *testing.T, tg corpusTarget, file, base string) {
	cluster := tg.cluster
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	goNames, jsonNames, javaNames := corpusNames(base, "go"), corpusNames(base, "json"), corpusNames(base, "java")
	if cluster.Peer != nil {
		for _, names := range []map[string]string{goNames, jsonNames, javaNames} {
			names["$KEY"] = cluster.Peer.ClusterKey()
		}
	}
	client, err := hbase.NewClient(cluster.ZKQuorum, tg.options...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	a := admin.New(client)
	clean := func() { cleanCorpus(t, a, base, goNames, jsonNames, javaNames) }
	if cluster.Peer != nil {
		peerClient, err := hbase.NewClient(cluster.Peer.ZKQuorum, hbase.WithZNodeParent(cluster.Peer.ZNodeParent))
		if err != nil {
			t.Fatal(err)
		}
		defer peerClient.Close()
		peerAdmin := admin.New(peerClient)
		clean = func() {
			cleanCorpusPeers(t, a, peerAdmin, base, goNames, jsonNames, javaNames)
			cleanCorpus(t, a, base, goNames, jsonNames, javaNames)
		}
	}
	defer clean()
	clean()
	if strings.Contains(src, "\n#switches: ") {
		defer keepSwitches(t, a)()
	}
	src = strings.ReplaceAll(src, "$RS", firstServer(t, a))
	if strings.Contains(src, "$MS") {
		src = strings.ReplaceAll(src, "$MS", movableServer(t, a))
	}
	for i, part := range parseCorpus(src) {
		goSrc, jsonSrc := substitute(part.script, goNames), substitute(part.script, jsonNames)
		outs := part.outs
		if i > 0 && strings.Contains(part.script, "$R") {
			goRegions, javaRegions := regionNames(t, a, goNames["$T"]), regionNames(t, a, javaNames["$T"])
			goSrc = substituteRegions(goSrc, goRegions)
			jsonSrc = substituteRegions(jsonSrc, regionNames(t, a, jsonNames["$T"]))
			outs = nil
			for _, o := range part.outs {
				outs = append(outs, substituteRegions(o, goRegions))
			}
			for j, line := range part.java {
				part.java[j] = substituteRegions(line, javaRegions)
			}
		}
		path := filepath.Join(t.TempDir(), base+".hb")
		if err := os.WriteFile(path, []byte(goSrc), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runArgs(t, tg.getenv, append(slices.Clone(tg.flags), "-timeout", "120s", "-f", path)...)
		if code != 0 {
			t.Fatalf("part %d: hbasectl -f exit %d: %s\nstdout:\n%s", i, code, stderr, stdout)
		}
		rest := stdout
		for _, want := range outs {
			want = substitute(want, goNames)
			at := strings.Index(rest, want)
			if at < 0 {
				t.Errorf("part %d: %q is not in the output (in order) after the previous #out:\n%s", i, want, stdout)
				continue
			}
			rest = rest[at+len(want):]
		}
		checkGuest(t, tg, i, part.guests, goNames)
		checkCorpusJSON(t, tg, i, base, jsonSrc)
		for _, op := range part.java {
			ans, err := cluster.Command(t.Context(), "shell-java "+substitute(op, javaNames))
			if err != nil {
				t.Fatalf("part %d: java %q: %q, %v", i, op, ans, err)
			}
		}
		compare := func(what string, words ...string) {
			var got [3]string
			for k, names := range []map[string]string{javaNames, goNames, jsonNames} {
				var sub []string
				for _, w := range words {
					sub = append(sub, substitute(w, names))
				}
				ans, err := cluster.Command(t.Context(), "shell-java "+strings.Join(sub, " "))
				if err != nil {
					t.Fatalf("part %d: %s %q: %q, %v", i, what, sub, ans, err)
				}
				got[k] = unsubstitute(ans, names)
			}
			for k, side := range []string{"", "hbasectl", "hbasectl -json"} {
				if k > 0 && got[k] != got[0] {
					t.Errorf("part %d: %s %s differs:\n%s: %s\njava: %s", i, what, words, side, got[k], got[0])
				}
			}
		}
		for _, s := range part.states {
			compare("state", "state", s)
		}
		for _, s := range part.nsStates {
			compare("namespace", "ns-state", s)
		}
		for _, s := range part.snapshotPrefixes {
			compare("snapshots", "snapshots", s)
		}
		for _, s := range part.quotas {
			compare("quotas", "quota", "list", s)
		}
		for _, s := range part.reqLogs {
			compare("request log", "reqlog", "list", s)
		}
		for _, s := range part.secStates {
			compare(s[0], append([]string{s[0]}, strings.Fields(s[1])...)...)
			if ans, err := cluster.Command(t.Context(), "shell-java "+s[0]+" "+substitute(s[1], goNames)); err == nil {
				t.Logf("part %d: %s %s: %s", i, s[0], s[1], unsubstitute(ans, goNames))
			}
		}
		for _, s := range part.rsgroupPrefixes {
			compare("rsgroups", "rsgroups-of", s)
		}
		for _, s := range part.peers {
			compare("peers", append([]string{"peers"}, strings.Fields(s)...)...)
		}
		for _, s := range part.adminStates {
			checkAdminState(t, cluster, i, s)
		}
		for _, s := range part.snapshotOpts {
			checkSnapshotOpts(t, cluster, i, s, goNames, jsonNames)
		}
	}
}

// checkCorpusJSON runs src with -json and checks that it printed, for each of its commands in
// order, one JSON document naming the command and holding a result that says something (not
// null, not an empty object: a result type without exported fields would print {}).
func checkCorpusJSON(t *testing.T, tg corpusTarget, part int, base, src string) {
	t.Helper()
	sts, err := parseScript(src)
	if err != nil {
		t.Fatalf("part %d: %v", part, err)
	}
	path := filepath.Join(t.TempDir(), base+"_json.hb")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs(t, tg.getenv, append(slices.Clone(tg.flags), "-timeout", "120s", "-json", "-f", path)...)
	if code != 0 {
		t.Fatalf("part %d: hbasectl -json -f exit %d: %s\nstdout:\n%s", part, code, stderr, stdout)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	for _, st := range sts {
		if st.verb == "exit" || st.verb == "quit" {
			continue
		}
		var doc struct {
			Command string          `json:"command"`
			Result  json.RawMessage `json:"result"`
			Seconds *float64        `json:"seconds"`
		}
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("part %d: line %d (%s): no JSON document: %v\n%s", part, st.line, st.verb, err, stdout)
		}
		if doc.Command != st.text || doc.Seconds == nil {
			t.Errorf("part %d: line %d: document of command %q (seconds %v); want %q", part, st.line, doc.Command, doc.Seconds, st.text)
		}
		if r := strings.Join(strings.Fields(string(doc.Result)), ""); r == "" || r == "null" || r == "{}" {
			t.Errorf("part %d: line %d (%s): -json result %q says nothing", part, st.line, st.verb, doc.Result)
		}
	}
	if dec.More() {
		t.Errorf("part %d: -json printed more documents than commands:\n%s", part, stdout)
	}
}

// regionNames are the encoded names of table's regions in key order.
func regionNames(t *testing.T, a *admin.Admin, table string) []string {
	regions, err := a.Regions(t.Context(), table)
	if err != nil {
		t.Fatalf("regions of %s: %v", table, err)
	}
	var names []string
	for _, r := range regions {
		names = append(names, r.Encoded)
	}
	return names
}

// substituteRegions replaces $R0, $R1 ... by the names of regions.
func substituteRegions(s string, regions []string) string {
	for i := len(regions) - 1; i >= 0; i-- {
		s = strings.ReplaceAll(s, "$R"+strconv.Itoa(i), regions[i])
	}
	return s
}

// cleanCorpus drops what a corpus file's two sides made.
func cleanCorpus(t *testing.T, a *admin.Admin, base string, sides ...map[string]string) {
	ctx := context.WithoutCancel(t.Context())
	for _, names := range sides {
		tables, _ := a.ListTables(ctx, hrpc.TableRegex("sh_"+base+"_.*"))
		nsTables, _ := a.ListTables(ctx, hrpc.InNamespace(names["$NS"]))
		for _, tb := range append(tables, nsTables...) {
			_ = a.DisableTable(ctx, tb)
			_ = a.DeleteTable(ctx, tb)
		}
		cleanQuotas(ctx, a, "sh_"+base+"_")
		_ = a.DeleteNamespace(ctx, names["$NS"])
		groups, _ := a.RSGroups(ctx)
		for _, g := range groups {
			if strings.HasPrefix(g.Name, names["$G"]) {
				if len(g.Servers) > 0 {
					_ = a.MoveServersToRSGroup(ctx, "default", g.Servers...)
				}
				_ = a.RemoveRSGroup(ctx, g.Name)
			}
		}
		snaps, _ := a.ListSnapshots(ctx)
		for _, s := range snaps {
			if strings.HasPrefix(s.Name, names["$S"]) {
				_ = a.DeleteSnapshot(ctx, s.Name)
			}
		}
	}
}

// cleanQuotas removes the quotas of the users, tables and namespaces named with prefix (a
// user's stay when its tables go).
func cleanQuotas(ctx context.Context, a *admin.Admin, prefix string) {
	qs, _ := a.Quotas(ctx, admin.QuotaFilter{})
	for _, q := range qs {
		tg := q.Target
		if !strings.HasPrefix(tg.User, prefix) && !strings.HasPrefix(tg.Table, prefix) && !strings.HasPrefix(tg.Namespace, prefix) {
			continue
		}
		_ = a.RemoveThrottles(ctx, tg)
		if q.Space != nil {
			_ = a.RemoveSpaceQuota(ctx, tg)
		}
		if q.BypassGlobals {
			_ = a.SetBypassGlobals(ctx, tg.User, false)
		}
	}
}

// movableServer is the "host:port" of a region server that does not hold hbase:meta, for a
// runbook to move between groups.
func movableServer(t *testing.T, a *admin.Admin) string {
	st, err := a.ClusterStatus(t.Context())
	if err != nil {
		t.Fatalf("cluster status: %v", err)
	}
	if len(st.LiveServers) < 2 {
		t.Fatalf("%d live servers; want 2", len(st.LiveServers))
	}
	for _, s := range st.LiveServers {
		if !slices.ContainsFunc(s.Regions, func(r hrpc.RegionLoad) bool { return r.Table == "hbase:meta" }) {
			return s.Server.Addr()
		}
	}
	return st.LiveServers[0].Server.Addr()
}

// cleanCorpusPeers removes the replication peers a corpus file's sides made, and the tables
// enable_table_replication made on the peer cluster.
func cleanCorpusPeers(t *testing.T, a, peerAdmin *admin.Admin, base string, sides ...map[string]string) {
	ctx := context.WithoutCancel(t.Context())
	for _, names := range sides {
		for _, p := range []string{names["$P"], names["$Q"]} {
			_ = a.RemoveReplicationPeer(ctx, p)
		}
	}
	tables, _ := peerAdmin.ListTables(ctx, hrpc.TableRegex("sh_"+base+"_.*"))
	for _, tb := range tables {
		_ = peerAdmin.DisableTable(ctx, tb)
		_ = peerAdmin.DeleteTable(ctx, tb)
	}
}

// checkAdminState checks "name=value" words (a #switches: or #admin-state: line) against the
// master's state
// as the Java Admin reads them (hbasetest's JavaAdminState: split, merge, catalogJanitor,
// cleanerChore, normalizer, snapshotCleanup).
func checkAdminState(t *testing.T, cluster *hbasetest.Cluster, part int, line string) {
	t.Helper()
	state, err := cluster.JavaAdminState(t.Context(), "")
	if err != nil {
		t.Fatalf("part %d: java admin state: %v", part, err)
	}
	for _, w := range strings.Fields(line) {
		name, want, _ := strings.Cut(w, "=")
		if got, ok := state[name]; !ok || got != want {
			t.Errorf("part %d: %s as the Java Admin reads it = %q (known: %t); want %q", part, name, got, ok, want)
		}
	}
}

// keepSwitches reads the master's switches a runbook flips and returns a func setting them
// back, so that a failing runbook leaves the next ones the cluster they expect.
func keepSwitches(t *testing.T, a *admin.Admin) func() {
	type sw struct {
		get getSwitch
		set setSwitch
	}
	all := []sw{
		{(*admin.Admin).SplitEnabled, (*admin.Admin).SetSplit},
		{(*admin.Admin).MergeEnabled, (*admin.Admin).SetMerge},
		{(*admin.Admin).CatalogJanitorEnabled, (*admin.Admin).SetCatalogJanitor},
		{(*admin.Admin).CleanerChoreEnabled, (*admin.Admin).SetCleanerChore},
		{(*admin.Admin).NormalizerEnabled, (*admin.Admin).SetNormalizer},
		{(*admin.Admin).SnapshotCleanupEnabled, (*admin.Admin).SetSnapshotCleanup},
		{(*admin.Admin).BalancerEnabled, (*admin.Admin).SetBalancer},
	}
	start := make([]bool, len(all))
	for i, s := range all {
		on, err := s.get(a, t.Context())
		if err != nil {
			t.Fatalf("switch %d: %v", i, err)
		}
		start[i] = on
	}
	return func() {
		ctx := context.WithoutCancel(t.Context())
		for i, s := range all {
			if _, err := s.set(a, ctx, start[i]); err != nil {
				t.Errorf("setting switch %d back: %v", i, err)
			}
		}
	}
}
