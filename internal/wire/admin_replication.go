package wire

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// The replication peer requests to the master (package admin's ReplicationPeerConfig and
// ReplicationPeer are PeerConfig and Peer field for field: admin converts between them).

// Methods of MasterService for replication peers.
const (
	MethodAddReplicationPeer                   = "AddReplicationPeer"
	MethodRemoveReplicationPeer                = "RemoveReplicationPeer"
	MethodEnableReplicationPeer                = "EnableReplicationPeer"
	MethodDisableReplicationPeer               = "DisableReplicationPeer"
	MethodGetReplicationPeerConfig             = "GetReplicationPeerConfig"
	MethodUpdateReplicationPeerConfig          = "UpdateReplicationPeerConfig"
	MethodListReplicationPeers                 = "ListReplicationPeers"
	MethodIsReplicationPeerEnabled             = "IsReplicationPeerEnabled"
	MethodReplicationPeerModificationSwitch    = "ReplicationPeerModificationSwitch"
	MethodIsReplicationPeerModificationEnabled = "IsReplicationPeerModificationEnabled"
)

// PeerConfig is a replication peer's configuration (admin.ReplicationPeerConfig's fields).
type PeerConfig struct {
	ClusterKey          string
	ReplicationEndpoint string
	ReplicateAll        bool
	Namespaces          []string
	TableCFs            map[string][]string
	ExcludeNamespaces   []string
	ExcludeTableCFs     map[string][]string
	Bandwidth           int64
	Serial              bool
	Configuration       map[string]string
	Data                map[string][]byte
}

// Peer is a replication peer as the master lists it (admin.ReplicationPeer's fields).
type Peer struct {
	ID      string
	Enabled bool
	Config  PeerConfig
}

// maxPeerIDLen bounds a peer id: it names a znode (or a file) on the master's side.
const maxPeerIDLen = 255

// CheckPeerID refuses what cannot be a peer id: empty, "-" (the master refuses it: "Found
// invalid peer name"), or what cannot name the znode HBase keeps the peer in ('/', control
// characters, "." and "..").
func CheckPeerID(id string) error {
	switch {
	case id == "":
		return invalidName("empty replication peer id")
	case len(id) > maxPeerIDLen:
		return invalidName("replication peer id of %d bytes is longer than %d", len(id), maxPeerIDLen)
	case id == "." || id == "..":
		return invalidName("replication peer id %q", id)
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c == '-' || c == '/' || c < ' ' || c == 0x7f {
			return invalidName("replication peer id %q: illegal character %q at %d (no '-', '/' or control characters)", id, c, i)
		}
	}
	return nil
}

// invalidPeerConfig is the error of a configuration refused before sending.
func invalidPeerConfig(format string, args ...any) error {
	return fmt.Errorf("hrpc: %w: %w: %s", hberr.ErrBadRequest, hberr.ErrInvalidPeerConfig, fmt.Sprintf(format, args...))
}

// PeerConfigProto checks c and builds its ReplicationPeer message, everything in a stable
// order (sorted names and keys).
func PeerConfigProto(c *PeerConfig) (*pb.ReplicationPeer, error) {
	if c == nil {
		return nil, invalidPeerConfig("nil replication peer config")
	}
	if c.ClusterKey == "" && c.ReplicationEndpoint == "" {
		return nil, invalidPeerConfig("a replication peer needs a cluster key or a replication endpoint")
	}
	if c.Bandwidth < 0 {
		return nil, invalidPeerConfig("negative bandwidth %d", c.Bandwidth)
	}
	p := &pb.ReplicationPeer{
		ReplicateAll: new(c.ReplicateAll),
		Bandwidth:    new(c.Bandwidth),
		Serial:       new(c.Serial),
	}
	if c.ClusterKey != "" {
		p.Clusterkey = new(c.ClusterKey)
	}
	if c.ReplicationEndpoint != "" {
		p.ReplicationEndpointImpl = new(c.ReplicationEndpoint)
	}
	var err error
	if p.Namespaces, err = namespacesProto(c.Namespaces); err != nil {
		return nil, err
	}
	if p.ExcludeNamespaces, err = namespacesProto(c.ExcludeNamespaces); err != nil {
		return nil, err
	}
	if p.TableCfs, err = TableCFsProto(c.TableCFs); err != nil {
		return nil, err
	}
	if p.ExcludeTableCfs, err = TableCFsProto(c.ExcludeTableCFs); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(c.Configuration)) {
		p.Configuration = append(p.Configuration, &pb.NameStringPair{Name: new(k), Value: new(c.Configuration[k])})
	}
	for _, k := range slices.Sorted(maps.Keys(c.Data)) {
		p.Data = append(p.Data, &pb.BytesBytesPair{First: []byte(k), Second: c.Data[k]})
	}
	return p, nil
}

// namespacesProto checks and sorts namespaces (duplicates dropped).
func namespacesProto(namespaces []string) ([][]byte, error) {
	var out [][]byte
	for _, ns := range slices.Compact(slices.Sorted(slices.Values(namespaces))) {
		if err := CheckNamespaceName(ns); err != nil {
			return nil, err
		}
		out = append(out, []byte(ns))
	}
	return out, nil
}

// TableCFsProto checks a table -> families map (no family: every family of the table) and
// builds its TableCFs, sorted by table, each table's families sorted. "t" and "default:t" are
// the same table and may not both be there.
func TableCFsProto(m map[string][]string) ([]*pb.TableCF, error) {
	var out []*pb.TableCF
	seen := make(map[string]string, len(m))
	for _, table := range slices.Sorted(maps.Keys(m)) {
		tn, err := TableNameProto(table)
		if err != nil {
			return nil, err
		}
		canon := TableNameString(tn)
		if other, ok := seen[canon]; ok {
			return nil, invalidPeerConfig("table %q is named twice (%q and %q)", canon, other, table)
		}
		seen[canon] = table
		cf := &pb.TableCF{TableName: tn}
		for _, f := range slices.Compact(slices.Sorted(slices.Values(m[table]))) {
			if err := CheckFamilyName(f); err != nil {
				return nil, fmt.Errorf("table %q: %w", table, err)
			}
			cf.Families = append(cf.Families, []byte(f))
		}
		out = append(out, cf)
	}
	return out, nil
}

// ParsePeerConfig reads a ReplicationPeer message as HBase's Java client does (an absent
// replicate_all is true), checking what a user would name: every TableCF has a table.
func ParsePeerConfig(p *pb.ReplicationPeer) (PeerConfig, error) {
	if p == nil {
		return PeerConfig{}, BadResponse("no replication peer config")
	}
	c := PeerConfig{
		ClusterKey:          p.GetClusterkey(),
		ReplicationEndpoint: p.GetReplicationEndpointImpl(),
		ReplicateAll:        p.ReplicateAll == nil || p.GetReplicateAll(),
		Bandwidth:           p.GetBandwidth(),
		Serial:              p.GetSerial(),
		Namespaces:          namespacesOf(p.GetNamespaces()),
		ExcludeNamespaces:   namespacesOf(p.GetExcludeNamespaces()),
	}
	var err error
	if c.TableCFs, err = tableCFsOf(p.GetTableCfs()); err != nil {
		return PeerConfig{}, err
	}
	if c.ExcludeTableCFs, err = tableCFsOf(p.GetExcludeTableCfs()); err != nil {
		return PeerConfig{}, err
	}
	for _, kv := range p.GetConfiguration() {
		if c.Configuration == nil {
			c.Configuration = make(map[string]string, len(p.GetConfiguration()))
		}
		c.Configuration[kv.GetName()] = kv.GetValue()
	}
	for _, kv := range p.GetData() {
		if c.Data == nil {
			c.Data = make(map[string][]byte, len(p.GetData()))
		}
		c.Data[string(kv.GetFirst())] = kv.GetSecond()
	}
	return c, nil
}

// namespacesOf returns the namespaces sorted, nil for none.
func namespacesOf(b [][]byte) []string {
	if len(b) == 0 {
		return nil
	}
	out := make([]string, len(b))
	for i, ns := range b {
		out[i] = string(ns)
	}
	slices.Sort(out)
	return out
}

// tableCFsOf returns the table -> families map of cfs (nil for none; a table without families
// maps to nil: every family), families sorted.
func tableCFsOf(cfs []*pb.TableCF) (map[string][]string, error) {
	if len(cfs) == 0 {
		return nil, nil
	}
	out := make(map[string][]string, len(cfs))
	for i, cf := range cfs {
		if cf.GetTableName() == nil || len(cf.GetTableName().GetQualifier()) == 0 {
			return nil, BadResponse("table-cfs entry %d of %d has no table name", i+1, len(cfs))
		}
		var fams []string
		for _, f := range cf.GetFamilies() {
			fams = append(fams, string(f))
		}
		slices.Sort(fams)
		out[TableNameString(cf.GetTableName())] = fams
	}
	return out, nil
}

// ParsePeers reads the master's list of peers, each with its id, state and configuration.
func ParsePeers(resp *pb.ListReplicationPeersResponse) ([]Peer, error) {
	out := make([]Peer, 0, len(resp.GetPeerDesc()))
	for _, d := range resp.GetPeerDesc() {
		c, err := ParsePeerConfig(d.GetConfig())
		if err != nil {
			return nil, fmt.Errorf("replication peer %q: %w", d.GetId(), err)
		}
		if d.GetState() == nil {
			return nil, BadResponse("replication peer %q has no state", d.GetId())
		}
		out = append(out, Peer{ID: d.GetId(), Enabled: d.GetState().GetState() == pb.ReplicationState_ENABLED, Config: c})
	}
	return out, nil
}

// AddPeerRequest builds the request adding peer id with configuration c, enabled or not.
func AddPeerRequest(id string, c *PeerConfig, enabled bool) (*pb.AddReplicationPeerRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	p, err := PeerConfigProto(c)
	if err != nil {
		return nil, err
	}
	st := pb.ReplicationState_DISABLED
	if enabled {
		st = pb.ReplicationState_ENABLED
	}
	return &pb.AddReplicationPeerRequest{PeerId: &id, PeerConfig: p, PeerState: &pb.ReplicationState{State: &st}}, nil
}

// UpdatePeerRequest builds the request replacing the configuration of peer id by c.
func UpdatePeerRequest(id string, c *PeerConfig) (*pb.UpdateReplicationPeerConfigRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	p, err := PeerConfigProto(c)
	if err != nil {
		return nil, err
	}
	return &pb.UpdateReplicationPeerConfigRequest{PeerId: &id, PeerConfig: p}, nil
}

// RemovePeerRequest builds the request removing peer id.
func RemovePeerRequest(id string) (*pb.RemoveReplicationPeerRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	return &pb.RemoveReplicationPeerRequest{PeerId: &id}, nil
}

// EnablePeerRequest builds the request enabling peer id.
func EnablePeerRequest(id string) (*pb.EnableReplicationPeerRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	return &pb.EnableReplicationPeerRequest{PeerId: &id}, nil
}

// DisablePeerRequest builds the request disabling peer id.
func DisablePeerRequest(id string) (*pb.DisableReplicationPeerRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	return &pb.DisableReplicationPeerRequest{PeerId: &id}, nil
}

// PeerConfigRequest builds the request for the configuration of peer id.
func PeerConfigRequest(id string) (*pb.GetReplicationPeerConfigRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	return &pb.GetReplicationPeerConfigRequest{PeerId: &id}, nil
}

// PeerStateRequest builds the request asking whether peer id is enabled.
func PeerStateRequest(id string) (*pb.GetReplicationPeerStateRequest, error) {
	if err := CheckPeerID(id); err != nil {
		return nil, err
	}
	return &pb.GetReplicationPeerStateRequest{PeerId: &id}, nil
}

// ListPeersRequest builds the request for every peer.
func ListPeersRequest() *pb.ListReplicationPeersRequest { return &pb.ListReplicationPeersRequest{} }

// PeerModificationSwitchRequest builds the request switching peer modification on or off.
func PeerModificationSwitchRequest(on bool) *pb.ReplicationPeerModificationSwitchRequest {
	return &pb.ReplicationPeerModificationSwitchRequest{On: &on}
}

// PeerModificationEnabledRequest builds the request asking whether peers may be modified.
func PeerModificationEnabledRequest() *pb.IsReplicationPeerModificationEnabledRequest {
	return &pb.IsReplicationPeerModificationEnabledRequest{}
}

// ParseClusterKey splits a cluster key, "host1,host2:port:/parent", into a ZooKeeper connect
// string ("host1:port,host2:port") and the parent znode.
func ParseClusterKey(key string) (quorum, parent string, err error) {
	i := strings.LastIndexByte(key, ':')
	if i < 0 {
		return "", "", invalidPeerConfig("cluster key %q is not hosts:port:/parent", key)
	}
	hostsPort, parent := key[:i], key[i+1:]
	j := strings.LastIndexByte(hostsPort, ':')
	if j < 0 || !strings.HasPrefix(parent, "/") {
		return "", "", invalidPeerConfig("cluster key %q is not hosts:port:/parent", key)
	}
	hosts, port := hostsPort[:j], hostsPort[j+1:]
	if hosts == "" || port == "" || strings.ContainsFunc(port, func(r rune) bool { return r < '0' || r > '9' }) {
		return "", "", invalidPeerConfig("cluster key %q is not hosts:port:/parent", key)
	}
	var b strings.Builder
	for h := range strings.SplitSeq(hosts, ",") {
		if h == "" {
			return "", "", invalidPeerConfig("cluster key %q has an empty host", key)
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(h + ":" + port)
	}
	return b.String(), parent, nil
}
