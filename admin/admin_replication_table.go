package admin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// EnableTableReplication switches table's replication on, as the Java Admin's
// enableTableReplication does: on each peer cluster that the peers shipping the table name by
// cluster key, it creates the table with the same descriptor and region boundaries when the
// table is not there (hberr.ErrPeerTableMismatch when it is there with another descriptor,
// replication scopes aside); then it sets REPLICATION_SCOPE to 1 on every family of the table,
// unless every family has it already. There must be at least one replication peer
// (hberr.ErrPeerNotFound). Peers without a cluster key (a custom endpoint) are left alone.
//
// It reaches a peer cluster with hbase.NewClient(quorum, hbase.WithZNodeParent(parent),
// peerOpts...), the quorum and parent read from the cluster key: peerOpts are what that
// cluster needs besides (Kerberos, TLS...).
func (a *Admin) EnableTableReplication(ctx context.Context, table string, peerOpts ...hbase.Option) error {
	ctx, call := a.begin(ctx, "EnableTableReplication", table, table)
	return call.end(ctx, a.enableTableReplication(ctx, table, peerOpts))
}

func (a *Admin) enableTableReplication(ctx context.Context, table string, peerOpts []hbase.Option) error {
	desc, err := a.describeTable(ctx, table)
	if err != nil {
		return err
	}
	regions, err := a.regions(ctx, table)
	if err != nil {
		return err
	}
	var splits [][]byte
	for _, r := range regions[min(1, len(regions)):] {
		splits = append(splits, r.Start)
	}
	peers, err := a.listPeers(ctx)
	if err != nil {
		return err
	}
	if len(peers) == 0 {
		return fmt.Errorf("%w: there is no replication peer to replicate %q to", hberr.ErrPeerNotFound, table)
	}
	name, err := canonTable(table)
	if err != nil {
		return err
	}
	for _, p := range peers {
		if p.Config.ClusterKey == "" || !p.Config.needToReplicate(name) {
			continue
		}
		if err := a.syncTableToPeer(ctx, p, desc, splits, peerOpts); err != nil {
			return fmt.Errorf("replication peer %q: %w", p.ID, err)
		}
	}
	return a.setTableReplication(ctx, table, true)
}

// syncTableToPeer creates desc on the cluster of peer p, or checks that its table is the same.
func (a *Admin) syncTableToPeer(ctx context.Context, p ReplicationPeer, desc *hrpc.TableDescriptor, splits [][]byte, peerOpts []hbase.Option) error {
	quorum, parent, err := wire.ParseClusterKey(p.Config.ClusterKey)
	if err != nil {
		return err
	}
	c, err := hbase.NewClient(quorum, append([]hbase.Option{hbase.WithZNodeParent(parent)}, peerOpts...)...)
	if err != nil {
		return fmt.Errorf("connecting to the peer cluster %s: %w", p.Config.ClusterKey, err)
	}
	defer c.Close()
	peer := New(c)
	theirs, err := peer.describeTable(ctx, desc.Name)
	switch {
	case err == nil:
		ours, err := hrpcwire.TableSchema(desc)
		if err != nil {
			return err
		}
		other, err := hrpcwire.TableSchema(theirs)
		if err != nil {
			return err
		}
		if !wire.SameIgnoringScope(ours, other) {
			return fmt.Errorf("%w: table %q on cluster %s", hberr.ErrPeerTableMismatch, desc.Name, p.Config.ClusterKey)
		}
		return nil
	case !errors.Is(err, hberr.ErrTableNotFound):
		return err
	}
	var opts []hrpc.CreateTableOption
	if len(splits) > 0 {
		opts = append(opts, hrpc.SplitKeys(splits...))
	}
	if err := peer.CreateTable(ctx, desc, opts...); err != nil {
		return fmt.Errorf("creating the table on cluster %s: %w", p.Config.ClusterKey, err)
	}
	return nil
}

// DisableTableReplication switches table's replication off: REPLICATION_SCOPE 0 on every
// family, unless no family has another. The peers keep their configuration.
func (a *Admin) DisableTableReplication(ctx context.Context, table string) error {
	ctx, call := a.begin(ctx, "DisableTableReplication", table, table)
	return call.end(ctx, a.setTableReplication(ctx, table, false))
}

// setTableReplication sets every family's scope to global (on) or local, unless they all are.
func (a *Admin) setTableReplication(ctx context.Context, table string, on bool) error {
	desc, err := a.describeTable(ctx, table)
	if err != nil {
		return err
	}
	s, err := hrpcwire.TableSchema(desc)
	if err != nil {
		return err
	}
	if wire.ScopeMatches(s, on) {
		return nil
	}
	scope := wire.ScopeLocal
	if on {
		scope = wire.ScopeGlobal
	}
	wire.SetScope(s, scope)
	return a.procedure(ctx, wire.MethodModifyTable, wire.ModifyTableRequest(s, a.nonce()), &pb.ModifyTableResponse{}, nil)
}

// ListReplicatedTableCFs returns the user tables some of whose families are replicated
// (REPLICATION_SCOPE not 0), each with those families: the Java Admin's listReplicatedTableCFs.
func (a *Admin) ListReplicatedTableCFs(ctx context.Context) (map[string][]string, error) {
	ctx, call := a.begin(ctx, "ListReplicatedTableCFs", "", "")
	resp := &pb.GetTableDescriptorsResponse{}
	if err := a.callMaster(ctx, wire.MethodGetTableDescriptors, wire.AllTableDescriptorsRequest(), resp); err != nil {
		return nil, call.end(ctx, err)
	}
	out := make(map[string][]string)
	for _, s := range resp.GetTableSchema() {
		if fams := wire.ReplicatedFamilies(s); len(fams) > 0 {
			slices.Sort(fams)
			out[wire.TableNameString(s.GetTableName())] = fams
		}
	}
	return out, call.end(ctx, nil)
}

// needToReplicate reports whether c ships some family of table (named as the master lists
// tables), as HBase's ReplicationPeerConfig.needToReplicate(table).
func (c *ReplicationPeerConfig) needToReplicate(table string) bool {
	ns := wire.DefaultNamespace
	if i := strings.IndexByte(table, ':'); i >= 0 {
		ns = table[:i]
	}
	if c.ReplicateAll {
		if slices.Contains(c.ExcludeNamespaces, ns) {
			return false
		}
		fams, excluded := c.ExcludeTableCFs[table]
		// A table excluded with some of its families still ships the others.
		return !excluded || len(fams) > 0
	}
	if slices.Contains(c.Namespaces, ns) {
		return true
	}
	_, listed := c.TableCFs[table]
	return listed
}
