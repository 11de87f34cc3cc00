package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/user"
	"regexp"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// The shell's snapshot commands and its general group.

func snapshotVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "snapshot", group: "snapshots", prepare: prepareSnapshot, usage: `snapshot 'table', 'snapshot_name'
snapshot 'table', 'snapshot_name', {SKIP_FLUSH => true}
snapshot 'table', 'snapshot_name', {TTL => seconds}

Takes a snapshot of a table (its memstores flushed first, unless SKIP_FLUSH); with TTL the
master deletes it that many seconds after its creation while snapshot cleanup is on.`},
		{name: "clone_snapshot", group: "snapshots", prepare: prepareTwoNames("clone_snapshot", "'snapshot_name', 'new_table'"), usage: `clone_snapshot 'snapshot_name', 'new_table'

Creates a new table from a snapshot, sharing its files.`},
		{name: "restore_snapshot", group: "snapshots", prepare: prepareOneName("restore_snapshot", "'snapshot_name'"), usage: `restore_snapshot 'snapshot_name'

Puts a disabled table back as the snapshot has it.`},
		{name: "delete_snapshot", group: "snapshots", prepare: prepareOneName("delete_snapshot", "'snapshot_name'"), usage: `delete_snapshot 'snapshot_name'

Deletes a snapshot.`},
		{name: "delete_all_snapshot", group: "snapshots", prepare: prepareSnapshotsByRegex("delete_all_snapshot"), usage: `delete_all_snapshot 'regex'

Deletes every snapshot whose name matches the regular expression.`},
		{name: "delete_table_snapshots", group: "snapshots", prepare: prepareSnapshotsByRegex("delete_table_snapshots"), usage: `delete_table_snapshots 'table_regex'
delete_table_snapshots 'table_regex', 'snapshot_regex'

Deletes the snapshots of the tables matching the first regular expression (and whose name
matches the second).`},
		{name: "list_snapshots", group: "snapshots", prepare: prepareSnapshotsByRegex("list_snapshots"), usage: `list_snapshots
list_snapshots 'regex'

Lists the snapshots, or those whose name matches the regular expression.`},
		{name: "list_table_snapshots", group: "snapshots", prepare: prepareSnapshotsByRegex("list_table_snapshots"), usage: `list_table_snapshots 'table_regex'
list_table_snapshots 'table_regex', 'snapshot_regex'

Lists the snapshots of the tables matching the regular expression.`},
	}
}

func generalVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "status", group: "general", prepare: prepareStatus, usage: `status
status 'summary'
status 'simple'
status 'detailed'

Prints the cluster's masters and servers: in summary, one line per server with its
requests, heap and regions (simple), or each server's load and each of its regions with its
figures (detailed).`},
		{name: "version", group: "general", prepare: prepareVersion, usage: `version

Prints the HBase version the cluster reports.`},
		{name: "whoami", group: "general", prepare: prepareWhoami, usage: `whoami

Prints the user this client connects as: the Kerberos principal, or the local user.`},
		{name: "table_help", group: "general", prepare: prepareTableHelp, usage: `table_help

Says how tables are named in commands (the shell's table objects are Ruby and not taken here).`},
	}
}

func prepareSnapshot(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if err := wantArgs(args, 2, 2, "snapshot 'table', 'snapshot_name'"); err != nil {
		return nil, err
	}
	opts, err := snapshotOptions(h)
	if err != nil {
		return nil, err
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	name, err := strVal(args[1], "snapshot name")
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, fmt.Errorf("snapshot name: empty")
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.Snapshot(ctx, name, table, opts...); err != nil {
			return nil, err
		}
		return done("Took snapshot %s of %s", name, table), nil
	}), nil
}

func prepareTwoNames(verb, form string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 2, 2, verb+" "+form); err != nil {
			return nil, err
		}
		snap, err := strVal(st.args[0], "snapshot name")
		if err != nil {
			return nil, err
		}
		table, err := tableName(st.args, 1)
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			if err := a.CloneSnapshot(ctx, snap, table); err != nil {
				return nil, err
			}
			return done("Cloned snapshot %s into table %s", snap, table), nil
		}), nil
	}
}

func prepareOneName(verb, form string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" "+form); err != nil {
			return nil, err
		}
		snap, err := strVal(st.args[0], "snapshot name")
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			if verb == "restore_snapshot" {
				if err := a.RestoreSnapshot(ctx, snap); err != nil {
					return nil, err
				}
				return done("Restored snapshot %s", snap), nil
			}
			if err := a.DeleteSnapshot(ctx, snap); err != nil {
				return nil, err
			}
			return done("Deleted snapshot %s", snap), nil
		}), nil
	}
}

// snapshotsOut is what list_snapshots prints.
type snapshotsOut struct {
	Snapshots []snapshotOut `json:"snapshots"`
	Deleted   bool          `json:"deleted,omitempty"`
}

func (r *snapshotsOut) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, twoHeaders("SNAPSHOT", "TABLE + CREATION TIME"))
	for _, s := range r.Snapshots {
		fmt.Fprintln(w, twoColumns(s.Name, fmt.Sprintf("%s (%s)", s.Table, s.Created.Local().Format("2006-01-02 15:04:05 -0700"))))
	}
	if r.Deleted {
		fmt.Fprintf(w, "Deleted the %d snapshot(s) above\n", len(r.Snapshots))
	}
	return int64(len(r.Snapshots)), nil
}

// fullMatch compiles a regular expression that must match a whole name, as Java's
// Pattern.matches does.
func fullMatch(s string) (*regexp.Regexp, error) {
	re, err := regexp.Compile("^(?:" + s + ")$")
	if err != nil {
		return nil, fmt.Errorf("regex %s: %v", quoteShell(s), err)
	}
	return re, nil
}

func prepareSnapshotsByRegex(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		lo, hi, form := 0, 1, "'regex'"
		switch verb {
		case "delete_all_snapshot":
			lo = 1
		case "delete_table_snapshots", "list_table_snapshots":
			lo, hi, form = 1, 2, "'table_regex'[, 'snapshot_regex']"
		}
		if err := wantArgs(st.args, lo, hi, verb+" "+form); err != nil {
			return nil, err
		}
		var res []*regexp.Regexp
		for i, a := range st.args {
			s, err := strVal(a, "regex")
			if err != nil {
				return nil, err
			}
			re, err := fullMatch(s)
			if err != nil {
				return nil, err
			}
			_ = i
			res = append(res, re)
		}
		match := func(s hrpc.Snapshot) bool {
			switch verb {
			case "delete_table_snapshots", "list_table_snapshots":
				return res[0].MatchString(s.Table) && (len(res) < 2 || res[1].MatchString(s.Name))
			}
			return len(res) == 0 || res[0].MatchString(s.Name)
		}
		deleting := verb == "delete_all_snapshot" || verb == "delete_table_snapshots"
		return func(ctx context.Context, sh *shell) (shellResult, error) {
			a, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
			if err != nil {
				return nil, err
			}
			defer cancel()
			snaps, err := a.ListSnapshots(ctx)
			if err != nil {
				return nil, err
			}
			out := &snapshotsOut{Snapshots: []snapshotOut{}, Deleted: deleting}
			var picked []hrpc.Snapshot
			for _, s := range snaps {
				if match(s) {
					picked = append(picked, s)
					out.Snapshots = append(out.Snapshots, snapshotOut{Name: s.Name, Table: s.Table, Created: s.Created, Owner: s.Owner, Type: s.Type})
				}
			}
			if deleting && len(picked) > 0 {
				if sh.confirm != nil && !sh.confirm(fmt.Sprintf("Delete the %d snapshot(s) matched (y/n)? ", len(picked))) {
					return done("Nothing done"), nil
				}
				for _, s := range picked {
					if err := a.DeleteSnapshot(ctx, s.Name); err != nil {
						return nil, err
					}
				}
			}
			return out, nil
		}, nil
	}
}

// statusOut is what status prints.
type statusOut struct {
	Master        string   `json:"master"`
	BackupMasters []string `json:"backup_masters"`
	Live          []string `json:"live_servers"`
	Dead          []string `json:"dead_servers"`
	Regions       int      `json:"regions"`
	Version       string   `json:"version"`
	lines         []string
	summary       string
}

func (r *statusOut) shellText(w io.Writer) (int64, error) {
	for _, l := range r.lines {
		fmt.Fprintln(w, l)
	}
	if r.summary == "" { // status 'detailed' has no summary line
		return -1, nil
	}
	_, err := fmt.Fprintln(w, r.summary)
	return -1, err
}

func prepareStatus(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "status[ 'summary'|'simple'|'detailed']"); err != nil {
		return nil, err
	}
	format := "summary"
	if len(st.args) == 1 {
		s, err := strVal(st.args[0], "format")
		if err != nil {
			return nil, err
		}
		if s != "summary" && s != "simple" && s != "detailed" {
			return nil, fmt.Errorf("format: want 'summary', 'simple' or 'detailed' ('replication' is not taken yet: the client library has no call for the servers' replication status)")
		}
		format = s
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		cs, err := a.ClusterStatus(ctx)
		if err != nil {
			return nil, err
		}
		out := &statusOut{Master: cs.Master.String(), BackupMasters: []string{}, Live: []string{}, Dead: []string{}, Regions: cs.Regions(), Version: cs.Version}
		for _, b := range cs.BackupMasters {
			out.BackupMasters = append(out.BackupMasters, b.String())
		}
		for _, s := range cs.LiveServers {
			out.Live = append(out.Live, s.Server.String())
		}
		for _, d := range cs.DeadServers {
			out.Dead = append(out.Dead, d.String())
		}
		avg := 0.0
		if len(cs.LiveServers) > 0 {
			avg = float64(cs.Regions()) / float64(len(cs.LiveServers))
		}
		out.summary = fmt.Sprintf("1 active master, %d backup masters, %d servers, %d dead, %.4f average load",
			len(cs.BackupMasters), len(cs.LiveServers), len(cs.DeadServers), avg)
		if format == "detailed" {
			out.lines, out.summary = statusDetailed(cs), ""
		}
		if format == "simple" {
			out.lines = append(out.lines, "active master:  "+cs.Master.String(), fmt.Sprintf("%d backup masters", len(cs.BackupMasters)))
			for _, b := range cs.BackupMasters {
				out.lines = append(out.lines, "    "+b.String())
			}
			out.lines = append(out.lines, fmt.Sprintf("%d live servers", len(cs.LiveServers)))
			for _, s := range cs.LiveServers {
				out.lines = append(out.lines, "    "+s.Server.String(),
					fmt.Sprintf("        requestsPerSecond=%d, numberOfOnlineRegions=%d, usedHeapMB=%d, maxHeapMB=%d",
						s.RequestsPerSec, len(s.Regions), s.UsedHeapMB, s.MaxHeapMB))
			}
			out.lines = append(out.lines, fmt.Sprintf("%d dead servers", len(cs.DeadServers)))
			for _, d := range cs.DeadServers {
				out.lines = append(out.lines, "    "+d.String())
			}
		}
		return out, nil
	}), nil
}

func prepareVersion(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		cs, err := a.ClusterStatus(ctx)
		if err != nil {
			return nil, err
		}
		return done("HBase %s (as the cluster reports it); hbasectl on go-hbase", cs.Version), nil
	}), nil
}

func prepareWhoami(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		s := sh.c.conn.Security
		switch {
		case s.Kerberos && s.Principal != "":
			return done("%s (Kerberos)", s.Principal), nil
		case s.Kerberos:
			return done("the principal of the credential cache %s (Kerberos)", s.CCache), nil
		}
		name := os.Getenv("USER")
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
		return done("%s (simple authentication)", name), nil
	}, nil
}

func prepareTableHelp(st statement) (action, error) {
	return func(context.Context, *shell) (shellResult, error) {
		return &textResult{Lines: []string{
			"Tables are named by a quoted string in every command: get 'ns:table', 'row'.",
			"The HBase shell's table objects (t = get_table 't'; t.scan) are Ruby and not taken here:",
			"write the command with the table's name instead (scan 't')."}}, nil
	}, nil
}
