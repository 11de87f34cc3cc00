package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/admin"
)

// The shell's replication commands: peers, what they ship, and the tables' replication switch.

func replicationVerbs() []*shellVerb {
	return append(peerVerbs(), peerEditVerbs()...)
}

func peerVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "add_peer", group: "replication", prepare: prepareAddPeer, usage: `add_peer 'id', CLUSTER_KEY => 'zk1,zk2,zk3:2181:/hbase'
add_peer 'id', CLUSTER_KEY => 'zk:2181:/hbase', STATE => 'DISABLED'
add_peer 'id', CLUSTER_KEY => 'zk:2181:/hbase', NAMESPACES => ['ns1'], TABLE_CFS => {'t1' => ['f1'], 'ns2:t2' => []}
add_peer 'id', CLUSTER_KEY => 'zk:2181:/hbase', SERIAL => true, CONFIG => {'k' => 'v'}, DATA => {'k' => 'v'}
add_peer 'id', ENDPOINT_CLASSNAME => 'org.example.MyEndpoint'

Adds a replication peer, enabled unless STATE => 'DISABLED'. Without NAMESPACES and TABLE_CFS
it ships every table (replicate all); with them, only what they name. Only families whose
REPLICATION_SCOPE is 1 are ever shipped (enable_table_replication sets it). REMOTE_WAL_DIR
(synchronous replication) is not taken: the client library has no call for it.`},
		{name: "remove_peer", group: "replication", prepare: preparePeerOnly("remove_peer"), usage: `remove_peer 'id'

Removes a replication peer; its region servers stop shipping to it.`},
		{name: "enable_peer", group: "replication", prepare: preparePeerOnly("enable_peer"), usage: `enable_peer 'id'

Enables a replication peer: what was written while it was disabled is shipped, then the rest.`},
		{name: "disable_peer", group: "replication", prepare: preparePeerOnly("disable_peer"), usage: `disable_peer 'id'

Disables a replication peer: nothing is shipped to it until enable_peer; the edits wait.`},
		{name: "show_peer_tableCFs", group: "replication", prepare: preparePeerOnly("show_peer_tableCFs"), usage: `show_peer_tableCFs 'id'

Prints the tables and families a peer ships, as the shell writes them: ns.table:f1,f2;ns.t2.`},
		{name: "get_peer_config", group: "replication", prepare: preparePeerOnly("get_peer_config"), usage: `get_peer_config 'id'

Prints a replication peer's configuration.`},
		{name: "list_peers", group: "replication", prepare: prepareListPeers(false), usage: `list_peers

Lists the replication peers: state, what they ship (a leading ! marks what a replicate-all
peer excludes), bandwidth and serial flag. The synchronous replication columns are left out:
the client library does not read them.`},
		{name: "list_peer_configs", group: "replication", prepare: prepareListPeers(true), usage: `list_peer_configs

Prints the configuration of every replication peer.`},
		{name: "list_replicated_tables", group: "replication", prepare: prepareListReplicated, usage: `list_replicated_tables
list_replicated_tables 'regex'

Lists the families of user tables whose REPLICATION_SCOPE is not 0, of the tables whose name
matches the regular expression.`},
		{name: "enable_table_replication", group: "replication", prepare: prepareTableReplication(true), usage: `enable_table_replication 'table'

Creates the table on each peer cluster that ships it, when missing (same schema and region
boundaries), then sets REPLICATION_SCOPE 1 on every family. Needs a replication peer.`},
		{name: "disable_table_replication", group: "replication", prepare: prepareTableReplication(false), usage: `disable_table_replication 'table'

Sets REPLICATION_SCOPE 0 on every family of the table; the peers keep their configuration.`},
	}
}

// peerIDArg reads a peer id, refusing what the master never takes as one.
func peerIDArg(v value) (string, error) {
	id, err := strVal(v, "peer id")
	if err != nil {
		return "", err
	}
	if id == "" || strings.ContainsAny(id, "-/") {
		return "", fmt.Errorf("peer id %s: want a non-empty name without '-' or '/'", quoteShell(id))
	}
	return id, nil
}

// peerOp is what a command does to one replication peer.
type peerOp func(ctx context.Context, a *admin.Admin, id string) (shellResult, error)

func preparePeerOnly(verb string) func(statement) (action, error) {
	ops := map[string]peerOp{
		"remove_peer":        doneOp("Removed replication peer %s", (*admin.Admin).RemoveReplicationPeer),
		"enable_peer":        doneOp("Enabled replication peer %s", (*admin.Admin).EnableReplicationPeer),
		"disable_peer":       doneOp("Disabled replication peer %s", (*admin.Admin).DisableReplicationPeer),
		"show_peer_tableCFs": showTableCFs,
		"get_peer_config":    showPeerConfig,
	}
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" 'id'"); err != nil {
			return nil, err
		}
		return peerAction(st.args[0], ops[verb])
	}
}

// peerAction runs op on the peer named by v.
func peerAction(v value, op peerOp) (action, error) {
	id, err := peerIDArg(v)
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		return op(ctx, a, id)
	}), nil
}

func doneOp(message string, call func(*admin.Admin, context.Context, string) error) peerOp {
	return func(ctx context.Context, a *admin.Admin, id string) (shellResult, error) {
		if err := call(a, ctx, id); err != nil {
			return nil, err
		}
		return done(message, id), nil
	}
}

func showTableCFs(ctx context.Context, a *admin.Admin, id string) (shellResult, error) {
	cfg, err := a.DescribeReplicationPeer(ctx, id)
	if err != nil {
		return nil, err
	}
	return &tableCFsOut{TableCFs: orEmpty(cfg.TableCFs), text: tableCFsText(cfg.TableCFs)}, nil
}

// tableCFsOut is show_peer_tableCFs' answer.
type tableCFsOut struct {
	TableCFs map[string][]string `json:"table_cfs"`
	text     string
}

func (r *tableCFsOut) shellText(w io.Writer) (int64, error) {
	_, err := fmt.Fprintln(w, r.text)
	return -1, err
}

func orEmpty(m map[string][]string) map[string][]string {
	if m == nil {
		return map[string][]string{}
	}
	return m
}

// tableCFsText writes table CFs as the shell does (ReplicationPeerConfigUtil.convertToString):
// "ns.table:f1,f2;ns.table2", the default namespace written out, tables sorted here.
func tableCFsText(m map[string][]string) string {
	var parts []string
	for _, t := range slices.Sorted(mapKeys(m)) {
		name := t
		if ns, q, ok := strings.Cut(t, ":"); ok {
			name = ns + "." + q
		} else {
			name = "default." + t
		}
		if fams := m[t]; len(fams) > 0 {
			name += ":" + strings.Join(slices.Sorted(slices.Values(fams)), ",")
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, ";")
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// peerConfigOut is a peer's configuration in -json and the rows get_peer_config prints.
type peerConfigOut struct {
	ID                string              `json:"id,omitempty"`
	ClusterKey        string              `json:"cluster_key,omitempty"`
	Endpoint          string              `json:"endpoint_classname,omitempty"`
	ReplicateAll      bool                `json:"replicate_all"`
	Namespaces        []string            `json:"namespaces,omitempty"`
	TableCFs          map[string][]string `json:"table_cfs,omitempty"`
	ExcludeNamespaces []string            `json:"exclude_namespaces,omitempty"`
	ExcludeTableCFs   map[string][]string `json:"exclude_table_cfs,omitempty"`
	Bandwidth         int64               `json:"bandwidth"`
	Serial            bool                `json:"serial"`
	Config            map[string]string   `json:"config,omitempty"`
	Data              map[string]string   `json:"data,omitempty"`
}

func configOut(id string, c *admin.ReplicationPeerConfig) *peerConfigOut {
	out := &peerConfigOut{ID: id, ClusterKey: c.ClusterKey, Endpoint: c.ReplicationEndpoint, ReplicateAll: c.ReplicateAll,
		Namespaces: c.Namespaces, TableCFs: c.TableCFs, ExcludeNamespaces: c.ExcludeNamespaces, ExcludeTableCFs: c.ExcludeTableCFs,
		Bandwidth: c.Bandwidth, Serial: c.Serial, Config: c.Configuration}
	if len(c.Data) > 0 {
		out.Data = map[string]string{}
		for k, v := range c.Data {
			out.Data[k] = string(v)
		}
	}
	return out
}

// rows are the key, value lines of get_peer_config.
func (c *peerConfigOut) rows() [][]string {
	rows := [][]string{}
	if c.ClusterKey != "" {
		rows = append(rows, []string{"Cluster Key", c.ClusterKey})
	}
	if c.Endpoint != "" {
		rows = append(rows, []string{"Replication Endpoint", c.Endpoint})
	}
	ns, tcfs := c.shipped()
	rows = append(rows, []string{"Replicate All", strconv.FormatBool(c.ReplicateAll)}, []string{"Namespaces", ns},
		[]string{"Table CFs", tcfs}, []string{"Bandwidth", strconv.FormatInt(c.Bandwidth, 10)},
		[]string{"Serial", strconv.FormatBool(c.Serial)})
	for _, k := range sortedKeys(c.Data) {
		rows = append(rows, []string{k, c.Data[k]})
	}
	for _, k := range sortedKeys(c.Config) {
		rows = append(rows, []string{k, c.Config[k]})
	}
	return rows
}

// shipped is what a peer ships as the shell writes it: its namespaces and table CFs, or for a
// replicate-all peer what it does not ship, marked with a leading !.
func (c *peerConfigOut) shipped() (namespaces, tableCFs string) {
	if c.ReplicateAll {
		return nsText(c.ExcludeNamespaces, "!"), prefixed("!", tableCFsText(c.ExcludeTableCFs))
	}
	return nsText(c.Namespaces, ""), tableCFsText(c.TableCFs)
}

func nsText(ns []string, mark string) string {
	return prefixed(mark, strings.Join(slices.Sorted(slices.Values(ns)), ";"))
}

func prefixed(mark, s string) string {
	if s == "" {
		return ""
	}
	return mark + s
}

func (c *peerConfigOut) shellText(w io.Writer) (int64, error) {
	return -1, writeTable(w, []string{"KEY", "VALUE"}, c.rows())
}

func showPeerConfig(ctx context.Context, a *admin.Admin, id string) (shellResult, error) {
	cfg, err := a.DescribeReplicationPeer(ctx, id)
	if err != nil {
		return nil, err
	}
	out := configOut("", cfg)
	return out, nil
}

// peersOut is list_peers' table, or list_peer_configs' configurations.
type peersOut struct {
	Peers   []peerOut `json:"peers"`
	configs bool
}

type peerOut struct {
	State  string         `json:"state"`
	Config *peerConfigOut `json:"config"`
}

func (r *peersOut) shellText(w io.Writer) (int64, error) {
	if r.configs {
		for _, p := range r.Peers {
			rows := append([][]string{{"PeerId", p.Config.ID}}, p.Config.rows()...)
			if err := writeTable(w, []string{"KEY", "VALUE"}, rows); err != nil {
				return 0, err
			}
			fmt.Fprintln(w)
		}
		return int64(len(r.Peers)), nil
	}
	rows := make([][]string, len(r.Peers))
	for i, p := range r.Peers {
		c := p.Config
		ns, tcfs := c.shipped()
		rows[i] = []string{c.ID, orNil(c.ClusterKey), orNil(c.Endpoint), p.State, strconv.FormatBool(c.ReplicateAll),
			ns, tcfs, strconv.FormatInt(c.Bandwidth, 10), strconv.FormatBool(c.Serial)}
	}
	err := writeTable(w, []string{"PEER_ID", "CLUSTER_KEY", "ENDPOINT_CLASSNAME", "STATE", "REPLICATE_ALL", "NAMESPACES", "TABLE_CFS", "BANDWIDTH", "SERIAL"}, rows)
	return int64(len(rows)), err
}

func orNil(s string) string {
	if s == "" {
		return "nil"
	}
	return s
}

func prepareListPeers(configs bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if len(st.args) > 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			peers, err := a.ListReplicationPeers(ctx)
			if err != nil {
				return nil, err
			}
			out := &peersOut{Peers: []peerOut{}, configs: configs}
			for _, p := range peers {
				state := "DISABLED"
				if p.Enabled {
					state = "ENABLED"
				}
				out.Peers = append(out.Peers, peerOut{State: state, Config: configOut(p.ID, &p.Config)})
			}
			return out, nil
		}), nil
	}
}

func prepareListReplicated(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "list_replicated_tables or list_replicated_tables 'regex'"); err != nil {
		return nil, err
	}
	pattern := ".*"
	if len(st.args) == 1 {
		var err error
		if pattern, err = strVal(st.args[0], "regex"); err != nil {
			return nil, err
		}
	}
	re, err := fullMatch(pattern)
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		tables, err := a.ListReplicatedTableCFs(ctx)
		if err != nil {
			return nil, err
		}
		out := &listOut{Header: "TABLE:COLUMNFAMILY", Names: []string{}}
		for _, t := range slices.Sorted(mapKeys(tables)) {
			if !re.MatchString(t) {
				continue
			}
			for _, f := range tables[t] {
				out.Names = append(out.Names, t+":"+f)
			}
		}
		return out, nil
	}), nil
}

func prepareTableReplication(on bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, st.verb+" 'table'"); err != nil {
			return nil, err
		}
		table, err := tableName(st.args, 0)
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			if on {
				if err := a.EnableTableReplication(ctx, table); err != nil {
					return nil, err
				}
				return done("Replication of table %s enabled", table), nil
			}
			if err := a.DisableTableReplication(ctx, table); err != nil {
				return nil, err
			}
			return done("Replication of table %s disabled", table), nil
		}), nil
	}
}
