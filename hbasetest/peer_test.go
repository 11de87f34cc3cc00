package hbasetest

import (
	"encoding/hex"
	"reflect"
	"testing"
)

func TestParseReplicationPeers(t *testing.T) {
	h := func(s string) string { return hex.EncodeToString([]byte(s)) }
	words := []string{
		"peer=" + h("1"), "enabled=true", "key=" + h("127.0.0.1:2181:/hbase-peer"), "endpoint=-",
		"all=false", "serial=true", "bw=1048576",
		"ns=" + h("ns,1"), "tcf=" + h("ns:t:x") + ":" + h("a,b") + "," + h("c:d"), "tcf=" + h("t2") + ":",
		"conf=" + h("k") + ":" + h("v=1"), "data=" + h("\x00\xff") + ":" + h("\x01"),
		"peer=" + h("two"), "enabled=false", "key=-", "endpoint=" + h("org.example.E"), "all=true",
		"serial=false", "bw=0", "xns=" + h("skip"), "xtcf=" + h("t3") + ":" + h("f"),
	}
	got, err := parseReplicationPeers(words)
	if err != nil {
		t.Fatalf("parseReplicationPeers: %v", err)
	}
	want := []ReplicationPeer{{
		ID: "1", Enabled: true, ClusterKey: "127.0.0.1:2181:/hbase-peer", Serial: true, Bandwidth: 1048576,
		Namespaces:    []string{"ns,1"},
		TableCFs:      map[string][]string{"ns:t:x": {"a,b", "c:d"}, "t2": nil},
		Configuration: map[string]string{"k": "v=1"},
		Data:          map[string][]byte{"\x00\xff": {1}},
	}, {
		ID: "two", Endpoint: "org.example.E", ReplicateAll: true,
		ExcludeNamespaces: []string{"skip"},
		ExcludeTableCFs:   map[string][]string{"t3": {"f"}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got = %+v; want %+v", got, want)
	}
	if got, err := parseReplicationPeers(nil); err != nil || got != nil {
		t.Fatalf("no peers: got = %v, %v; want nil, nil", got, err)
	}
	for _, bad := range [][]string{
		{"enabled=true"},                      // before a peer
		{"peer=" + h("1"), "enabled=maybe"},   // not a bool
		{"peer=" + h("1"), "tcf=" + h("t")},   // no ':'
		{"peer=" + h("1"), "ns=zz"},           // not hex
		{"peer=" + h("1"), "colour=" + h("")}, // unknown
		{"peer"},                              // not key=value
	} {
		if _, err := parseReplicationPeers(bad); err == nil {
			t.Errorf("parseReplicationPeers(%q) = nil error; want one", bad)
		}
	}
}

func TestPeerClusterOptions(t *testing.T) {
	if got := (Options{PeerCluster: true}).withDefaults().HeapMB; got != 1024 {
		t.Errorf("default heap with a peer cluster = %d MB; want 1024", got)
	}
	if got := (Options{PeerCluster: true, HeapMB: 900}).withDefaults().HeapMB; got != 900 {
		t.Errorf("heap set with a peer cluster = %d MB; want 900", got)
	}
	for _, o := range []Options{{PeerCluster: true, Secure: true}, {PeerCluster: true, TLS: true}} {
		o = o.withDefaults()
		if err := validate(&o); err == nil {
			t.Errorf("validate(PeerCluster, Secure %v, TLS %v) = nil; want an error", o.Secure, o.TLS)
		}
	}
	c := &Cluster{opts: Options{PeerCluster: true}}
	if err := c.parseReady("READY zk=127.0.0.1:1 znode=/hbase control=127.0.0.1:2"); err == nil {
		t.Error("a ready line without the peer cluster was accepted")
	}
	if err := c.parseReady("READY zk=127.0.0.1:1 znode=/hbase control=127.0.0.1:2 peer_zk=127.0.0.1:1 peer_znode=/hbase-peer"); err != nil {
		t.Fatalf("parseReady: %v", err)
	}
	if got := c.Peer.ClusterKey(); got != "127.0.0.1:1:/hbase-peer" {
		t.Errorf("ClusterKey = %q; want 127.0.0.1:1:/hbase-peer", got)
	}
}
