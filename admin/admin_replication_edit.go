package admin

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
)

// The edits of a peer's table CFs and namespaces read the peer's configuration, change it and
// update the peer with it, as the Java Admin does: two edits of one peer at the same time may
// lose one of them.

// AppendReplicationPeerTableCFs adds tables, and families of tables, to what replication peer
// id ships (its ReplicateAll must be false): a table without families ships all of them, and
// stays so when families of it are appended.
func (a *Admin) AppendReplicationPeerTableCFs(ctx context.Context, id string, tableCFs map[string][]string) error {
	ctx, call := a.begin(ctx, "AppendReplicationPeerTableCFs", id, "")
	err := a.editPeer(ctx, id, func(cfg *ReplicationPeerConfig) error {
		add, err := canonTableCFs(tableCFs)
		if err != nil {
			return err
		}
		cfg.TableCFs = appendTableCFs(cfg.TableCFs, add)
		return nil
	})
	return call.end(ctx, err)
}

// RemoveReplicationPeerTableCFs removes tables, and families of tables, from what replication
// peer id ships, as the Java Admin does: a table listed without families is removed whole
// (and must be listed so in the peer), families are removed one by one (the table goes when
// none is left), and a table the peer does not list is an error. Every refusal is
// hberr.ErrInvalidPeerConfig and leaves the peer as it was.
func (a *Admin) RemoveReplicationPeerTableCFs(ctx context.Context, id string, tableCFs map[string][]string) error {
	ctx, call := a.begin(ctx, "RemoveReplicationPeerTableCFs", id, "")
	err := a.editPeer(ctx, id, func(cfg *ReplicationPeerConfig) error {
		rm, err := canonTableCFs(tableCFs)
		if err != nil {
			return err
		}
		cfg.TableCFs, err = removeTableCFs(id, cfg.TableCFs, rm)
		return err
	})
	return call.end(ctx, err)
}

// AppendReplicationPeerNamespaces adds namespaces to what replication peer id ships (its
// ReplicateAll must be false), as the shell's append_peer_namespaces.
func (a *Admin) AppendReplicationPeerNamespaces(ctx context.Context, id string, namespaces ...string) error {
	ctx, call := a.begin(ctx, "AppendReplicationPeerNamespaces", id, "")
	err := a.editPeer(ctx, id, func(cfg *ReplicationPeerConfig) error {
		if err := checkNamespaces(namespaces); err != nil {
			return err
		}
		cfg.Namespaces = slices.Compact(slices.Sorted(slices.Values(append(cfg.Namespaces, namespaces...))))
		return nil
	})
	return call.end(ctx, err)
}

// RemoveReplicationPeerNamespaces removes namespaces from what replication peer id ships, as
// the shell's remove_peer_namespaces: a namespace the peer does not list is left alone.
func (a *Admin) RemoveReplicationPeerNamespaces(ctx context.Context, id string, namespaces ...string) error {
	ctx, call := a.begin(ctx, "RemoveReplicationPeerNamespaces", id, "")
	err := a.editPeer(ctx, id, func(cfg *ReplicationPeerConfig) error {
		if err := checkNamespaces(namespaces); err != nil {
			return err
		}
		cfg.Namespaces = slices.DeleteFunc(cfg.Namespaces, func(ns string) bool { return slices.Contains(namespaces, ns) })
		return nil
	})
	return call.end(ctx, err)
}

// editPeer reads peer id's configuration, lets edit change it and updates the peer with it.
func (a *Admin) editPeer(ctx context.Context, id string, edit func(*ReplicationPeerConfig) error) error {
	if err := wire.CheckPeerID(id); err != nil {
		return err
	}
	cfg, err := a.peerConfig(ctx, id)
	if err != nil {
		return err
	}
	if err := edit(cfg); err != nil {
		return err
	}
	return a.updatePeerConfig(ctx, id, cfg)
}

func checkNamespaces(namespaces []string) error {
	if len(namespaces) == 0 {
		return wire.BadRequest("no namespaces")
	}
	for _, ns := range namespaces {
		if err := wire.CheckNamespaceName(ns); err != nil {
			return err
		}
	}
	return nil
}

// canonTableCFs checks m and names its tables as the master lists them ("t" for "default:t").
func canonTableCFs(m map[string][]string) (map[string][]string, error) {
	if len(m) == 0 {
		return nil, wire.BadRequest("no table CFs")
	}
	if _, err := wire.TableCFsProto(m); err != nil { // names, families, a table twice
		return nil, err
	}
	out := make(map[string][]string, len(m))
	for t, fams := range m {
		c, err := canonTable(t)
		if err != nil {
			return nil, err
		}
		out[c] = fams
	}
	return out, nil
}

// canonTable is the name of table as the master lists it: "t" in the default namespace.
func canonTable(table string) (string, error) {
	tn, err := wire.TableNameProto(table)
	if err != nil {
		return "", err
	}
	return wire.TableNameString(tn), nil
}

// appendTableCFs returns cur with add appended (HBase's appendTableCFsToReplicationPeerConfig):
// a table with no families means every family and absorbs families appended to it.
func appendTableCFs(cur, add map[string][]string) map[string][]string {
	out := make(map[string][]string, len(cur)+len(add))
	for t, fams := range cur {
		out[t] = slices.Clone(fams)
	}
	for t, fams := range add {
		have, ok := out[t]
		switch {
		case len(fams) == 0 || (ok && len(have) == 0):
			out[t] = nil
		default:
			out[t] = slices.Compact(slices.Sorted(slices.Values(append(have, fams...))))
		}
	}
	return out
}

// removeTableCFs returns cur without rm (HBase's removeTableCFsFromReplicationPeerConfig).
func removeTableCFs(id string, cur, rm map[string][]string) (map[string][]string, error) {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%w: peer %q: %s", hberr.ErrInvalidPeerConfig, id, fmt.Sprintf(format, args...))
	}
	if len(cur) == 0 {
		return nil, refuse("it has no table CFs to remove from")
	}
	out := make(map[string][]string, len(cur))
	for t, fams := range cur {
		out[t] = slices.Clone(fams)
	}
	for t, fams := range rm {
		have, ok := out[t]
		switch {
		case !ok:
			return nil, refuse("table %q is not in its table CFs", t)
		case len(have) == 0 && len(fams) == 0:
			delete(out, t)
		case len(have) == 0:
			return nil, refuse("table %q ships every family: families of it cannot be removed", t)
		case len(fams) == 0:
			return nil, refuse("table %q ships the families %q: remove them, not the table", t, have)
		default:
			left := slices.DeleteFunc(have, func(f string) bool { return slices.Contains(fams, f) })
			if len(left) == 0 {
				delete(out, t)
			} else {
				out[t] = left
			}
		}
	}
	return out, nil
}
