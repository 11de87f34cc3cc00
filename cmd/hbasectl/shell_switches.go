package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-hbase/hbase/admin"
)

// The shell's tools group, the master's switches and chores: splits and merges, the catalog
// janitor, the cleaner chore, snapshot cleanup, maintenance mode and a normalizer run.

func switchVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "catalogjanitor_switch", group: "tools", prepare: prepareSwitch("catalogjanitor_switch", (*admin.Admin).SetCatalogJanitor), usage: `catalogjanitor_switch true
catalogjanitor_switch false

Switches the catalog janitor on or off; prints the previous state. While off, the parents of
split and merged regions stay in hbase:meta and their files on the file system.`},
		{name: "catalogjanitor_enabled", group: "tools", prepare: prepareEnabled((*admin.Admin).CatalogJanitorEnabled), usage: `catalogjanitor_enabled

Prints true when the catalog janitor is on.`},
		{name: "catalogjanitor_run", group: "tools", prepare: prepareNoArgs(adminAction(runCatalogJanitor)), usage: `catalogjanitor_run

Runs the catalog janitor once, on or off; prints how many cleanups of split and merge parents
it started (they finish in the master soon after).`},
		{name: "cleaner_chore_switch", group: "tools", prepare: prepareSwitch("cleaner_chore_switch", (*admin.Admin).SetCleanerChore), usage: `cleaner_chore_switch true
cleaner_chore_switch false

Switches the cleaner chore (old WALs and archived HFiles) on or off; prints the previous state.`},
		{name: "cleaner_chore_enabled", group: "tools", prepare: prepareEnabled((*admin.Admin).CleanerChoreEnabled), usage: `cleaner_chore_enabled

Prints true when the cleaner chore is on.`},
		{name: "cleaner_chore_run", group: "tools", prepare: prepareNoArgs(boolAction((*admin.Admin).RunCleanerChore)), usage: `cleaner_chore_run

Runs the cleaner chore once; prints true when it deleted every old file it went through (false
when some stay, such as archived files a snapshot still references).`},
		{name: "snapshot_cleanup_switch", group: "tools", prepare: prepareSwitch("snapshot_cleanup_switch", (*admin.Admin).SetSnapshotCleanup), usage: `snapshot_cleanup_switch true
snapshot_cleanup_switch false

Switches the deletion of snapshots past their TTL on or off; prints the previous state.`},
		{name: "snapshot_cleanup_enabled", group: "tools", prepare: prepareEnabled((*admin.Admin).SnapshotCleanupEnabled), usage: `snapshot_cleanup_enabled

Prints true when snapshots past their TTL are deleted.`},
		{name: "splitormerge_switch", group: "tools", prepare: prepareSplitOrMerge(true), usage: `splitormerge_switch 'SPLIT', true
splitormerge_switch 'MERGE', false

Switches region splits or merges on or off, cluster-wide; prints the previous state. While
off, the master refuses them (and no server splits a region on its own).`},
		{name: "splitormerge_enabled", group: "tools", prepare: prepareSplitOrMerge(false), usage: `splitormerge_enabled 'SPLIT'
splitormerge_enabled 'MERGE'

Prints true when region splits (or merges) are on.`},
		{name: "is_in_maintenance_mode", group: "tools", prepare: prepareNoArgs(boolAction((*admin.Admin).InMaintenanceMode)), usage: `is_in_maintenance_mode

Prints true when the master is in maintenance mode (it serves only hbase:meta and the system
tables).`},
		{name: "normalize", group: "tools", prepare: prepareNormalize, usage: `normalize
normalize TABLE_NAMES => ['t1', 't2']
normalize REGEX => 'my_.*'
normalize NAMESPACE => 'ns1'
normalize NAMESPACE => 'ns1', REGEX => '.*_big'

Runs the region normalizer once, on every table whose NORMALIZATION_ENABLED is on or on the
tables selected; prints true if it ran (it does not while normalizer_switch is off). It
returns once the merges and splits are submitted, not done.`},
	}
}

// prepareNoArgs is the preparation of a verb without arguments.
func prepareNoArgs(act action) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if len(st.args) > 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		return act, nil
	}
}

func runCatalogJanitor(ctx context.Context, a *admin.Admin) (shellResult, error) {
	n, err := a.RunCatalogJanitor(ctx)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return done("A catalog janitor run was under way already; this one did nothing"), nil
	}
	return done("Catalog janitor ran: %d cleanup(s) of split or merge parents started", n), nil
}

// prepareSplitOrMerge reads the shell's 'SPLIT' or 'MERGE' and, for the switch, its state.
func prepareSplitOrMerge(setting bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		form, n := st.verb+" 'SPLIT'|'MERGE'", 1
		if setting {
			form, n = form+", true|false", 2
		}
		if err := wantArgs(st.args, n, n, form); err != nil {
			return nil, err
		}
		kind, err := scalarText(st.args[0])
		if err != nil || kind != "SPLIT" && kind != "MERGE" {
			return nil, fmt.Errorf("switch type: want 'SPLIT' or 'MERGE', got %s", st.args[0].describe())
		}
		if !setting {
			if kind == "SPLIT" {
				return boolAction((*admin.Admin).SplitEnabled), nil
			}
			return boolAction((*admin.Admin).MergeEnabled), nil
		}
		on, err := boolVal(st.args[1], "switch")
		if err != nil {
			return nil, err
		}
		if kind == "SPLIT" {
			return switchAction((*admin.Admin).SetSplit, on), nil
		}
		return switchAction((*admin.Admin).SetMerge, on), nil
	}
}

// prepareNormalize reads normalize's optional hash: TABLE_NAMES, REGEX and NAMESPACE.
func prepareNormalize(st statement) (action, error) {
	args, opts := splitOpts(st.args)
	if len(args) > 0 {
		return nil, fmt.Errorf("want normalize or normalize TABLE_NAMES => ['t', ...] | REGEX => 're' | NAMESPACE => 'ns'")
	}
	if err := checkKeys("normalize", opts, "TABLE_NAMES", "REGEX", "NAMESPACE"); err != nil {
		return nil, err
	}
	var sel []admin.NormalizeOption
	if v, ok := opts.get("TABLE_NAMES"); ok {
		names, err := strList(v, "TABLE_NAMES")
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("TABLE_NAMES: empty list")
		}
		if slices.Contains(names, "") {
			return nil, fmt.Errorf("TABLE_NAMES: an empty table name")
		}
		sel = append(sel, admin.NormalizeTables(names...))
	}
	for key, opt := range map[string]func(string) admin.NormalizeOption{"REGEX": admin.NormalizeRegex, "NAMESPACE": admin.NormalizeNamespace} {
		if v, ok := opts.get(key); ok {
			s, err := strVal(v, key)
			if err != nil {
				return nil, err
			}
			if s == "" {
				return nil, fmt.Errorf("%s: empty", key)
			}
			sel = append(sel, opt(s))
		}
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		ran, err := a.Normalize(ctx, sel...)
		if err != nil {
			return nil, err
		}
		return &boolResult{Value: ran}, nil
	}), nil
}
