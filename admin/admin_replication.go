package admin

import (
	"context"
	"errors"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// ReplicationPeerConfig is what a replication peer ships where: HBase's ReplicationPeerConfig.
// Only the families whose REPLICATION_SCOPE is 1 are ever shipped (EnableTableReplication sets
// it); the config then selects among them.
type ReplicationPeerConfig struct {
	// ClusterKey names the destination cluster: its ZooKeeper quorum hosts, client port and
	// parent znode, "zk1,zk2,zk3:2181:/hbase". Empty only with a ReplicationEndpoint that
	// ships elsewhere than to an HBase cluster. It cannot change once the peer exists.
	ClusterKey string
	// ReplicationEndpoint is the class name of a ReplicationEndpoint to ship with instead of
	// HBase's own; it must be on the region servers' class path. It cannot change either.
	ReplicationEndpoint string
	// ReplicateAll ships every user table except ExcludeNamespaces and ExcludeTableCFs. When
	// false (the zero value; HBase's Java builder defaults to true), only Namespaces and
	// TableCFs are shipped: nothing when both are empty.
	ReplicateAll bool
	// Namespaces whose tables are all shipped (ReplicateAll false).
	Namespaces []string
	// TableCFs are tables ("ns:table", or "table" in the default namespace) shipped with the
	// families listed, every family when the list is empty (ReplicateAll false). A table of a
	// namespace in Namespaces cannot be listed as well.
	TableCFs map[string][]string
	// ExcludeNamespaces and ExcludeTableCFs are not shipped (ReplicateAll true).
	ExcludeNamespaces []string
	ExcludeTableCFs   map[string][]string
	// Bandwidth bounds what each region server ships to the peer, in bytes a second; 0 is the
	// cluster's hbase.replication.source.per.peer.node.bandwidth (unbounded by default).
	Bandwidth int64
	// Serial ships each region's edits in the order they were written, across region moves,
	// splits and merges (slower).
	Serial bool
	// Configuration overrides the source's configuration for this peer (its endpoint, its
	// connection to the peer cluster).
	Configuration map[string]string
	// Data is the peer's opaque data, for a custom endpoint.
	Data map[string][]byte
}

// ReplicationPeer is a replication peer as the master lists it.
type ReplicationPeer struct {
	ID      string
	Enabled bool // a disabled peer keeps its place in the WALs and ships nothing until enabled
	Config  ReplicationPeerConfig
}

// wireConfig is cfg as internal/wire builds it (the same fields); nil stays nil.
func wireConfig(cfg *ReplicationPeerConfig) *wire.PeerConfig {
	if cfg == nil {
		return nil
	}
	w := wire.PeerConfig(*cfg)
	return &w
}

// AddReplicationPeer adds replication peer id with configuration cfg, enabled or disabled,
// and waits until every region server has it. A peer of that id already there gives
// hberr.ErrPeerExists; a configuration the master refuses (a bad cluster key, one naming this
// cluster, a class it cannot load...) hberr.ErrInvalidPeerConfig; an id that cannot be one
// (empty, '-', '/') hberr.ErrInvalidName.
func (a *Admin) AddReplicationPeer(ctx context.Context, id string, cfg *ReplicationPeerConfig, enabled bool) error {
	ctx, call := a.begin(ctx, "AddReplicationPeer", id, "")
	req, err := wire.AddPeerRequest(id, wireConfig(cfg), enabled)
	if err == nil {
		err = a.procedure(ctx, wire.MethodAddReplicationPeer, req, &pb.AddReplicationPeerResponse{}, a.peerExists(id, true))
	}
	return call.end(ctx, err)
}

// RemoveReplicationPeer removes replication peer id (hberr.ErrPeerNotFound when there is
// none) and waits until no region server ships to it.
func (a *Admin) RemoveReplicationPeer(ctx context.Context, id string) error {
	ctx, call := a.begin(ctx, "RemoveReplicationPeer", id, "")
	req, err := wire.RemovePeerRequest(id)
	if err == nil {
		err = a.procedure(ctx, wire.MethodRemoveReplicationPeer, req, &pb.RemoveReplicationPeerResponse{}, a.peerExists(id, false))
	}
	return call.end(ctx, err)
}

// EnableReplicationPeer enables replication peer id: its region servers ship what was written
// since it was disabled, then what comes. hberr.ErrPeerStateUnchanged when it is enabled.
func (a *Admin) EnableReplicationPeer(ctx context.Context, id string) error {
	ctx, call := a.begin(ctx, "EnableReplicationPeer", id, "")
	req, err := wire.EnablePeerRequest(id)
	if err == nil {
		err = a.procedure(ctx, wire.MethodEnableReplicationPeer, req, &pb.EnableReplicationPeerResponse{}, a.peerEnabledIs(id, true))
	}
	return call.end(ctx, err)
}

// DisableReplicationPeer disables replication peer id: its region servers stop shipping and
// keep their place in the WALs. hberr.ErrPeerStateUnchanged when it is disabled.
func (a *Admin) DisableReplicationPeer(ctx context.Context, id string) error {
	ctx, call := a.begin(ctx, "DisableReplicationPeer", id, "")
	req, err := wire.DisablePeerRequest(id)
	if err == nil {
		err = a.procedure(ctx, wire.MethodDisableReplicationPeer, req, &pb.DisableReplicationPeerResponse{}, a.peerEnabledIs(id, false))
	}
	return call.end(ctx, err)
}

// DescribeReplicationPeer returns the configuration of replication peer id
// (hberr.ErrPeerNotFound when there is none).
func (a *Admin) DescribeReplicationPeer(ctx context.Context, id string) (*ReplicationPeerConfig, error) {
	ctx, call := a.begin(ctx, "DescribeReplicationPeer", id, "")
	cfg, err := a.peerConfig(ctx, id)
	return cfg, call.end(ctx, err)
}

func (a *Admin) peerConfig(ctx context.Context, id string) (*ReplicationPeerConfig, error) {
	req, err := wire.PeerConfigRequest(id)
	if err != nil {
		return nil, err
	}
	resp := &pb.GetReplicationPeerConfigResponse{}
	if err := a.callMaster(ctx, wire.MethodGetReplicationPeerConfig, req, resp); err != nil {
		return nil, err
	}
	w, err := wire.ParsePeerConfig(resp.GetPeerConfig())
	if err != nil {
		return nil, err
	}
	cfg := ReplicationPeerConfig(w)
	return &cfg, nil
}

// UpdateReplicationPeerConfig replaces the configuration of replication peer id by cfg (whose
// cluster key and endpoint must be the peer's) and waits until every region server has it.
// The master keeps configuration keys cfg does not set. To change one setting, read the
// configuration with DescribeReplicationPeer, edit it and pass it here; the Append and Remove
// methods do that for table CFs and namespaces.
func (a *Admin) UpdateReplicationPeerConfig(ctx context.Context, id string, cfg *ReplicationPeerConfig) error {
	ctx, call := a.begin(ctx, "UpdateReplicationPeerConfig", id, "")
	return call.end(ctx, a.updatePeerConfig(ctx, id, cfg))
}

func (a *Admin) updatePeerConfig(ctx context.Context, id string, cfg *ReplicationPeerConfig) error {
	req, err := wire.UpdatePeerRequest(id, wireConfig(cfg))
	if err != nil {
		return err
	}
	return a.procedure(ctx, wire.MethodUpdateReplicationPeerConfig, req, &pb.UpdateReplicationPeerConfigResponse{}, nil)
}

// ListReplicationPeers returns every replication peer with its state and configuration, in
// the master's order.
func (a *Admin) ListReplicationPeers(ctx context.Context) ([]ReplicationPeer, error) {
	ctx, call := a.begin(ctx, "ListReplicationPeers", "", "")
	peers, err := a.listPeers(ctx)
	return peers, call.end(ctx, err)
}

func (a *Admin) listPeers(ctx context.Context) ([]ReplicationPeer, error) {
	resp := &pb.ListReplicationPeersResponse{}
	if err := a.callMaster(ctx, wire.MethodListReplicationPeers, wire.ListPeersRequest(), resp); err != nil {
		return nil, err
	}
	ws, err := wire.ParsePeers(resp)
	if err != nil {
		return nil, err
	}
	out := make([]ReplicationPeer, len(ws))
	for i, w := range ws {
		out[i] = ReplicationPeer{ID: w.ID, Enabled: w.Enabled, Config: ReplicationPeerConfig(w.Config)}
	}
	return out, nil
}

// ReplicationPeerEnabled reports whether replication peer id is enabled (hberr.ErrPeerNotFound
// when there is none).
func (a *Admin) ReplicationPeerEnabled(ctx context.Context, id string) (bool, error) {
	ctx, call := a.begin(ctx, "ReplicationPeerEnabled", id, "")
	on, err := a.peerEnabled(ctx, id)
	return on, call.end(ctx, err)
}

func (a *Admin) peerEnabled(ctx context.Context, id string) (bool, error) {
	req, err := wire.PeerStateRequest(id)
	if err != nil {
		return false, err
	}
	resp := &pb.GetReplicationPeerStateResponse{}
	if err := a.callMaster(ctx, wire.MethodIsReplicationPeerEnabled, req, resp); err != nil {
		return false, err
	}
	return resp.GetIsEnabled(), nil
}

// SetReplicationPeerModification switches the master's acceptance of peer changes on or off
// and returns whether it was on. While it is off, adding, removing, enabling, disabling and
// updating peers fail with hberr.ErrPeerModificationDisabled (an operator's freeze, during an
// upgrade for instance). Peer procedures already running go on: unlike the Java Admin's
// drainProcedures, this does not wait for them.
func (a *Admin) SetReplicationPeerModification(ctx context.Context, on bool) (prev bool, err error) {
	ctx, call := a.begin(ctx, "SetReplicationPeerModification", "", "")
	resp := &pb.ReplicationPeerModificationSwitchResponse{}
	if err := a.callMaster(ctx, wire.MethodReplicationPeerModificationSwitch, wire.PeerModificationSwitchRequest(on), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetPreviousValue(), call.end(ctx, nil)
}

// ReplicationPeerModificationEnabled reports whether the master accepts peer changes.
func (a *Admin) ReplicationPeerModificationEnabled(ctx context.Context) (bool, error) {
	ctx, call := a.begin(ctx, "ReplicationPeerModificationEnabled", "", "")
	resp := &pb.IsReplicationPeerModificationEnabledResponse{}
	if err := a.callMaster(ctx, wire.MethodIsReplicationPeerModificationEnabled, wire.PeerModificationEnabledRequest(), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetEnabled(), call.end(ctx, nil)
}

// peerExists is the check of a finished-and-forgotten add or remove procedure.
func (a *Admin) peerExists(id string, want bool) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		_, err := a.peerConfig(ctx, id)
		if errors.Is(err, hberr.ErrPeerNotFound) {
			return !want, nil
		}
		if err != nil {
			return false, err
		}
		return want, nil
	}
}

// peerEnabledIs is the check of a finished-and-forgotten enable or disable procedure.
func (a *Admin) peerEnabledIs(id string, want bool) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		on, err := a.peerEnabled(ctx, id)
		if err != nil {
			return false, err
		}
		return on == want, nil
	}
}
