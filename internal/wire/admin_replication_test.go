package wire

import (
	"errors"
	"reflect"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestPeerConfigRoundTrip(t *testing.T) {
	in := &PeerConfig{
		ClusterKey:        "zk1,zk2:2181:/hbase",
		Namespaces:        []string{"b", "a", "a"},
		TableCFs:          map[string][]string{"ns:t": {"y", "x,1", "y"}, "default:u": nil},
		ExcludeNamespaces: nil,
		Bandwidth:         1 << 20,
		Serial:            true,
		Configuration:     map[string]string{"k2": "v", "k1": "v=1"},
		Data:              map[string][]byte{"\x00\xff": {0}},
	}
	p, err := PeerConfigProto(in)
	if err != nil {
		t.Fatalf("PeerConfigProto: %v", err)
	}
	// Names in a stable order, duplicates dropped, "default:u" as the master lists it.
	if got := string(p.GetTableCfs()[0].GetTableName().GetNamespace()); got != "default" {
		t.Fatalf("first table's namespace = %q; want default (tables sorted by the name given)", got)
	}
	if got := len(p.GetNamespaces()); got != 2 {
		t.Fatalf("namespaces = %d; want 2", got)
	}
	if p.GetConfiguration()[0].GetName() != "k1" || p.ReplicateAll == nil || p.GetReplicateAll() {
		t.Fatalf("configuration or replicate_all = %v", p)
	}
	b, err := proto.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	back := &pb.ReplicationPeer{}
	if err := proto.Unmarshal(b, back); err != nil {
		t.Fatal(err)
	}
	got, err := ParsePeerConfig(back)
	if err != nil {
		t.Fatalf("ParsePeerConfig: %v", err)
	}
	want := *in
	want.Namespaces = []string{"a", "b"}
	want.TableCFs = map[string][]string{"ns:t": {"x,1", "y"}, "u": nil}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip = %+v; want %+v", got, want)
	}
}

func TestParsePeerConfigDefaults(t *testing.T) {
	// An absent replicate_all is true, as HBase's Java client reads it.
	c, err := ParsePeerConfig(&pb.ReplicationPeer{Clusterkey: new("h:1:/p")})
	if err != nil || !c.ReplicateAll || c.TableCFs != nil || c.Namespaces != nil {
		t.Fatalf("ParsePeerConfig(minimal) = %+v, %v; want replicate-all and nothing else", c, err)
	}
	// A hostile answer: a table-cfs entry without a table.
	_, err = ParsePeerConfig(&pb.ReplicationPeer{TableCfs: []*pb.TableCF{{Families: [][]byte{[]byte("f")}}}})
	if !errors.Is(err, ErrBadResponse) {
		t.Fatalf("TableCF without a table: err = %v; want ErrBadResponse", err)
	}
	if _, err := ParsePeerConfig(nil); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("nil config: err = %v; want ErrBadResponse", err)
	}
	_, err = ParsePeers(&pb.ListReplicationPeersResponse{PeerDesc: []*pb.ReplicationPeerDescription{{Id: new("1"), Config: &pb.ReplicationPeer{}}}})
	if !errors.Is(err, ErrBadResponse) {
		t.Fatalf("peer without a state: err = %v; want ErrBadResponse", err)
	}
}

func TestPeerRequestsRefuseBadInput(t *testing.T) {
	good := &PeerConfig{ClusterKey: "h:2181:/hbase"}
	for _, tc := range []struct {
		name string
		id   string
		cfg  *PeerConfig
		want error
	}{
		{"empty id", "", good, hberr.ErrInvalidName},
		{"dash", "a-b", good, hberr.ErrInvalidName},
		{"slash", "a/b", good, hberr.ErrInvalidName},
		{"dotdot", "..", good, hberr.ErrInvalidName},
		{"newline", "a\nb", good, hberr.ErrInvalidName},
		{"nil config", "1", nil, hberr.ErrInvalidPeerConfig},
		{"no key nor endpoint", "1", &PeerConfig{}, hberr.ErrInvalidPeerConfig},
		{"negative bandwidth", "1", &PeerConfig{ClusterKey: "h:1:/p", Bandwidth: -1}, hberr.ErrInvalidPeerConfig},
		{"bad namespace", "1", &PeerConfig{ClusterKey: "h:1:/p", Namespaces: []string{"a b"}}, hberr.ErrInvalidName},
		{"bad table", "1", &PeerConfig{ClusterKey: "h:1:/p", TableCFs: map[string][]string{"a,b": nil}}, hberr.ErrInvalidName},
		{"bad family", "1", &PeerConfig{ClusterKey: "h:1:/p", TableCFs: map[string][]string{"t": {"a:b"}}}, hberr.ErrInvalidName},
		{"table twice", "1", &PeerConfig{ClusterKey: "h:1:/p", ExcludeTableCFs: map[string][]string{"t": nil, "default:t": nil}}, hberr.ErrInvalidPeerConfig},
	} {
		_, err := AddPeerRequest(tc.id, tc.cfg, true)
		if !errors.Is(err, tc.want) || !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: err = %v; want %v and ErrBadRequest", tc.name, err, tc.want)
		}
	}
	for _, id := range []string{"1", "peer_2", "a.b", "Ω"} {
		if _, err := RemovePeerRequest(id); err != nil {
			t.Errorf("RemovePeerRequest(%q) = %v; want nil", id, err)
		}
	}
}

func TestParseClusterKey(t *testing.T) {
	for _, tc := range []struct{ key, quorum, parent string }{
		{"127.0.0.1:2181:/hbase", "127.0.0.1:2181", "/hbase"},
		{"zk1,zk2,zk3:2182:/hbase/peer", "zk1:2182,zk2:2182,zk3:2182", "/hbase/peer"},
	} {
		q, p, err := ParseClusterKey(tc.key)
		if err != nil || q != tc.quorum || p != tc.parent {
			t.Errorf("ParseClusterKey(%q) = %q, %q, %v; want %q, %q", tc.key, q, p, err, tc.quorum, tc.parent)
		}
	}
	for _, bad := range []string{"", "h", "h:2181", "h:2181:hbase", ":2181:/h", "h:x:/h", "a,,b:1:/h", "h::/h"} {
		if _, _, err := ParseClusterKey(bad); !errors.Is(err, hberr.ErrInvalidPeerConfig) {
			t.Errorf("ParseClusterKey(%q) err = %v; want ErrInvalidPeerConfig", bad, err)
		}
	}
}

func TestReplicationScope(t *testing.T) {
	fam := func(name string, attrs ...string) *pb.ColumnFamilySchema {
		f := &pb.ColumnFamilySchema{Name: []byte(name)}
		for i := 0; i+1 < len(attrs); i += 2 {
			f.Attributes = append(f.Attributes, &pb.BytesBytesPair{First: []byte(attrs[i]), Second: []byte(attrs[i+1])})
		}
		return f
	}
	tn := &pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")}
	s := &pb.TableSchema{TableName: tn, ColumnFamilies: []*pb.ColumnFamilySchema{
		fam("a", "VERSIONS", "1", "REPLICATION_SCOPE", "1"), fam("b", "VERSIONS", "1")}}
	if ScopeMatches(s, true) || ScopeMatches(s, false) {
		t.Fatal("a mixed table matches a switch state")
	}
	if got := ReplicatedFamilies(s); !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("ReplicatedFamilies = %q; want [a]", got)
	}
	other := proto.Clone(s).(*pb.TableSchema)
	SetScope(s, ScopeGlobal)
	if !ScopeMatches(s, true) || !reflect.DeepEqual(ReplicatedFamilies(s), []string{"a", "b"}) {
		t.Fatalf("after SetScope(global): %v", s)
	}
	// Families in another order, scopes aside: the same table.
	other.ColumnFamilies[0], other.ColumnFamilies[1] = other.ColumnFamilies[1], other.ColumnFamilies[0]
	if !SameIgnoringScope(s, other) {
		t.Fatal("SameIgnoringScope = false for tables that differ in scope and family order only")
	}
	other.ColumnFamilies[0].Attributes[0].Second = []byte("3")
	if SameIgnoringScope(s, other) {
		t.Fatal("SameIgnoringScope = true for tables whose VERSIONS differ")
	}
	SetScope(s, ScopeLocal)
	if !ScopeMatches(s, false) || ReplicatedFamilies(s) != nil {
		t.Fatalf("after SetScope(local): %v", s)
	}
}
