package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// The shell's rsgroup commands as HBase 2.x has them (the hbase-rsgroup module, its
// RSGroupAdminClient), and update_rsgroup_config of the configuration group. The master needs
// the module's endpoint and balancer, or every command says how to switch them on.

func rsgroupVerbs() []*shellVerb {
	return append(rsgroupMemberVerbs(), []*shellVerb{
		{name: "add_rsgroup", group: "rsgroup", prepare: prepareGroupVerb(runAddRSGroup), usage: `add_rsgroup 'group'

Adds an empty region server group (a name is letters, digits and '_').`},
		{name: "remove_rsgroup", group: "rsgroup", prepare: prepareGroupVerb(runRemoveRSGroup), usage: `remove_rsgroup 'group'

Removes a group that holds no server and no table.`},
		{name: "get_rsgroup", group: "rsgroup", prepare: prepareGroupVerb(runGetRSGroup), usage: `get_rsgroup 'group'

Prints a group's servers and tables.`},
		{name: "list_rsgroups", group: "rsgroup", prepare: prepareListRSGroups, usage: `list_rsgroups
list_rsgroups 'regex'

Lists every group, or those whose name the regular expression matches, with their servers and
tables.`},
		{name: "balance_rsgroup", group: "rsgroup", prepare: prepareGroupVerb(runBalanceRSGroup), usage: `balance_rsgroup 'group'

Runs the balancer over the servers and tables of one group; says whether it ran (it does not
while the balancer is switched off or regions are in transition). 'ignore_rit' and 'dry_run'
are not taken yet.`},
		{name: "rename_rsgroup", group: "rsgroup", prepare: prepareRenameRSGroup, usage: `rename_rsgroup 'old_name', 'new_name'

Renames a group, keeping its servers and tables ('default' cannot be renamed; HBase 2.x drops
the group's configuration).`},
		{name: "alter_rsgroup_config", group: "rsgroup", prepare: prepareAlterRSGroupConfig, usage: `alter_rsgroup_config 'group', {METHOD => 'set', 'key' => 'value'}
alter_rsgroup_config 'group', {METHOD => 'unset', NAME => 'key'}

Sets or removes entries of a group's configuration.`},
		{name: "show_rsgroup_config", group: "rsgroup", prepare: prepareGroupVerb(runShowRSGroupConfig), usage: `show_rsgroup_config 'group'

Prints a group's configuration.`},
		{name: "update_rsgroup_config", group: "configuration", prepare: prepareGroupVerb(runUpdateRSGroupConfig), usage: `update_rsgroup_config 'group'

Has every live region server of a group read its configuration files again.`},
	}...)
}

// rsgroupMemberVerbs are the commands that look up or move a group's members.
func rsgroupMemberVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "get_server_rsgroup", group: "rsgroup", prepare: prepareGroupOf("'host:port'", serverArg, groupOfServer), usage: `get_server_rsgroup 'host:port'

Prints the group of a region server.`},
		{name: "get_table_rsgroup", group: "rsgroup", prepare: prepareGroupOf("'table'", tableArg, groupOfTable), usage: `get_table_rsgroup 'table'

Prints the group of a table.`},
		{name: "get_namespace_rsgroup", group: "rsgroup", prepare: prepareGroupOf("'ns'", namespaceArg, groupOfNamespace), usage: `get_namespace_rsgroup 'ns'

Prints the group a namespace names for its tables (its 'hbase.rsgroup.name' property), if any.`},
		{name: "move_servers_rsgroup", group: "rsgroup", prepare: prepareMoveToRSGroup("servers"), usage: `move_servers_rsgroup 'dest', ['host1:port1', 'host2:port2']

Moves region servers into a group; the regions they serve of tables outside it move to the
servers of their tables' groups first.`},
		{name: "move_tables_rsgroup", group: "rsgroup", prepare: prepareMoveToRSGroup("tables"), usage: `move_tables_rsgroup 'dest', ['table1', 'ns:table2']

Moves tables into a group: their regions move to the group's servers.`},
		{name: "move_namespaces_rsgroup", group: "rsgroup", prepare: prepareMoveToRSGroup("namespaces"), usage: `move_namespaces_rsgroup 'dest', ['ns1', 'ns2']

Moves every table of the namespaces into a group.`},
		{name: "move_servers_tables_rsgroup", group: "rsgroup", prepare: prepareMoveBothToRSGroup("tables"), usage: `move_servers_tables_rsgroup 'dest', ['host1:port1'], ['table1', 'ns:table2']

Moves region servers and tables into a group in one step: a table may go into a group whose
only servers come with it, and servers may leave a group whose tables leave with them.`},
		{name: "move_servers_namespaces_rsgroup", group: "rsgroup", prepare: prepareMoveBothToRSGroup("namespaces"), usage: `move_servers_namespaces_rsgroup 'dest', ['host1:port1'], ['ns1', 'ns2']

Moves region servers and every table of the namespaces into a group in one step.`},
		{name: "remove_servers_rsgroup", group: "rsgroup", prepare: prepareRemoveServersRSGroup, usage: `remove_servers_rsgroup ['host1:port1', 'host2:port2']

Forgets region servers that are gone or decommissioned (the master refuses live and dead ones).`},
	}
}

// rsgroupName is what HBase takes as a group's name.
var rsgroupName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// rsgroupNamespaceProperty is the namespace property naming the group of its tables.
const rsgroupNamespaceProperty = "hbase.rsgroup.name"

func groupArg(v value, what string) (string, error) {
	s, err := strVal(v, what)
	if err != nil {
		return "", err
	}
	if !rsgroupName.MatchString(s) {
		return "", fmt.Errorf("%s %s: a group's name is letters, digits and '_'", what, quoteShell(s))
	}
	return s, nil
}

// serverArg reads a region server's address, "host:port", as the shell's Address.fromString.
func serverArg(v value) (string, error) {
	s, err := strVal(v, "server")
	if err != nil {
		return "", err
	}
	host, port, err := net.SplitHostPort(s)
	p, perr := strconv.Atoi(port)
	if err != nil || host == "" || perr != nil || p < 1 || p > 65535 {
		return "", fmt.Errorf("server %s: want 'host:port'", quoteShell(s))
	}
	return s, nil
}

func tableArg(v value) (string, error) { return tableName([]value{v}, 0) }

func namespaceArg(v value) (string, error) {
	s, err := strVal(v, "namespace")
	if err == nil && s == "" {
		err = fmt.Errorf("namespace: empty")
	}
	return s, err
}

// listArg reads a non-empty list (or one name) with read.
func listArg(v value, what string, read func(value) (string, error)) ([]string, error) {
	if v.kind != vArray {
		v = value{kind: vArray, arr: []value{v}}
	}
	if len(v.arr) == 0 {
		return nil, fmt.Errorf("%s: empty list", what)
	}
	out := make([]string, 0, len(v.arr))
	for _, e := range v.arr {
		s, err := read(e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// groupRun is a command over one group's name.
type groupRun func(ctx context.Context, a *admin.Admin, group string) (shellResult, error)

func prepareGroupVerb(run groupRun) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if st.verb == "balance_rsgroup" && len(st.args) > 1 {
			return nil, fmt.Errorf("'ignore_rit' and 'dry_run' are not taken yet: the client library has no call for them")
		}
		if err := wantArgs(st.args, 1, 1, st.verb+" 'group'"); err != nil {
			return nil, err
		}
		group, err := groupArg(st.args[0], "group")
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			return run(ctx, a, group)
		}), nil
	}
}

func runAddRSGroup(ctx context.Context, a *admin.Admin, group string) (shellResult, error) {
	if err := a.AddRSGroup(ctx, group); err != nil {
		return nil, err
	}
	return done("Added rsgroup %s", group), nil
}

func runRemoveRSGroup(ctx context.Context, a *admin.Admin, group string) (shellResult, error) {
	if err := a.RemoveRSGroup(ctx, group); err != nil {
		return nil, err
	}
	return done("Removed rsgroup %s", group), nil
}

func runGetRSGroup(ctx context.Context, a *admin.Admin, group string) (shellResult, error) {
	g, err := a.RSGroup(ctx, group)
	if err != nil {
		return nil, err
	}
	return newRSGroupOut(*g), nil
}

func runShowRSGroupConfig(ctx context.Context, a *admin.Admin, group string) (shellResult, error) {
	g, err := a.RSGroup(ctx, group)
	if err != nil {
		return nil, err
	}
	return &rsgroupConfigOut{Group: g.Name, Config: rsgroupConfig(g.Config)}, nil
}

func runBalanceRSGroup(ctx context.Context, a *admin.Admin, group string) (shellResult, error) {
	ran, err := a.BalanceRSGroup(ctx, group)
	if err != nil {
		return nil, err
	}
	return &rsgroupBalanceOut{Ran: ran}, nil
}

// runUpdateRSGroupConfig does what RSGroupAdminClient.updateConfiguration does: each live
// server of the group reads its configuration again.
func runUpdateRSGroupConfig(ctx context.Context, a *admin.Admin, group string) (shellResult, error) {
	g, err := a.RSGroup(ctx, group)
	if err != nil {
		return nil, err
	}
	cs, err := a.ClusterStatus(ctx)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, s := range cs.LiveServers {
		if !slices.Contains(g.Servers, s.Server.Addr()) {
			continue
		}
		if err := a.UpdateConfiguration(ctx, s.Server.Addr()); err != nil {
			return nil, err
		}
		n++
	}
	return done("Updated the configuration of %d live server(s) of rsgroup %s", n, group), nil
}

// rsgroupOut is get_rsgroup's output, and a group of list_rsgroups'.
type rsgroupOut struct {
	Name    string            `json:"name"`
	Servers []string          `json:"servers"`
	Tables  []string          `json:"tables"`
	Config  map[string]string `json:"configuration,omitempty"`
}

func newRSGroupOut(g admin.RSGroup) *rsgroupOut {
	return &rsgroupOut{Name: g.Name, Servers: nonNil(g.Servers), Tables: nonNil(g.Tables), Config: g.Config}
}

func (r *rsgroupOut) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, "SERVERS")
	for _, s := range r.Servers {
		fmt.Fprintln(w, s)
	}
	fmt.Fprintln(w, "TABLES")
	for _, t := range r.Tables {
		if _, err := fmt.Fprintln(w, t); err != nil {
			return 0, err
		}
	}
	return int64(len(r.Servers) + len(r.Tables)), nil
}

// rsgroupsOut is list_rsgroups' output: the shell's two columns, the group's name on its
// first line only.
type rsgroupsOut struct {
	Groups []*rsgroupOut `json:"groups"`
}

func (r *rsgroupsOut) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, twoHeaders("NAME", "SERVER / TABLE"))
	for _, g := range r.Groups {
		var members []string
		for _, s := range g.Servers {
			members = append(members, "server "+s)
		}
		for _, t := range g.Tables {
			members = append(members, "table "+t)
		}
		if len(members) == 0 {
			members = []string{""}
		}
		name := g.Name
		for _, m := range members {
			if _, err := fmt.Fprintln(w, strings.TrimRight(twoColumns(name, m), " ")); err != nil {
				return 0, err
			}
			name = ""
		}
	}
	return int64(len(r.Groups)), nil
}

func prepareListRSGroups(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "list_rsgroups[ 'regex']"); err != nil {
		return nil, err
	}
	// Ruby's String#match: the expression may match anywhere in the name.
	re, err := optRegex(st.args, "%s")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		groups, err := a.RSGroups(ctx)
		if err != nil {
			return nil, err
		}
		out := &rsgroupsOut{Groups: []*rsgroupOut{}}
		for _, g := range groups {
			if re == nil || re.MatchString(g.Name) {
				out.Groups = append(out.Groups, newRSGroupOut(g))
			}
		}
		return out, nil
	}), nil
}

// rsgroupConfigOut is show_rsgroup_config's output.
type rsgroupConfigOut struct {
	Group  string          `json:"group"`
	Config []rsgroupConfKV `json:"configuration"`
}

type rsgroupConfKV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func rsgroupConfig(m map[string]string) []rsgroupConfKV {
	out := []rsgroupConfKV{}
	for _, k := range sortedKeys(m) {
		out = append(out, rsgroupConfKV{k, m[k]})
	}
	return out
}

func (r *rsgroupConfigOut) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, twoHeaders("KEY", "VALUE"))
	for _, kv := range r.Config {
		if _, err := fmt.Fprintln(w, twoColumns(kv.Key, kv.Value)); err != nil {
			return 0, err
		}
	}
	return int64(len(r.Config)), nil
}

// rsgroupBalanceOut is balance_rsgroup's output.
type rsgroupBalanceOut struct {
	Ran bool `json:"ran"`
}

func (r *rsgroupBalanceOut) shellText(w io.Writer) (int64, error) {
	msg := "Balancer did not run. See logs for details."
	if r.Ran {
		msg = "Balancer ran"
	}
	_, err := fmt.Fprintln(w, msg)
	return -1, err
}

// groupNameOut is the one group name get_server_rsgroup and its kin print.
type groupNameOut struct {
	Group string `json:"group"`
}

func (r *groupNameOut) shellText(w io.Writer) (int64, error) {
	if r.Group == "" {
		return 0, nil
	}
	_, err := fmt.Fprintln(w, r.Group)
	return 1, err
}

func (r *groupNameOut) MarshalJSON() ([]byte, error) {
	if r.Group == "" {
		return []byte(`{"group":null}`), nil
	}
	return json.Marshal(struct {
		Group string `json:"group"`
	}{r.Group})
}

// prepareGroupOf reads one argument (of the form arg) and prints the group look finds for it.
func prepareGroupOf(arg string, read func(value) (string, error), look func(ctx context.Context, a *admin.Admin, arg string) (string, error)) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, st.verb+" "+arg); err != nil {
			return nil, err
		}
		arg, err := read(st.args[0])
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			g, err := look(ctx, a, arg)
			if err != nil {
				return nil, err
			}
			return &groupNameOut{Group: g}, nil
		}), nil
	}
}

func groupOfServer(ctx context.Context, a *admin.Admin, server string) (string, error) {
	g, err := a.RSGroupOfServer(ctx, server)
	if err != nil {
		return "", err
	}
	return g.Name, nil
}

func groupOfTable(ctx context.Context, a *admin.Admin, table string) (string, error) {
	g, err := a.RSGroupOfTable(ctx, table)
	if err != nil {
		return "", err
	}
	return g.Name, nil
}

func groupOfNamespace(ctx context.Context, a *admin.Admin, ns string) (string, error) {
	d, err := a.DescribeNamespace(ctx, ns)
	if err != nil {
		return "", err
	}
	return d.Properties[rsgroupNamespaceProperty], nil
}

// prepareMoveToRSGroup reads 'dest' and a list of members ("servers", "tables" or
// "namespaces").
func prepareMoveToRSGroup(members string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		read, what := serverArg, "'host:port'"
		switch members {
		case "tables":
			read, what = tableArg, "'table'"
		case "namespaces":
			read, what = namespaceArg, "'ns'"
		}
		if err := wantArgs(st.args, 2, 2, st.verb+" 'dest', ["+what+", ...]"); err != nil {
			return nil, err
		}
		dest, err := groupArg(st.args[0], "destination group")
		if err != nil {
			return nil, err
		}
		names, err := listArg(st.args[1], members, read)
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			return moveToRSGroup(ctx, a, dest, members, names)
		}), nil
	}
}

// prepareMoveBothToRSGroup reads 'dest', a list of servers and a list of tables or of
// namespaces (members), moved in one MoveServersAndTablesToRSGroup.
func prepareMoveBothToRSGroup(members string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		read, what := tableArg, "'table'"
		if members == "namespaces" {
			read, what = namespaceArg, "'ns'"
		}
		if err := wantArgs(st.args, 3, 3, st.verb+" 'dest', ['host:port', ...], ["+what+", ...]"); err != nil {
			return nil, err
		}
		dest, err := groupArg(st.args[0], "destination group")
		if err != nil {
			return nil, err
		}
		servers, err := listArg(st.args[1], "servers", serverArg)
		if err != nil {
			return nil, err
		}
		names, err := listArg(st.args[2], members, read)
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			tables := names
			if members == "namespaces" {
				if tables, err = tablesOfNamespaces(ctx, a, names); err != nil {
					return nil, err
				}
			}
			if err := a.MoveServersAndTablesToRSGroup(ctx, dest, servers, tables); err != nil {
				return nil, serverRefusal("MoveServersAndTablesToRSGroup", servers, err)
			}
			return done("Moved server(s) %s and table(s) %s to rsgroup %s", strings.Join(servers, ", "), strings.Join(tables, ", "), dest), nil
		}), nil
	}
}

// moveToRSGroup moves servers, tables or the tables of namespaces into dest.
func moveToRSGroup(ctx context.Context, a *admin.Admin, dest, members string, names []string) (shellResult, error) {
	switch members {
	case "servers":
		if err := a.MoveServersToRSGroup(ctx, dest, names...); err != nil {
			return nil, serverRefusal("MoveServersToRSGroup", names, err)
		}
		return done("Moved server(s) %s to rsgroup %s", strings.Join(names, ", "), dest), nil
	case "namespaces":
		tables, err := tablesOfNamespaces(ctx, a, names)
		if err != nil {
			return nil, err
		}
		if len(tables) == 0 {
			// RSGroupAdminClient.moveTables of no table does nothing.
			return done("Moved no table to rsgroup %s: namespace(s) %s hold none", dest, strings.Join(names, ", ")), nil
		}
		names = tables
	}
	if err := a.MoveTablesToRSGroup(ctx, dest, names...); err != nil {
		return nil, err
	}
	return done("Moved table(s) %s to rsgroup %s", strings.Join(names, ", "), dest), nil
}

// serverRefusal names the servers in a refusal about a server (the call names the group).
func serverRefusal(op string, servers []string, err error) error {
	if errors.Is(err, hberr.ErrServerNotFound) {
		return &hberr.AdminError{Op: op, Name: strings.Join(servers, ", "), Err: err}
	}
	return err
}

// tablesOfNamespaces lists the tables of namespaces, each of which must exist.
func tablesOfNamespaces(ctx context.Context, a *admin.Admin, namespaces []string) ([]string, error) {
	var tables []string
	for _, ns := range namespaces {
		if _, err := a.DescribeNamespace(ctx, ns); err != nil {
			return nil, err
		}
		list, err := a.ListTables(ctx, hrpc.InNamespace(ns))
		if err != nil {
			return nil, err
		}
		tables = append(tables, list...)
	}
	return tables, nil
}

func prepareRemoveServersRSGroup(st statement) (action, error) {
	if len(st.args) == 0 {
		return nil, fmt.Errorf("want remove_servers_rsgroup ['host:port', ...]")
	}
	var servers []string
	for _, v := range st.args {
		list, err := listArg(v, "servers", serverArg)
		if err != nil {
			return nil, err
		}
		servers = append(servers, list...)
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.RemoveServersFromRSGroup(ctx, servers...); err != nil {
			return nil, serverRefusal("RemoveServersFromRSGroup", servers, err)
		}
		return done("Removed server(s) %s from their rsgroup", strings.Join(servers, ", ")), nil
	}), nil
}

func prepareRenameRSGroup(st statement) (action, error) {
	if err := wantArgs(st.args, 2, 2, "rename_rsgroup 'old_name', 'new_name'"); err != nil {
		return nil, err
	}
	from, err := groupArg(st.args[0], "group")
	if err != nil {
		return nil, err
	}
	to, err := groupArg(st.args[1], "new name")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.RenameRSGroup(ctx, from, to); err != nil {
			return nil, err
		}
		return done("Renamed rsgroup %s to %s", from, to), nil
	}), nil
}

func prepareAlterRSGroupConfig(st statement) (action, error) {
	if len(st.args) < 2 {
		return nil, fmt.Errorf("want alter_rsgroup_config 'group', {METHOD => 'set', 'key' => 'value'}")
	}
	group, err := groupArg(st.args[0], "group")
	if err != nil {
		return nil, err
	}
	type edit struct {
		set   map[string]string
		unset []string
	}
	var edits []edit
	for _, h := range st.args[1:] {
		set, unset, err := setUnsetHash(h)
		if err != nil {
			return nil, err
		}
		edits = append(edits, edit{set, unset})
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		g, err := a.RSGroup(ctx, group)
		if err != nil {
			return nil, err
		}
		conf := map[string]string{}
		for k, v := range g.Config {
			conf[k] = v
		}
		for _, e := range edits {
			for k, v := range e.set {
				conf[k] = v
			}
			for _, k := range e.unset {
				delete(conf, k)
			}
		}
		if err := a.UpdateRSGroupConfig(ctx, group, conf); err != nil {
			return nil, err
		}
		return &rsgroupConfigOut{Group: group, Config: rsgroupConfig(conf)}, nil
	}), nil
}
