package hbasetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// PeerCluster is the second cluster of Options.PeerCluster, the destination of replication
// tests: a client reaches it through ZKQuorum (the first cluster's ZooKeeper) under
// ZNodeParent, and a replication peer names it by ClusterKey.
type PeerCluster struct {
	ZKQuorum    string // "127.0.0.1:port", the same ZooKeeper as the first cluster's
	ZNodeParent string // "/hbase-peer"
}

// ClusterKey is the peer's cluster key as a replication peer names it:
// "127.0.0.1:port:/hbase-peer" (quorum hosts, client port, parent znode).
func (p *PeerCluster) ClusterKey() string { return p.ZKQuorum + ":" + p.ZNodeParent }

// withReadyField sets a field of the READY line's peer_zk or peer_znode, making p if nil.
func (p *PeerCluster) withReadyField(k, v string) *PeerCluster {
	if p == nil {
		p = &PeerCluster{}
	}
	switch k {
	case "peer_zk":
		p.ZKQuorum = v
	case "peer_znode":
		p.ZNodeParent = v
	}
	return p
}

// ReplicationPeer is one replication peer of the cluster as HBase's Java Admin reports it
// (listReplicationPeers and the peer's ReplicationPeerConfig): what a test compares with the
// listing of the client under test. Lists are sorted; a nil or empty family list of a table
// means every family of it; absent settings are nil.
type ReplicationPeer struct {
	ID                string
	Enabled           bool
	ClusterKey        string
	Endpoint          string // ReplicationEndpointImpl; "" for HBase's own
	ReplicateAll      bool
	Serial            bool
	Bandwidth         int64
	Namespaces        []string
	ExcludeNamespaces []string
	TableCFs          map[string][]string // table ("ns:t", or "t" in default) -> families
	ExcludeTableCFs   map[string][]string
	Configuration     map[string]string
	Data              map[string][]byte // the peer data, by key
}

// ReplicationPeers lists the cluster's replication peers through the Java Admin
// (listReplicationPeers), in the master's order.
func (c *Cluster) ReplicationPeers(ctx context.Context) ([]ReplicationPeer, error) {
	w, err := c.do(ctx, "replication-peers")
	if err != nil {
		return nil, err
	}
	return parseReplicationPeers(w)
}

// parseReplicationPeers reads the words of the replication-peers answer (ReplicationPeers.java).
func parseReplicationPeers(words []string) ([]ReplicationPeer, error) {
	var out []ReplicationPeer
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("hbasetest: replication-peers: word %q is not key=value", truncate(w, 40))
		}
		if k == "peer" {
			id, err := decodeString(v)
			if err != nil {
				return nil, fmt.Errorf("hbasetest: replication-peers: peer id: %w", err)
			}
			out = append(out, ReplicationPeer{ID: id})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("hbasetest: replication-peers: %q before the first peer", truncate(w, 40))
		}
		if err := out[len(out)-1].set(k, v); err != nil {
			return nil, fmt.Errorf("hbasetest: replication-peers: peer %q: %s: %w", out[len(out)-1].ID, k, err)
		}
	}
	return out, nil
}

// set sets the field of one key=value word.
func (p *ReplicationPeer) set(k, v string) error {
	var err error
	switch k {
	case "enabled":
		p.Enabled, err = strconv.ParseBool(v)
	case "key":
		p.ClusterKey, err = decodeString(v)
	case "endpoint":
		p.Endpoint, err = decodeString(v)
	case "all":
		p.ReplicateAll, err = strconv.ParseBool(v)
	case "serial":
		p.Serial, err = strconv.ParseBool(v)
	case "bw":
		p.Bandwidth, err = strconv.ParseInt(v, 10, 64)
	case "ns", "xns":
		var s string
		if s, err = decodeString(v); err == nil {
			if k == "ns" {
				p.Namespaces = append(p.Namespaces, s)
			} else {
				p.ExcludeNamespaces = append(p.ExcludeNamespaces, s)
			}
		}
	case "tcf":
		p.TableCFs, err = addTableCFs(p.TableCFs, v)
	case "xtcf":
		p.ExcludeTableCFs, err = addTableCFs(p.ExcludeTableCFs, v)
	case "conf":
		var key, val string
		if key, val, err = decodePair(v); err == nil {
			if p.Configuration == nil {
				p.Configuration = map[string]string{}
			}
			p.Configuration[key] = val
		}
	case "data":
		var key, val string
		if key, val, err = decodePair(v); err == nil {
			if p.Data == nil {
				p.Data = map[string][]byte{}
			}
			p.Data[key] = []byte(val)
		}
	default:
		err = fmt.Errorf("unknown field")
	}
	return err
}

// addTableCFs adds "TABLE:FAM,FAM" (hex words; no family: every family) to m.
func addTableCFs(m map[string][]string, v string) (map[string][]string, error) {
	t, fams, ok := strings.Cut(v, ":")
	if !ok {
		return nil, fmt.Errorf("%q is not TABLE:FAMILIES", truncate(v, 40))
	}
	table, err := decodeString(t)
	if err != nil {
		return nil, err
	}
	var families []string
	if fams != "" {
		for f := range strings.SplitSeq(fams, ",") {
			s, err := decodeString(f)
			if err != nil {
				return nil, err
			}
			families = append(families, s)
		}
	}
	if m == nil {
		m = map[string][]string{}
	}
	m[table] = families
	return m, nil
}

func decodePair(v string) (string, string, error) {
	k, val, ok := strings.Cut(v, ":")
	if !ok {
		return "", "", fmt.Errorf("%q is not KEY:VALUE", truncate(v, 40))
	}
	ks, err := decodeString(k)
	if err != nil {
		return "", "", err
	}
	vs, err := decodeString(val)
	return ks, vs, err
}

func decodeString(s string) (string, error) {
	b, err := decodeBytes(s)
	return string(b), err
}
