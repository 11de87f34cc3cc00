package replicationtest

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/testkit"
)

// quietFloor is the least time a test waits before it says a row was not replicated. The
// waits are longer when replication was slower: see quietWait.
const quietFloor = 5 * time.Second

// quietWait is how long to wait for a row that must not arrive: ten times the slowest
// arrival seen so far in the test, at least quietFloor. With the launcher's retry settings
// (hbasetest.Options.PeerCluster: a source looks for new edits every 100 ms to 1 s) a
// replicated row arrives in about a second; a row still missing after ten times the longest
// arrival was not shipped.
func quietWait(slowest time.Duration) time.Duration { return max(quietFloor, 10*slowest) }

// TestReplicationPeerAgainstHBase follows one peer through its life and checks each call by
// what the peer cluster then holds: EnableTableReplication creates the table on the peer with
// the source's region boundaries and sets the families' scope; a row written on the source
// arrives on the peer; a row written while the peer is disabled does not, and arrives once it
// is enabled; table CFs narrowed to one family stop the other's cells, appended and removed
// again change what ships; a removed peer ships nothing. The listings agree with the Java
// Admin's at each step.
func TestReplicationPeerAgainstHBase(t *testing.T) {
	c := start(t)
	ctx := testkit.Context(t, 5*time.Minute)
	table := c.table(t, []string{"a", "b"}, []byte("m"))
	id := c.peerID(t)

	cfg := &admin.ReplicationPeerConfig{ClusterKey: c.cl.Peer.ClusterKey(), TableCFs: map[string][]string{table: nil}}
	if err := c.srcA.AddReplicationPeer(ctx, id, cfg, true); err != nil {
		t.Fatalf("AddReplicationPeer: %v", err)
	}
	c.sameListings(t, "after AddReplicationPeer", 1)

	// EnableTableReplication: the table appears on the peer cluster, split as on the source,
	// and every family of it on the source is replicated.
	if err := c.srcA.EnableTableReplication(ctx, table); err != nil {
		t.Fatalf("EnableTableReplication: %v", err)
	}
	regions, err := c.dstA.Regions(ctx, table)
	if err != nil {
		t.Fatalf("Regions on the peer: %v", err)
	}
	if len(regions) != 2 || string(regions[1].Start) != "m" {
		t.Fatalf("the table on the peer has %d regions (second from %q); want 2, split at \"m\"", len(regions), regions[min(1, len(regions)-1)].Start)
	}
	replicated, err := c.srcA.ListReplicatedTableCFs(ctx)
	if err != nil {
		t.Fatalf("ListReplicatedTableCFs: %v", err)
	}
	if got := replicated[table]; !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("ListReplicatedTableCFs[%s] = %q; want [a b]", table, got)
	}

	// Enabled: rows on both sides of the split arrive.
	var slowest time.Duration
	c.put(t, table, "r1", "a", "v1")
	c.put(t, table, "z1", "b", "v1")
	slowest = max(slowest, c.waitOnPeer(t, table, "r1", "a", time.Minute))
	slowest = max(slowest, c.waitOnPeer(t, table, "z1", "b", time.Minute))
	t.Logf("enabled peer: rows arrived within %v", slowest)

	// Disabled: nothing arrives; enabled again, what was written meanwhile does.
	if err := c.srcA.DisableReplicationPeer(ctx, id); err != nil {
		t.Fatalf("DisableReplicationPeer: %v", err)
	}
	if on, err := c.srcA.ReplicationPeerEnabled(ctx, id); err != nil || on {
		t.Fatalf("ReplicationPeerEnabled after disabling = %v, %v; want false", on, err)
	}
	c.sameListings(t, "after DisableReplicationPeer", 1)
	c.put(t, table, "r2", "a", "v2")
	wait := quietWait(slowest)
	time.Sleep(wait)
	c.notOnPeer(t, table, "r2", "a")
	t.Logf("disabled peer: r2 absent from the peer %v after its write", wait)
	if err := c.srcA.EnableReplicationPeer(ctx, id); err != nil {
		t.Fatalf("EnableReplicationPeer: %v", err)
	}
	took := c.waitOnPeer(t, table, "r2", "a", time.Minute)
	slowest = max(slowest, took)
	t.Logf("enabled again: r2 arrived %v after EnableReplicationPeer returned", took)

	// Table CFs narrowed to family a: a cell of b written before a cell of a (same region,
	// so shipped in that order) is not on the peer once the a cell is.
	cfg.TableCFs = map[string][]string{table: {"a"}}
	if err := c.srcA.UpdateReplicationPeerConfig(ctx, id, cfg); err != nil {
		t.Fatalf("UpdateReplicationPeerConfig: %v", err)
	}
	c.sameListings(t, "after UpdateReplicationPeerConfig", 1)
	c.put(t, table, "r3", "b", "v3")
	c.put(t, table, "r4", "a", "v4")
	slowest = max(slowest, c.waitOnPeer(t, table, "r4", "a", time.Minute))
	c.notOnPeer(t, table, "r3", "b")

	// Family b appended: its cells ship again.
	if err := c.srcA.AppendReplicationPeerTableCFs(ctx, id, map[string][]string{table: {"b"}}); err != nil {
		t.Fatalf("AppendReplicationPeerTableCFs: %v", err)
	}
	got, err := c.srcA.DescribeReplicationPeer(ctx, id)
	if err != nil {
		t.Fatalf("DescribeReplicationPeer: %v", err)
	}
	if !reflect.DeepEqual(got.TableCFs, map[string][]string{table: {"a", "b"}}) {
		t.Fatalf("table CFs after appending b = %v; want %s: [a b]", got.TableCFs, table)
	}
	c.put(t, table, "r5", "b", "v5")
	slowest = max(slowest, c.waitOnPeer(t, table, "r5", "b", time.Minute))

	// Family a removed: b ships, a does not (a written first).
	if err := c.srcA.RemoveReplicationPeerTableCFs(ctx, id, map[string][]string{table: {"a"}}); err != nil {
		t.Fatalf("RemoveReplicationPeerTableCFs: %v", err)
	}
	c.sameListings(t, "after RemoveReplicationPeerTableCFs", 1)
	c.put(t, table, "r6", "a", "v6")
	c.put(t, table, "r7", "b", "v7")
	slowest = max(slowest, c.waitOnPeer(t, table, "r7", "b", time.Minute))
	c.notOnPeer(t, table, "r6", "a")

	// Removed: nothing ships any more.
	if err := c.srcA.RemoveReplicationPeer(ctx, id); err != nil {
		t.Fatalf("RemoveReplicationPeer: %v", err)
	}
	c.sameListings(t, "after RemoveReplicationPeer", 0)
	c.put(t, table, "r8", "b", "v8")
	wait = quietWait(slowest)
	time.Sleep(wait)
	c.notOnPeer(t, table, "r8", "b")
	t.Logf("removed peer: r8 absent from the peer %v after its write (slowest arrival %v)", wait, slowest)
}

// sameListings fails the test unless go-hbase's listing of the peers equals the Java Admin's
// and holds n peers.
func (c *clusters) sameListings(t *testing.T, when string, n int) {
	t.Helper()
	ours, java := c.listings(t)
	if !reflect.DeepEqual(ours, java) {
		t.Fatalf("%s: ListReplicationPeers = %+v; the Java Admin lists %+v", when, ours, java)
	}
	if len(ours) != n {
		t.Fatalf("%s: %d peers listed; want %d", when, len(ours), n)
	}
}

// TestReplicationPeerListingAgainstHBase lists peers of every setting and compares each with
// the Java Admin's listReplicationPeers on the same cluster: replicate-all with excluded
// namespaces and table CFs, bandwidth, serial, configuration and peer data; namespaces and
// table CFs; states. An update keeps configuration keys it does not set, in both listings.
func TestReplicationPeerListingAgainstHBase(t *testing.T) {
	c := start(t)
	ctx := testkit.Context(t, 3*time.Minute)
	key := c.cl.Peer.ClusterKey()
	all, listed := c.peerID(t), c.peerID(t)
	// Disabled or shipping a namespace without tables, so that they ship nothing other tests
	// would see.
	if err := c.srcA.AddReplicationPeer(ctx, all, &admin.ReplicationPeerConfig{
		ClusterKey: key, ReplicateAll: true,
		ExcludeNamespaces: []string{"hbase", "skipped"},
		ExcludeTableCFs:   map[string][]string{"ns1:t1": nil, "t2": {"f2", "f,1"}},
		Bandwidth:         1 << 20, Serial: true,
		Configuration: map[string]string{"hbase.replication.source.maxthreads": "2", "k=": "v,1"},
		Data:          map[string][]byte{"\x00key": {0xff, 0}},
	}, false); err != nil {
		t.Fatalf("AddReplicationPeer(replicate all): %v", err)
	}
	if err := c.srcA.AddReplicationPeer(ctx, listed, &admin.ReplicationPeerConfig{
		ClusterKey: key,
		Namespaces: []string{"nothing_here"},
		TableCFs:   map[string][]string{"nothing_ns:t": {"a"}},
	}, true); err != nil {
		t.Fatalf("AddReplicationPeer(namespaces and tables): %v", err)
	}
	c.sameListings(t, "two peers", 2)
	got, err := c.srcA.DescribeReplicationPeer(ctx, all)
	if err != nil {
		t.Fatalf("DescribeReplicationPeer: %v", err)
	}
	ours, _ := c.listings(t)
	if i := slices.IndexFunc(ours, func(p hbasetest.ReplicationPeer) bool { return p.ID == all }); i < 0 ||
		!reflect.DeepEqual(javaView(admin.ReplicationPeer{ID: all, Enabled: false, Config: *got}), ours[i]) {
		t.Fatalf("DescribeReplicationPeer(%s) = %+v; the listing has %+v", all, got, ours)
	}

	// An update replaces the config but keeps configuration keys it does not set.
	got.Configuration = map[string]string{"added": "1"}
	got.ExcludeNamespaces = []string{"hbase"}
	if err := c.srcA.UpdateReplicationPeerConfig(ctx, all, got); err != nil {
		t.Fatalf("UpdateReplicationPeerConfig: %v", err)
	}
	after, err := c.srcA.DescribeReplicationPeer(ctx, all)
	if err != nil {
		t.Fatalf("DescribeReplicationPeer: %v", err)
	}
	if len(after.Configuration) != 3 || after.Configuration["added"] != "1" || after.Configuration["k="] != "v,1" {
		t.Fatalf("configuration after the update = %v; want the old keys and added=1", after.Configuration)
	}
	if !reflect.DeepEqual(after.ExcludeNamespaces, []string{"hbase"}) {
		t.Fatalf("exclude namespaces after the update = %v; want [hbase]", after.ExcludeNamespaces)
	}
	if err := c.srcA.AppendReplicationPeerNamespaces(ctx, listed, "ns_b", "ns_a"); err != nil {
		t.Fatalf("AppendReplicationPeerNamespaces: %v", err)
	}
	if err := c.srcA.RemoveReplicationPeerNamespaces(ctx, listed, "nothing_here", "never_there"); err != nil {
		t.Fatalf("RemoveReplicationPeerNamespaces: %v", err)
	}
	if p, err := c.srcA.DescribeReplicationPeer(ctx, listed); err != nil || !reflect.DeepEqual(p.Namespaces, []string{"ns_a", "ns_b"}) {
		t.Fatalf("namespaces after append and remove = %v, %v; want [ns_a ns_b]", p, err)
	}
	c.sameListings(t, "after the updates", 2)
}
