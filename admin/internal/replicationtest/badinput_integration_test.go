package replicationtest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

// TestReplicationBadInputAgainstHBase sends each wrong peer call and checks that it fails
// with the sentinel of what was wrong, that its message names it, and that the peers are as
// they were, in go-hbase's listing and in the Java Admin's. The errors are logged verbatim
// (docs/replication.md shows them).
func TestReplicationBadInputAgainstHBase(t *testing.T) {
	c := start(t)
	ctx := testkit.Context(t, 5*time.Minute)
	key := c.cl.Peer.ClusterKey()

	// With no peer at all, EnableTableReplication has nowhere to replicate to.
	if ours, _ := c.listings(t); len(ours) != 0 {
		t.Fatalf("peers left by another test: %+v", ours)
	}
	table := c.table(t, []string{"f"})
	err := c.srcA.EnableTableReplication(ctx, table)
	c.expect(t, "EnableTableReplication without peers", err, hberr.ErrPeerNotFound, table)
	c.notReplicated(t, table)

	existing := c.peerID(t)
	if err := c.srcA.AddReplicationPeer(ctx, existing, &admin.ReplicationPeerConfig{ClusterKey: key, Namespaces: []string{"bad_input_only"}}, false); err != nil {
		t.Fatalf("AddReplicationPeer: %v", err)
	}
	fresh := "never_added"
	good := &admin.ReplicationPeerConfig{ClusterKey: key}
	for _, tc := range []struct {
		name  string
		call  func(context.Context) error
		want  error
		names string // what the message must name
	}{
		{"empty peer id", func(ctx context.Context) error { return c.srcA.AddReplicationPeer(ctx, "", good, true) }, hberr.ErrInvalidName, "empty replication peer id"},
		{"peer id with '-'", func(ctx context.Context) error { return c.srcA.AddReplicationPeer(ctx, "a-b", good, true) }, hberr.ErrInvalidName, `"a-b"`},
		{"existing peer id", func(ctx context.Context) error { return c.srcA.AddReplicationPeer(ctx, existing, good, true) }, hberr.ErrPeerExists, existing},
		{"bad cluster key", func(ctx context.Context) error {
			return c.srcA.AddReplicationPeer(ctx, fresh, &admin.ReplicationPeerConfig{ClusterKey: "not-a-cluster-key"}, true)
		}, hberr.ErrInvalidPeerConfig, "not-a-cluster-key"},
		{"the cluster itself", func(ctx context.Context) error {
			return c.srcA.AddReplicationPeer(ctx, fresh, &admin.ReplicationPeerConfig{ClusterKey: c.cl.ZKQuorum + ":" + c.cl.ZNodeParent}, true)
		}, hberr.ErrInvalidPeerConfig, "itself"},
		{"no cluster key nor endpoint", func(ctx context.Context) error {
			return c.srcA.AddReplicationPeer(ctx, fresh, &admin.ReplicationPeerConfig{}, true)
		}, hberr.ErrInvalidPeerConfig, "cluster key"},
		{"replicate-all with namespaces", func(ctx context.Context) error {
			return c.srcA.AddReplicationPeer(ctx, fresh, &admin.ReplicationPeerConfig{ClusterKey: key, ReplicateAll: true, Namespaces: []string{"ns"}}, true)
		}, hberr.ErrInvalidPeerConfig, "namespaces"},
		{"endpoint class not found", func(ctx context.Context) error {
			return c.srcA.AddReplicationPeer(ctx, fresh, &admin.ReplicationPeerConfig{ClusterKey: key, ReplicationEndpoint: "org.example.NoSuchEndpoint"}, true)
		}, hberr.ErrInvalidPeerConfig, "org.example.NoSuchEndpoint"},
		{"remove unknown peer", func(ctx context.Context) error { return c.srcA.RemoveReplicationPeer(ctx, fresh) }, hberr.ErrPeerNotFound, fresh},
		{"enable unknown peer", func(ctx context.Context) error { return c.srcA.EnableReplicationPeer(ctx, fresh) }, hberr.ErrPeerNotFound, fresh},
		{"describe unknown peer", func(ctx context.Context) error { _, err := c.srcA.DescribeReplicationPeer(ctx, fresh); return err }, hberr.ErrPeerNotFound, fresh},
		{"update unknown peer", func(ctx context.Context) error { return c.srcA.UpdateReplicationPeerConfig(ctx, fresh, good) }, hberr.ErrPeerNotFound, fresh},
		{"disable a disabled peer", func(ctx context.Context) error { return c.srcA.DisableReplicationPeer(ctx, existing) }, hberr.ErrPeerStateUnchanged, existing},
		{"change the cluster key", func(ctx context.Context) error {
			return c.srcA.UpdateReplicationPeerConfig(ctx, existing, &admin.ReplicationPeerConfig{ClusterKey: key + "x", Namespaces: []string{"bad_input_only"}})
		}, hberr.ErrInvalidPeerConfig, key + "x"},
		{"remove table CFs the peer does not list", func(ctx context.Context) error {
			return c.srcA.RemoveReplicationPeerTableCFs(ctx, existing, map[string][]string{table: nil})
		}, hberr.ErrInvalidPeerConfig, existing},
		{"append table CFs with a bad family", func(ctx context.Context) error {
			return c.srcA.AppendReplicationPeerTableCFs(ctx, existing, map[string][]string{table: {"a:b"}})
		}, hberr.ErrInvalidName, `"a:b"`},
		{"EnableTableReplication of a missing table", func(ctx context.Context) error {
			return c.srcA.EnableTableReplication(ctx, "no_such_table")
		}, hberr.ErrTableNotFound, "no_such_table"},
	} {
		before, beforeJava := c.listings(t)
		err := tc.call(ctx)
		c.expect(t, tc.name, err, tc.want, tc.names)
		after, afterJava := c.listings(t)
		if !reflect.DeepEqual(before, after) || !reflect.DeepEqual(beforeJava, afterJava) {
			t.Errorf("%s changed the peers: before %+v (Java %+v), after %+v (Java %+v)", tc.name, before, beforeJava, after, afterJava)
		}
	}

	// The peer modification switch off: no change goes through until it is on again.
	prev, err := c.srcA.SetReplicationPeerModification(ctx, false)
	if err != nil || !prev {
		t.Fatalf("SetReplicationPeerModification(false) = %v, %v; want it was on", prev, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = c.srcA.SetReplicationPeerModification(ctx, true)
	})
	if on, err := c.srcA.ReplicationPeerModificationEnabled(ctx); err != nil || on {
		t.Fatalf("ReplicationPeerModificationEnabled = %v, %v; want false", on, err)
	}
	before, _ := c.listings(t)
	err = c.srcA.AddReplicationPeer(ctx, fresh, good, true)
	c.expect(t, "add while peer modification is off", err, hberr.ErrPeerModificationDisabled, "")
	err = c.srcA.EnableReplicationPeer(ctx, existing)
	c.expect(t, "enable while peer modification is off", err, hberr.ErrPeerModificationDisabled, "")
	if after, _ := c.listings(t); !reflect.DeepEqual(before, after) {
		t.Fatalf("peers changed while peer modification was off: %+v, then %+v", before, after)
	}
	if prev, err := c.srcA.SetReplicationPeerModification(ctx, true); err != nil || prev {
		t.Fatalf("SetReplicationPeerModification(true) = %v, %v; want it was off", prev, err)
	}
}

// TestEnableTableReplicationMismatchAgainstHBase: a table of the same name but other families
// on the peer cluster is refused, and the source's scopes stay as they were.
func TestEnableTableReplicationMismatchAgainstHBase(t *testing.T) {
	c := start(t)
	ctx := testkit.Context(t, 3*time.Minute)
	table := c.table(t, []string{"f"})
	desc, err := hrpc.NewTableDescriptor(table, hrpc.WithFamily("other"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.dstA.CreateTable(ctx, desc); err != nil {
		t.Fatalf("CreateTable on the peer: %v", err)
	}
	id := c.peerID(t)
	if err := c.srcA.AddReplicationPeer(ctx, id, &admin.ReplicationPeerConfig{ClusterKey: c.cl.Peer.ClusterKey(), TableCFs: map[string][]string{table: nil}}, false); err != nil {
		t.Fatalf("AddReplicationPeer: %v", err)
	}
	err = c.srcA.EnableTableReplication(ctx, table)
	c.expect(t, "EnableTableReplication of a table the peer has otherwise", err, hberr.ErrPeerTableMismatch, table)
	c.notReplicated(t, table)
}

// expect fails the test unless err is want and its message contains names; it logs err.
func (c *clusters) expect(t *testing.T, what string, err, want error, names string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: err = %v; want %v", what, err, want)
		return
	}
	if !strings.Contains(err.Error(), names) {
		t.Errorf("%s: %q does not name %q", what, err, names)
	}
	t.Logf("%s: %v", what, err)
}

// notReplicated fails the test if a family of table is replicated on the source.
func (c *clusters) notReplicated(t *testing.T, table string) {
	t.Helper()
	got, err := c.srcA.ListReplicatedTableCFs(testkit.Context(t, time.Minute))
	if err != nil {
		t.Fatalf("ListReplicatedTableCFs: %v", err)
	}
	if fams, ok := got[table]; ok {
		t.Fatalf("%s has replicated families %q; want none", table, fams)
	}
}
