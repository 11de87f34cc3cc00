package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-hbase/hbase/admin"
)

// The shell's commands that add a replication peer or change what it ships.

// peerEdit is one change of a peer's configuration, as the shell makes it: read the
// configuration, change it, update the peer with it.
type peerEdit func(cfg *admin.ReplicationPeerConfig) error

// peerArgVerb is a command of the form verb 'id', ARG: parse reads ARG (nil when it may be left
// out and is) into what the command does.
type peerArgVerb struct {
	name, form, usage string
	optional          bool
	parse             func(v value) (peerOp, error)
}

func peerEditVerbs() []*shellVerb {
	var out []*shellVerb
	for _, p := range []peerArgVerb{
		{"set_peer_tableCFs", "'id', {'t1' => [], 'ns:t2' => ['f1', 'f2']}", "Sets the tables, and families of tables ([] for every family), a peer ships; the peer must not replicate all.", false, setTableCFs(false)},
		{"append_peer_tableCFs", "'id', {'t1' => [], 'ns:t2' => ['f1']}", "Adds tables and families to what a peer ships.", false, callTableCFs("Added table CFs to replication peer %s", (*admin.Admin).AppendReplicationPeerTableCFs)},
		{"remove_peer_tableCFs", "'id', {'t1' => [], 'ns:t2' => ['f1']}", "Removes tables ([] : a table listed without families) and families from what a peer ships.", false, callTableCFs("Removed table CFs from replication peer %s", (*admin.Admin).RemoveReplicationPeerTableCFs)},
		{"set_peer_exclude_tableCFs", "'id', {'t1' => [], 'ns:t2' => ['f1']}", "Sets the tables and families a replicate-all peer does not ship.", false, setTableCFs(true)},
		{"append_peer_exclude_tableCFs", "'id', {'t1' => [], 'ns:t2' => ['f1']}", "Adds tables and families to what a replicate-all peer does not ship.", false, editExcludeTableCFs(true)},
		{"remove_peer_exclude_tableCFs", "'id', {'t1' => [], 'ns:t2' => ['f1']}", "Removes tables and families from what a replicate-all peer does not ship (as remove_peer_tableCFs).", false, editExcludeTableCFs(false)},
		{"set_peer_namespaces", "'id', ['ns1', 'ns2']", "Sets the namespaces whose tables a peer ships; the peer must not replicate all.", false, setNamespaces(false)},
		{"append_peer_namespaces", "'id', ['ns1']", "Adds namespaces to what a peer ships.", false, callNamespaces("Added namespaces to replication peer %s", (*admin.Admin).AppendReplicationPeerNamespaces)},
		{"remove_peer_namespaces", "'id', ['ns1']", "Removes namespaces from what a peer ships (a namespace it does not list is left alone).", false, callNamespaces("Removed namespaces from replication peer %s", (*admin.Admin).RemoveReplicationPeerNamespaces)},
		{"set_peer_exclude_namespaces", "'id', ['ns1', 'ns2']", "Sets the namespaces a replicate-all peer does not ship.", false, setNamespaces(true)},
		{"append_peer_exclude_namespaces", "'id', ['ns1']", "Adds namespaces to what a replicate-all peer does not ship.", false, editExcludeNamespaces(true)},
		{"remove_peer_exclude_namespaces", "'id', ['ns1']", "Removes namespaces from what a replicate-all peer does not ship.", false, editExcludeNamespaces(false)},
		{"set_peer_replicate_all", "'id', true", "With true the peer ships every user table but its exclusions (clear its namespaces and table CFs first); with false only its namespaces and table CFs (clear its exclusions first).", false, setFlag("replicate all", func(c *admin.ReplicationPeerConfig, b bool) { c.ReplicateAll = b })},
		{"set_peer_serial", "'id', true", "With true the peer ships each region's edits in the order they were written, across moves, splits and merges (slower).", false, setFlag("serial", func(c *admin.ReplicationPeerConfig, b bool) { c.Serial = b })},
		{"set_peer_bandwidth", "'id', 10485760", "Bounds what each region server ships to the peer, in bytes a second; without a number, or 0, the cluster's default (unbounded unless configured).", true, setBandwidth},
		{"update_peer_config", "'id', CONFIG => {'k' => 'v'}, DATA => {'k' => 'v'}", "Adds or changes configuration keys and data of a peer; the other keys stay.", false, updatePeerConfig},
	} {
		out = append(out, p.verb())
	}
	return out
}

func (p peerArgVerb) verb() *shellVerb {
	form := p.name + " " + p.form
	usage := form + "\n\n" + wrapText(p.usage, 95)
	if p.optional {
		usage = p.name + " 'id'\n" + usage
	}
	return &shellVerb{name: p.name, group: "replication", usage: usage, prepare: func(st statement) (action, error) {
		lo := 2
		if p.optional {
			lo = 1
		}
		args := st.args
		if err := wantArgs(args, lo, 2, form); err != nil {
			return nil, err
		}
		arg := value{kind: vNil}
		if len(args) == 2 {
			arg = args[1]
		}
		op, err := p.parse(arg)
		if err != nil {
			return nil, err
		}
		return peerAction(args[0], op)
	}}
}

// editOp is the op that makes edit and prints message.
func editOp(message string, edit peerEdit) peerOp {
	return func(ctx context.Context, a *admin.Admin, id string) (shellResult, error) {
		cfg, err := a.DescribeReplicationPeer(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := edit(cfg); err != nil {
			return nil, fmt.Errorf("replication peer %s: %w", id, err)
		}
		if err := a.UpdateReplicationPeerConfig(ctx, id, cfg); err != nil {
			return nil, err
		}
		return done(message, id), nil
	}
}

// tableCFsArg reads {'table' => ['f1', 'f2'], 'ns:t' => []}: a table without families (an
// empty array or nil) ships all of them. Tables are named as the master lists them.
func tableCFsArg(v value) (map[string][]string, error) {
	if v.kind != vHash {
		return nil, fmt.Errorf("table CFs: want a hash {'table' => ['family', ...]}, got %s", v.describe())
	}
	m := map[string][]string{}
	for _, e := range v.hash {
		t := strings.TrimPrefix(e.key, "default:")
		if t == "" || strings.Count(t, ":") > 1 || strings.HasPrefix(t, ":") || strings.HasSuffix(t, ":") {
			return nil, fmt.Errorf("table CFs: %s is not a table name", quoteShell(e.key))
		}
		var fams []string
		if e.val.kind != vNil {
			var err error
			if fams, err = strList(e.val, "families of "+e.key); err != nil {
				return nil, err
			}
		}
		if slices.Contains(fams, "") {
			return nil, fmt.Errorf("families of %s: an empty family name", e.key)
		}
		if _, twice := m[t]; twice {
			return nil, fmt.Errorf("table CFs: %s is given twice", e.key)
		}
		m[t] = fams
	}
	return m, nil
}

// namespacesArg reads ['ns1', 'ns2'] (or one 'ns').
func namespacesArg(v value) ([]string, error) {
	ns, err := strList(v, "namespace")
	if err != nil {
		return nil, err
	}
	if slices.Contains(ns, "") {
		return nil, fmt.Errorf("namespace: empty")
	}
	return ns, nil
}

func setTableCFs(exclude bool) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		m, err := tableCFsArg(v)
		if err != nil {
			return nil, err
		}
		if exclude {
			return editOp("Set the excluded table CFs of replication peer %s", func(c *admin.ReplicationPeerConfig) error { c.ExcludeTableCFs = m; return nil }), nil
		}
		return editOp("Set the table CFs of replication peer %s", func(c *admin.ReplicationPeerConfig) error { c.TableCFs = m; return nil }), nil
	}
}

func setNamespaces(exclude bool) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		ns, err := namespacesArg(v)
		if err != nil {
			return nil, err
		}
		if exclude {
			return editOp("Set the excluded namespaces of replication peer %s", func(c *admin.ReplicationPeerConfig) error { c.ExcludeNamespaces = ns; return nil }), nil
		}
		return editOp("Set the namespaces of replication peer %s", func(c *admin.ReplicationPeerConfig) error { c.Namespaces = ns; return nil }), nil
	}
}

// callTableCFs is the op of a library call that takes table CFs.
func callTableCFs(message string, call func(*admin.Admin, context.Context, string, map[string][]string) error) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		m, err := tableCFsArg(v)
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("table CFs: empty")
		}
		return doneOp(message, func(a *admin.Admin, ctx context.Context, id string) error { return call(a, ctx, id, m) }), nil
	}
}

// callNamespaces is the op of a library call that takes namespaces.
func callNamespaces(message string, call func(*admin.Admin, context.Context, string, ...string) error) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		ns, err := namespacesArg(v)
		if err != nil {
			return nil, err
		}
		if len(ns) == 0 {
			return nil, fmt.Errorf("namespaces: empty")
		}
		return doneOp(message, func(a *admin.Admin, ctx context.Context, id string) error { return call(a, ctx, id, ns...) }), nil
	}
}

func editExcludeNamespaces(add bool) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		ns, err := namespacesArg(v)
		if err != nil {
			return nil, err
		}
		if add {
			return editOp("Added excluded namespaces to replication peer %s", func(c *admin.ReplicationPeerConfig) error {
				c.ExcludeNamespaces = slices.Compact(slices.Sorted(slices.Values(append(c.ExcludeNamespaces, ns...))))
				return nil
			}), nil
		}
		return editOp("Removed excluded namespaces from replication peer %s", func(c *admin.ReplicationPeerConfig) error {
			c.ExcludeNamespaces = slices.DeleteFunc(c.ExcludeNamespaces, func(n string) bool { return slices.Contains(ns, n) })
			return nil
		}), nil
	}
}

func editExcludeTableCFs(add bool) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		m, err := tableCFsArg(v)
		if err != nil {
			return nil, err
		}
		if add {
			return editOp("Added excluded table CFs to replication peer %s", func(c *admin.ReplicationPeerConfig) error {
				c.ExcludeTableCFs = mergeTableCFs(c.ExcludeTableCFs, m)
				return nil
			}), nil
		}
		return editOp("Removed excluded table CFs from replication peer %s", func(c *admin.ReplicationPeerConfig) error {
			left, err := subtractTableCFs(c.ExcludeTableCFs, m)
			c.ExcludeTableCFs = left
			return err
		}), nil
	}
}

// mergeTableCFs is cur with add: a table without families (all of them) stays so.
func mergeTableCFs(cur, add map[string][]string) map[string][]string {
	out := map[string][]string{}
	for t, f := range cur {
		out[t] = slices.Clone(f)
	}
	for t, f := range add {
		have, ok := out[t]
		if len(f) == 0 || ok && len(have) == 0 {
			out[t] = nil
			continue
		}
		out[t] = slices.Compact(slices.Sorted(slices.Values(append(have, f...))))
	}
	return out
}

// subtractTableCFs is cur without rm, refused as HBase's shell refuses it: a table not listed,
// families of a table listed whole, or a table listed whole that has families listed.
func subtractTableCFs(cur, rm map[string][]string) (map[string][]string, error) {
	out := map[string][]string{}
	for t, f := range cur {
		out[t] = slices.Clone(f)
	}
	for t, f := range rm {
		have, ok := out[t]
		switch {
		case !ok:
			return nil, fmt.Errorf("table %s is not in its excluded table CFs", t)
		case len(have) == 0 && len(f) > 0:
			return nil, fmt.Errorf("table %s is excluded whole: families of it cannot be removed", t)
		case len(have) > 0 && len(f) == 0:
			return nil, fmt.Errorf("table %s has the families %s excluded: remove them, not the table", t, strings.Join(have, ","))
		}
		left := slices.DeleteFunc(have, func(x string) bool { return slices.Contains(f, x) })
		if len(left) == 0 {
			delete(out, t)
		} else {
			out[t] = left
		}
	}
	return out, nil
}

func setFlag(what string, set func(*admin.ReplicationPeerConfig, bool)) func(value) (peerOp, error) {
	return func(v value) (peerOp, error) {
		b, err := boolVal(v, what)
		if err != nil {
			return nil, err
		}
		return editOp("Set "+what+" "+fmt.Sprint(b)+" on replication peer %s", func(c *admin.ReplicationPeerConfig) error { set(c, b); return nil }), nil
	}
}

func setBandwidth(v value) (peerOp, error) {
	var bw int64
	if v.kind != vNil {
		var err error
		if bw, err = intVal(v, "bandwidth"); err != nil {
			return nil, err
		}
		if bw < 0 {
			return nil, fmt.Errorf("bandwidth: want 0 or more bytes a second, got %d", bw)
		}
	}
	return editOp(fmt.Sprintf("Set bandwidth %d on replication peer %%s", bw), func(c *admin.ReplicationPeerConfig) error { c.Bandwidth = bw; return nil }), nil
}

// configAndData reads the CONFIG and DATA hashes of add_peer and update_peer_config.
func configAndData(h value) (map[string]string, map[string][]byte, error) {
	var conf map[string]string
	var data map[string][]byte
	if v, ok := h.get("CONFIG"); ok {
		var err error
		if conf, err = stringMap(v, "CONFIG"); err != nil {
			return nil, nil, err
		}
	}
	if v, ok := h.get("DATA"); ok {
		m, err := stringMap(v, "DATA")
		if err != nil {
			return nil, nil, err
		}
		data = map[string][]byte{}
		for k, s := range m {
			data[k] = []byte(s)
		}
	}
	return conf, data, nil
}

func updatePeerConfig(v value) (peerOp, error) {
	if v.kind != vHash {
		return nil, fmt.Errorf("want update_peer_config 'id', CONFIG => {...}, DATA => {...}")
	}
	if err := checkKeys("update_peer_config", v, "CONFIG", "DATA"); err != nil {
		return nil, err
	}
	conf, data, err := configAndData(v)
	if err != nil {
		return nil, err
	}
	return editOp("Updated the configuration of replication peer %s", func(c *admin.ReplicationPeerConfig) error {
		c.Configuration = mergeMap(c.Configuration, conf)
		c.Data = mergeMap(c.Data, data)
		return nil
	}), nil
}

func mergeMap[V any](cur, add map[string]V) map[string]V {
	if len(add) == 0 {
		return cur
	}
	if cur == nil {
		cur = map[string]V{}
	}
	for k, v := range add {
		cur[k] = v
	}
	return cur
}

func prepareAddPeer(st statement) (action, error) {
	const form = "add_peer 'id', CLUSTER_KEY => 'zk:2181:/hbase'[, STATE => 'DISABLED', TABLE_CFS => {...}, NAMESPACES => [...], SERIAL => true, CONFIG => {...}, DATA => {...}]"
	args, h := splitOpts(st.args)
	if len(args) != 1 || len(h.hash) == 0 {
		return nil, fmt.Errorf("want %s (the options are a hash: a cluster key alone is the old form, not taken)", form)
	}
	if _, ok := h.get("REMOTE_WAL_DIR"); ok {
		return nil, fmt.Errorf("REMOTE_WAL_DIR is not taken: the client library has no call for synchronous replication")
	}
	if err := checkKeys("add_peer", h, "CLUSTER_KEY", "ENDPOINT_CLASSNAME", "CONFIG", "DATA", "TABLE_CFS", "NAMESPACES", "STATE", "SERIAL"); err != nil {
		return nil, err
	}
	cfg, enabled, err := addPeerConfig(h)
	if err != nil {
		return nil, err
	}
	return peerAction(args[0], func(ctx context.Context, a *admin.Admin, id string) (shellResult, error) {
		if err := a.AddReplicationPeer(ctx, id, cfg, enabled); err != nil {
			return nil, err
		}
		return done("Added replication peer %s", id), nil
	})
}

// addPeerConfig reads add_peer's options as the shell does: a peer replicates every table
// unless NAMESPACES or TABLE_CFS say what it ships.
func addPeerConfig(h value) (*admin.ReplicationPeerConfig, bool, error) {
	cfg := &admin.ReplicationPeerConfig{ReplicateAll: true}
	var err error
	for key, dst := range map[string]*string{"CLUSTER_KEY": &cfg.ClusterKey, "ENDPOINT_CLASSNAME": &cfg.ReplicationEndpoint} {
		if v, ok := h.get(key); ok {
			if *dst, err = strVal(v, key); err != nil {
				return nil, false, err
			}
		}
	}
	if cfg.ClusterKey == "" && cfg.ReplicationEndpoint == "" {
		return nil, false, fmt.Errorf("either ENDPOINT_CLASSNAME or CLUSTER_KEY must be given")
	}
	if cfg.Configuration, cfg.Data, err = configAndData(h); err != nil {
		return nil, false, err
	}
	if v, ok := h.get("NAMESPACES"); ok {
		if cfg.Namespaces, err = namespacesArg(v); err != nil {
			return nil, false, err
		}
		cfg.ReplicateAll = false
	}
	if v, ok := h.get("TABLE_CFS"); ok {
		if cfg.TableCFs, err = tableCFsArg(v); err != nil {
			return nil, false, err
		}
		cfg.ReplicateAll = false
	}
	if v, ok := h.get("SERIAL"); ok {
		if cfg.Serial, err = boolVal(v, "SERIAL"); err != nil {
			return nil, false, err
		}
	}
	enabled := true
	if v, ok := h.get("STATE"); ok {
		s, err := scalarText(v)
		if err != nil || s != "ENABLED" && s != "DISABLED" {
			return nil, false, fmt.Errorf("STATE: want 'ENABLED' or 'DISABLED', got %s", v.describe())
		}
		enabled = s == "ENABLED"
	}
	return cfg, enabled, nil
}

// wrapText breaks s into lines of at most width characters, between words.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
