package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/admin"
)

func TestTableCFsText(t *testing.T) {
	got := tableCFsText(map[string][]string{"t2": nil, "ns:t": {"g", "f"}, "t1": {"f"}})
	if want := "ns.t:f,g;default.t1:f;default.t2"; got != want {
		t.Fatalf("tableCFsText = %q; want %q", got, want)
	}
	if got := tableCFsText(nil); got != "" {
		t.Fatalf("tableCFsText(nil) = %q; want empty", got)
	}
}

func TestMergeAndSubtractTableCFs(t *testing.T) {
	cur := map[string][]string{"t": {"f"}, "u": nil}
	merged := mergeTableCFs(cur, map[string][]string{"t": {"g", "f"}, "u": {"x"}, "v": nil})
	if got := tableCFsText(merged); got != "default.t:f,g;default.u;default.v" {
		t.Fatalf("merged = %q; want t:f,g, u whole, v whole", got)
	}
	if got := tableCFsText(cur); got != "default.t:f;default.u" {
		t.Fatalf("merge changed its input: %q", got)
	}
	left, err := subtractTableCFs(merged, map[string][]string{"t": {"g"}, "u": nil})
	if err != nil || tableCFsText(left) != "default.t:f;default.v" {
		t.Fatalf("subtract = %q, %v; want t:f and v", tableCFsText(left), err)
	}
	for _, rm := range []map[string][]string{{"w": nil}, {"v": {"f"}}, {"t": nil}} {
		if _, err := subtractTableCFs(left, rm); err == nil {
			t.Errorf("subtract %v from %v: no error; want the shell's refusal", rm, left)
		}
	}
}

func TestAddPeerConfig(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		{`add_peer '1', CLUSTER_KEY => 'zk:2181:/h'`, "all=true enabled=true key=zk:2181:/h tcfs= ns=[]"},
		{`add_peer '1', CLUSTER_KEY => 'zk:2181:/h', STATE => 'DISABLED', TABLE_CFS => {'default:t' => ['f'], 'ns:u' => nil}`, "all=false enabled=false key=zk:2181:/h tcfs=ns.u;default.t:f ns=[]"},
		{`add_peer '1', ENDPOINT_CLASSNAME => 'org.example.E', NAMESPACES => ['a', 'b'], SERIAL => true`, "all=false enabled=true key= tcfs= ns=[a b]"},
	} {
		sts, err := parseScript(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		_, h := splitOpts(sts[0].args)
		cfg, enabled, err := addPeerConfig(h)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got := fmt.Sprintf("all=%v enabled=%v key=%s tcfs=%s ns=%v", cfg.ReplicateAll, enabled, cfg.ClusterKey, tableCFsText(cfg.TableCFs), cfg.Namespaces)
		if got != tc.want {
			t.Errorf("%s: %s; want %s", tc.src, got, tc.want)
		}
	}
}

func TestListPeersText(t *testing.T) {
	out := &peersOut{Peers: []peerOut{
		{State: "ENABLED", Config: configOut("1", &admin.ReplicationPeerConfig{ClusterKey: "zk:2181:/h", TableCFs: map[string][]string{"t": {"f"}}, Namespaces: []string{"b", "a"}})},
		{State: "DISABLED", Config: configOut("2", &admin.ReplicationPeerConfig{ReplicationEndpoint: "E", ReplicateAll: true, ExcludeNamespaces: []string{"x"}, Bandwidth: 5, Serial: true})},
	}}
	var b strings.Builder
	rows, err := out.shellText(&b)
	if err != nil || rows != 2 {
		t.Fatalf("rows %d, %v; want 2", rows, err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	for i, want := range [][]string{
		{"PEER_ID", "CLUSTER_KEY", "ENDPOINT_CLASSNAME", "STATE", "REPLICATE_ALL", "NAMESPACES", "TABLE_CFS", "BANDWIDTH", "SERIAL"},
		{"1", "zk:2181:/h", "nil", "ENABLED", "false", "a;b", "default.t:f", "0", "false"},
		{"2", "nil", "E", "DISABLED", "true", "!x", "5", "true"},
	} {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("line %d = %q; want the fields %q", i, lines[i], want)
		}
	}
}

func TestWrapText(t *testing.T) {
	got := wrapText("aaa bbb  ccc\nddd", 7)
	if want := "aaa bbb\nccc ddd"; got != want {
		t.Fatalf("wrapText = %q; want %q", got, want)
	}
}
