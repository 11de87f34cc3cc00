package fakehbase_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
)

// The replication peer calls are not served: each fails at once with hberr.ErrNotSupported,
// naming the MasterService method it needed (the package doc lists them).
func TestReplicationPeersNotSupported(t *testing.T) {
	_, c := setup(t)
	adm := admin.New(c)
	cfg := &admin.ReplicationPeerConfig{ClusterKey: "127.0.0.1:2181:/hbase"}
	for _, tc := range []struct {
		method string
		call   func(context.Context) error
	}{
		{"AddReplicationPeer", func(ctx context.Context) error { return adm.AddReplicationPeer(ctx, "1", cfg, true) }},
		{"RemoveReplicationPeer", func(ctx context.Context) error { return adm.RemoveReplicationPeer(ctx, "1") }},
		{"EnableReplicationPeer", func(ctx context.Context) error { return adm.EnableReplicationPeer(ctx, "1") }},
		{"DisableReplicationPeer", func(ctx context.Context) error { return adm.DisableReplicationPeer(ctx, "1") }},
		{"GetReplicationPeerConfig", func(ctx context.Context) error { _, err := adm.DescribeReplicationPeer(ctx, "1"); return err }},
		{"UpdateReplicationPeerConfig", func(ctx context.Context) error { return adm.UpdateReplicationPeerConfig(ctx, "1", cfg) }},
		{"GetReplicationPeerConfig", func(ctx context.Context) error {
			return adm.AppendReplicationPeerTableCFs(ctx, "1", map[string][]string{"t": nil})
		}},
		{"GetReplicationPeerConfig", func(ctx context.Context) error { return adm.AppendReplicationPeerNamespaces(ctx, "1", "ns") }},
		{"ListReplicationPeers", func(ctx context.Context) error { _, err := adm.ListReplicationPeers(ctx); return err }},
		{"IsReplicationPeerEnabled", func(ctx context.Context) error { _, err := adm.ReplicationPeerEnabled(ctx, "1"); return err }},
		{"ReplicationPeerModificationSwitch", func(ctx context.Context) error {
			_, err := adm.SetReplicationPeerModification(ctx, false)
			return err
		}},
		{"IsReplicationPeerModificationEnabled", func(ctx context.Context) error {
			_, err := adm.ReplicationPeerModificationEnabled(ctx)
			return err
		}},
		{"ListReplicationPeers", func(ctx context.Context) error { return adm.EnableTableReplication(ctx, "t") }},
	} {
		began := time.Now()
		err := tc.call(ctxT(t, 10*time.Second))
		if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "MasterService."+tc.method+" is not supported") {
			t.Errorf("%s: err = %v; want ErrNotSupported naming MasterService.%s", tc.method, err, tc.method)
		}
		if d := time.Since(began); d > 2*time.Second {
			t.Errorf("%s failed after %v; want at once", tc.method, d)
		}
	}
}
