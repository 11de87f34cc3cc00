package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/admin"
)

// The shell's tools group: regions, compactions, flushes, the balancer and normalizer.

func toolsVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "assign", group: "tools", prepare: prepareRegionVerb("assign"), usage: `assign 'encoded_region_name'
assign 'table,start,id.encoded.'

Opens a closed region on a server the master picks.`},
		{name: "unassign", group: "tools", prepare: prepareRegionVerb("unassign"), usage: `unassign 'encoded_region_name'

Closes a region; it stays closed (its rows unavailable) until assign.`},
		{name: "move", group: "tools", prepare: prepareMove, usage: `move 'encoded_region_name'
move 'encoded_region_name', 'host,port,startcode'

Moves a region to the server named, or to one the master picks.`},
		{name: "split", group: "tools", prepare: prepareSplit, usage: `split 'table'
split 'table', 'key'
split 'encoded_region_name'
split 'encoded_region_name', 'key'

Splits every region of a table at its midpoint, the region of a table holding key at key, or
one region at its midpoint or at key; returns when the daughters are open.`},
		{name: "merge_region", group: "tools", prepare: prepareMerge, usage: `merge_region 'encoded_a', 'encoded_b'
merge_region 'encoded_a', 'encoded_b', true
merge_region ['encoded_a', 'encoded_b', 'encoded_c']

Merges adjacent regions of one table (with true: regions that are not adjacent too).`},
		{name: "compact", group: "tools", prepare: prepareCompact(false), usage: `compact 'table'
compact 'table', 'family'
compact 'encoded_region_name'
compact 'encoded_region_name', 'family'

Queues a minor compaction of a table's or a region's stores (or of one family's); it runs after the command returns.`},
		{name: "major_compact", group: "tools", prepare: prepareCompact(true), usage: `major_compact 'table'
major_compact 'table', 'family'
major_compact 'encoded_region_name'
major_compact 'encoded_region_name', 'family'

Queues a major compaction (every store file of each store rewritten into one).`},
		{name: "flush", group: "tools", prepare: prepareFlush, usage: `flush 'table'
flush 'table', 'family'
flush 'encoded_region_name'
flush 'encoded_region_name', 'family'

Writes the memstores of a table or region (or of one family of it) to store files.`},
		{name: "balancer", group: "tools", prepare: prepareBalancer, usage: `balancer

Runs the balancer once; prints true if it ran (it does not while switched off or while regions
are in transition).`},
		{name: "balance_switch", group: "tools", prepare: prepareSwitch("balance_switch", (*admin.Admin).SetBalancer), usage: `balance_switch true
balance_switch false

Switches the balancer on or off; prints the previous state.`},
		{name: "balancer_enabled", group: "tools", prepare: prepareEnabled((*admin.Admin).BalancerEnabled), usage: `balancer_enabled

Prints true when the balancer is on.`},
		{name: "normalizer_switch", group: "tools", prepare: prepareSwitch("normalizer_switch", (*admin.Admin).SetNormalizer), usage: `normalizer_switch true
normalizer_switch false

Switches the region normalizer on or off; prints the previous state.`},
		{name: "normalizer_enabled", group: "tools", prepare: prepareEnabled((*admin.Admin).NormalizerEnabled), usage: `normalizer_enabled

Prints true when the region normalizer is on.`},
		{name: "list_deadservers", group: "tools", prepare: prepareDeadServers, usage: `list_deadservers

Lists the region servers the master holds as dead.`},
	}
}

// regionArg reads a region name, full or encoded.
func regionArg(v value) ([]byte, error) {
	s, err := strVal(v, "region name")
	if err != nil {
		return nil, err
	}
	if !isRegionName(s) {
		return nil, fmt.Errorf("%s is not a region name: want its encoded name (32 hex digits) or its full name", quoteShell(s))
	}
	return []byte(s), nil
}

func prepareRegionVerb(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 2, verb+" 'region'"); err != nil {
			return nil, err
		}
		region, err := regionArg(st.args[0])
		if err != nil {
			return nil, err
		}
		if len(st.args) == 2 {
			// unassign's force flag: the master's unassign is always what the shell's force did.
			if _, err := boolVal(st.args[1], "force"); err != nil || verb != "unassign" {
				return nil, fmt.Errorf("want %s 'region'", verb)
			}
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			if verb == "assign" {
				if err := a.AssignRegion(ctx, region); err != nil {
					return nil, err
				}
				return done("Assigned region %s", string(region)), nil
			}
			if err := a.UnassignRegion(ctx, region); err != nil {
				return nil, err
			}
			return done("Unassigned region %s", string(region)), nil
		}), nil
	}
}

// adminAction runs f with the Admin, bounded by -timeout.
func adminAction(f func(ctx context.Context, a *admin.Admin) (shellResult, error)) action {
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		a, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		return f(ctx, a)
	}
}

func prepareMove(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "move 'region'[, 'host,port,startcode']"); err != nil {
		return nil, err
	}
	region, err := regionArg(st.args[0])
	if err != nil {
		return nil, err
	}
	dest := ""
	if len(st.args) == 2 && st.args[1].kind != vNil {
		if dest, err = strVal(st.args[1], "server"); err != nil {
			return nil, err
		}
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.MoveRegion(ctx, region, dest); err != nil {
			return nil, err
		}
		r, err := a.Region(ctx, region)
		if err != nil {
			return done("Moved region %s", string(region)), nil
		}
		return done("Moved region %s to %s", r.Encoded, r.Server.String()), nil
	}), nil
}

func prepareSplit(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "split 'table or region'[, 'key']"); err != nil {
		return nil, err
	}
	target, err := strVal(st.args[0], "table or region")
	if err != nil {
		return nil, err
	}
	var key []byte
	if len(st.args) == 2 {
		k, err := strVal(st.args[1], "split key")
		if err != nil {
			return nil, err
		}
		if k == "" {
			return nil, fmt.Errorf("split key: empty")
		}
		key = []byte(k)
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		switch {
		case isRegionName(target):
			if err := a.SplitRegion(ctx, []byte(target), key); err != nil {
				return nil, err
			}
			return done("Split region %s", target), nil
		case key != nil:
			if err := a.SplitTable(ctx, target, key); err != nil {
				return nil, err
			}
			return done("Split table %s at %s", target, quoteShell(string(key))), nil
		}
		regions, err := a.Regions(ctx, target)
		if err != nil {
			return nil, err
		}
		for _, r := range regions {
			if err := a.SplitRegion(ctx, r.Name, nil); err != nil {
				return nil, err
			}
		}
		return done("Split the %d region(s) of %s at their midpoints", len(regions), target), nil
	}), nil
}

func prepareMerge(st statement) (action, error) {
	args := st.args
	var names []value
	force := false
	switch {
	case len(args) >= 1 && args[0].kind == vArray:
		names = args[0].arr
		args = args[1:]
	case len(args) >= 2:
		names = args[:2]
		args = args[2:]
	default:
		return nil, fmt.Errorf("want merge_region 'region_a', 'region_b'[, force] or merge_region ['a', 'b', ...][, force]")
	}
	if len(args) > 1 {
		return nil, fmt.Errorf("want merge_region 'region_a', 'region_b'[, force]")
	}
	if len(args) == 1 {
		var err error
		if force, err = boolVal(args[0], "force"); err != nil {
			return nil, err
		}
	}
	if len(names) < 2 {
		return nil, fmt.Errorf("a merge needs two regions or more")
	}
	var regions [][]byte
	for _, n := range names {
		r, err := regionArg(n)
		if err != nil {
			return nil, err
		}
		regions = append(regions, r)
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.MergeRegions(ctx, force, regions...); err != nil {
			return nil, err
		}
		var s []string
		for _, r := range regions {
			s = append(s, string(r))
		}
		return done("Merged regions %s", strings.Join(s, ", ")), nil
	}), nil
}

func prepareCompact(major bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 3, st.verb+" 'table or region'[, 'family']"); err != nil {
			return nil, err
		}
		if len(st.args) == 3 {
			return nil, fmt.Errorf("a compaction type (MOB) is not taken yet: the client library has no call for it")
		}
		target, family, err := targetAndFamily(st.args)
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			var err error
			switch {
			case isRegionName(target) && family != "":
				err = a.CompactRegionFamily(ctx, []byte(target), family, major)
			case isRegionName(target):
				err = a.CompactRegion(ctx, []byte(target), major)
			case family != "":
				err = a.CompactFamily(ctx, target, family, major)
			default:
				err = a.CompactTable(ctx, target, major)
			}
			if err != nil {
				return nil, err
			}
			return done("Queued a %s compaction of %s", compactionKind(major), ofFamily(target, family)), nil
		}), nil
	}
}

// targetAndFamily reads a table or region name and the family that may follow it (nil or
// absent: every family).
func targetAndFamily(args []value) (target, family string, err error) {
	if target, err = strVal(args[0], "table or region"); err != nil {
		return "", "", err
	}
	if len(args) > 1 && args[1].kind != vNil {
		if family, err = strVal(args[1], "family"); err != nil {
			return "", "", err
		}
		if family == "" {
			return "", "", fmt.Errorf("family: empty")
		}
	}
	return target, family, nil
}

// ofFamily names what a flush or compaction was of.
func ofFamily(target, family string) string {
	if family == "" {
		return target
	}
	return fmt.Sprintf("family %s of %s", quoteShell(family), target)
}

func prepareFlush(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "flush 'table, region or region server'[, 'family']"); err != nil {
		return nil, err
	}
	target, family, err := targetAndFamily(st.args)
	if err != nil {
		return nil, err
	}
	server := flushServer(target, family)
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		var err error
		switch {
		case server != "":
			if err := a.FlushRegionServer(ctx, server); err != nil {
				return nil, serverRefusal("FlushRegionServer", []string{server}, err)
			}
			return done("Flushed every region of region server %s", server), nil
		case isRegionName(target) && family != "":
			err = a.FlushRegionFamily(ctx, []byte(target), family)
		case isRegionName(target):
			err = a.FlushRegion(ctx, []byte(target))
		case family != "":
			err = a.FlushFamily(ctx, target, family)
		default:
			err = a.FlushTable(ctx, target)
		}
		if err != nil {
			return nil, err
		}
		return done("Flushed %s", ofFamily(target, family)), nil
	}), nil
}

// flushServer is the region server flush names ('host,port' or 'host,port,startcode': no
// table holds a ',', and every region name has a third part that is not a number), or "".
func flushServer(target, family string) string {
	if family != "" || !strings.Contains(target, ",") {
		return ""
	}
	server, err := serverNameArg(value{kind: vString, s: target})
	if err != nil {
		return ""
	}
	return server
}

func prepareBalancer(st statement) (action, error) {
	if len(st.args) > 1 {
		return nil, fmt.Errorf("want balancer")
	}
	if len(st.args) == 1 {
		return nil, fmt.Errorf("balancer 'force' is not taken yet: the client library has no call for it")
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		ran, err := a.Balance(ctx)
		if err != nil {
			return nil, err
		}
		return &boolResult{Value: ran}, nil
	}), nil
}

// setSwitch is an Admin call setting one of the master's switches and returning its previous
// state; getSwitch one reading it.
type (
	setSwitch func(*admin.Admin, context.Context, bool) (bool, error)
	getSwitch func(*admin.Admin, context.Context) (bool, error)
)

func prepareSwitch(verb string, set setSwitch) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" true|false"); err != nil {
			return nil, err
		}
		on, err := boolVal(st.args[0], "switch")
		if err != nil {
			return nil, err
		}
		return switchAction(set, on), nil
	}
}

// switchAction sets a switch and prints its previous state, as the shell's *_switch verbs.
func switchAction(set setSwitch, on bool) action {
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		prev, err := set(a, ctx, on)
		if err != nil {
			return nil, err
		}
		return &boolResult{Value: prev, text: "Previous state:"}, nil
	})
}

func prepareEnabled(get getSwitch) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if len(st.args) > 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		return boolAction(get), nil
	}
}

// boolAction prints the answer of a yes/no call.
func boolAction(get getSwitch) action {
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		on, err := get(a, ctx)
		if err != nil {
			return nil, err
		}
		return &boolResult{Value: on}, nil
	})
}

func prepareDeadServers(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		cs, err := a.ClusterStatus(ctx)
		if err != nil {
			return nil, err
		}
		out := &listOut{Header: "SERVERNAME", Names: []string{}}
		for _, d := range cs.DeadServers {
			out.Names = append(out.Names, d.String())
		}
		return out, nil
	}), nil
}
