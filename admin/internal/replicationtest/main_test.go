// Package replicationtest tests package admin's replication calls against two real clusters:
// a source and its peer, both in one launcher JVM (hbasetest.Options.PeerCluster). It holds
// tests only; it is a package of its own so that the admin package's cluster does not carry
// the peer cluster.
package replicationtest

import (
	"context"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

// One source cluster with one region server and its peer, started on first use and stopped
// by TestMain; -short or GOHBASE_SKIP_CLUSTER=1 skips the tests.
var (
	env   = testkit.New(hbasetest.Options{PeerCluster: true})
	peers atomic.Int64 // numbers the peer ids the tests make
)

func TestMain(m *testing.M) { os.Exit(env.Run(m)) }

// clusters are the two clusters, with a client and an Admin of each, closed when the test ends.
type clusters struct {
	cl         *hbasetest.Cluster
	src, dst   *hbase.Client
	srcA, dstA *admin.Admin
}

func start(t *testing.T) *clusters {
	t.Helper()
	cl := env.Cluster(t)
	c := &clusters{cl: cl}
	c.src = newClient(t, cl.ZKQuorum, cl.ZNodeParent)
	c.dst = newClient(t, cl.Peer.ZKQuorum, cl.Peer.ZNodeParent)
	c.srcA, c.dstA = admin.New(c.src), admin.New(c.dst)
	return c
}

func newClient(t *testing.T, quorum, parent string) *hbase.Client {
	t.Helper()
	c, err := hbase.NewClient(quorum, hbase.WithZNodeParent(parent))
	if err != nil {
		t.Fatalf("NewClient(%s %s): %v", quorum, parent, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// peerID returns a fresh peer id, and removes the peer of that id (if any) when the test ends.
func (c *clusters) peerID(t *testing.T) string {
	id := "p" + strconv.FormatInt(peers.Add(1), 10)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = c.srcA.RemoveReplicationPeer(ctx, id)
	})
	return id
}

// table creates a table on the source cluster, split at splits, and drops it (on both
// clusters) when the test ends.
func (c *clusters) table(t *testing.T, families []string, splits ...[]byte) string {
	t.Helper()
	name := env.Name(t, "r")
	var opts []hrpc.TableOption
	for _, f := range families {
		opts = append(opts, hrpc.WithFamily(f))
	}
	desc, err := hrpc.NewTableDescriptor(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testkit.Context(t, 2*time.Minute)
	var copts []hrpc.CreateTableOption
	if len(splits) > 0 {
		copts = append(copts, hrpc.SplitKeys(splits...))
	}
	if err := c.srcA.CreateTable(ctx, desc, copts...); err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, a := range []*admin.Admin{c.srcA, c.dstA} {
			_ = a.DisableTable(ctx, name)
			_ = a.DeleteTable(ctx, name)
		}
	})
	return name
}

// put writes family:q = value at row on the source cluster.
func (c *clusters) put(t *testing.T, table, row, family, value string) {
	t.Helper()
	p, err := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte(family), []byte("q"), []byte(value)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.src.Put(testkit.Context(t, 30*time.Second), p); err != nil {
		t.Fatalf("Put %s/%s on the source: %v", table, row, err)
	}
}

// onPeer returns the families of row that the peer cluster has (sorted).
func (c *clusters) onPeer(ctx context.Context, table, row string) ([]string, error) {
	g, err := hrpc.NewGet(table, []byte(row))
	if err != nil {
		return nil, err
	}
	res, err := c.dst.Get(ctx, g)
	if err != nil {
		return nil, err
	}
	var fams []string
	for _, cell := range res.Cells {
		fams = append(fams, string(cell.Family))
	}
	slices.Sort(fams)
	return slices.Compact(fams), nil
}

// waitOnPeer waits until the peer cluster has family of row, and returns how long it took.
func (c *clusters) waitOnPeer(t *testing.T, table, row, family string, limit time.Duration) time.Duration {
	t.Helper()
	began := time.Now()
	ctx := testkit.Context(t, limit)
	for {
		fams, err := c.onPeer(ctx, table, row)
		if err == nil && slices.Contains(fams, family) {
			return time.Since(began)
		}
		if ctx.Err() != nil {
			t.Fatalf("row %s/%s family %s not on the peer cluster after %v (last: %v, %v)", table, row, family, limit, fams, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// notOnPeer fails the test if row has a cell of family on the peer cluster.
func (c *clusters) notOnPeer(t *testing.T, table, row, family string) {
	t.Helper()
	fams, err := c.onPeer(testkit.Context(t, 30*time.Second), table, row)
	if err != nil {
		t.Fatalf("Get %s/%s on the peer: %v", table, row, err)
	}
	if slices.Contains(fams, family) {
		t.Fatalf("row %s/%s family %s is on the peer cluster; it must not have been replicated", table, row, family)
	}
}

// javaView is a peer as hbasetest lists the Java Admin's, for comparing.
func javaView(p admin.ReplicationPeer) hbasetest.ReplicationPeer {
	c := p.Config
	return hbasetest.ReplicationPeer{
		ID: p.ID, Enabled: p.Enabled, ClusterKey: c.ClusterKey, Endpoint: c.ReplicationEndpoint,
		ReplicateAll: c.ReplicateAll, Serial: c.Serial, Bandwidth: c.Bandwidth,
		Namespaces: c.Namespaces, ExcludeNamespaces: c.ExcludeNamespaces,
		TableCFs: c.TableCFs, ExcludeTableCFs: c.ExcludeTableCFs,
		Configuration: c.Configuration, Data: c.Data,
	}
}

// listings returns the peers as go-hbase lists them and as the Java Admin does, both sorted by
// id, in the same shape.
func (c *clusters) listings(t *testing.T) (ours, java []hbasetest.ReplicationPeer) {
	t.Helper()
	ctx := testkit.Context(t, time.Minute)
	got, err := c.srcA.ListReplicationPeers(ctx)
	if err != nil {
		t.Fatalf("ListReplicationPeers: %v", err)
	}
	for _, p := range got {
		ours = append(ours, javaView(p))
	}
	java, err = c.cl.ReplicationPeers(ctx)
	if err != nil {
		t.Fatalf("the Java Admin's listReplicationPeers: %v", err)
	}
	byID := func(s []hbasetest.ReplicationPeer) {
		sort.Slice(s, func(i, j int) bool { return s[i].ID < s[j].ID })
	}
	byID(ours)
	byID(java)
	return ours, java
}
