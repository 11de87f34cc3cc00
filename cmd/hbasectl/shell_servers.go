package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// The shell's commands about region servers and what they hold: compactions per server and
// their switch, decommissioning, the block cache, WAL rolls, configuration reloads, a
// region's info and truncation.

func serversVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "compact_rs", group: "tools", prepare: prepareCompactRS, usage: `compact_rs 'host,port'
compact_rs 'host,port,startcode', true

Queues a compaction (with true a major one) of every region the region server serves.`},
		{name: "compaction_state", group: "tools", prepare: prepareCompactionState, usage: `compaction_state 'table'
compaction_state 'encoded_region_name'

Prints what a table's regions (or one region) are compacting: NONE, MINOR, MAJOR or
MAJOR_AND_MINOR.`},
		{name: "compaction_switch", group: "tools", prepare: prepareCompactionSwitch, usage: `compaction_switch true
compaction_switch false, ['host,port,startcode', ...]

Turns compactions on or off on the servers named (every live one when none is); prints each
server's previous state. Compactions under way finish; queued ones wait while off.`},
		{name: "decommission_regionservers", group: "tools", prepare: prepareDecommission, usage: `decommission_regionservers 'host,port'
decommission_regionservers ['host,port,startcode', ...], true

Marks region servers decommissioned: the master assigns them no region until
recommission_regionserver; with true it moves their regions away first.`},
		{name: "list_decommissioned_regionservers", group: "tools", prepare: prepareListDecommissioned, usage: `list_decommissioned_regionservers

Lists the decommissioned region servers.`},
		{name: "recommission_regionserver", group: "tools", prepare: prepareRecommission, usage: `recommission_regionserver 'host,port,startcode'
recommission_regionserver 'host,port,startcode', ['encoded_region_name', ...]

Lets a decommissioned region server take regions again, and moves the regions named to it.`},
		{name: "clear_block_cache", group: "tools", prepare: prepareClearBlockCache, usage: `clear_block_cache 'table'

Evicts the blocks of a table's regions from their servers' block caches; prints what went.`},
		{name: "regioninfo", group: "tools", prepare: prepareRegionInfo, usage: `regioninfo 'table,start,id.encoded.'
regioninfo 'encoded_region_name'

Prints a region's name, encoded name and keys, as hbase:meta holds them.`},
		{name: "truncate_region", group: "tools", prepare: prepareTruncateRegion, usage: `truncate_region 'encoded_region_name'
truncate_region 'table,start,id.encoded.'

Deletes every row of one region, keeping its key range (HBase 2.6 and later).`},
		{name: "wal_roll", group: "tools", prepare: prepareServerCall("wal_roll"), usage: `wal_roll 'host,port,startcode'

Has a region server close its write-ahead logs and start new ones.`},
		{name: "update_config", group: "configuration", prepare: prepareServerCall("update_config"), usage: `update_config 'host,port,startcode'

Has one server (a region server or a master) read its configuration files again and apply
what can change while it runs.`},
		{name: "update_all_config", group: "configuration", prepare: prepareUpdateAllConfig, usage: `update_all_config

Has every live region server and master read its configuration files again.`},
	}
}

// serverNameArg reads a server name as the shell takes it ('host,port' or 'host,port,startcode',
// or 'host:port') in a form the Admin takes.
func serverNameArg(v value) (string, error) {
	s, err := strVal(v, "server name")
	if err != nil {
		return "", err
	}
	parts := strings.Split(s, ",")
	if strings.Contains(s, ":") && len(parts) == 1 {
		parts = strings.Split(s, ":")
	}
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" {
		return "", fmt.Errorf("server name %s: want 'host,port' or 'host,port,startcode'", quoteShell(s))
	}
	for _, n := range parts[1:] {
		if _, err := strconv.ParseUint(n, 10, 64); err != nil {
			return "", fmt.Errorf("server name %s: port and start code are numbers", quoteShell(s))
		}
	}
	if len(parts) == 2 {
		return parts[0] + ":" + parts[1], nil
	}
	return s, nil
}

// optBool reads an optional trailing true/false argument at args[i].
func optBool(args []value, i int, what string) (bool, error) {
	if len(args) <= i {
		return false, nil
	}
	return boolVal(args[i], what)
}

func prepareCompactRS(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "compact_rs 'host,port'[, major]"); err != nil {
		return nil, err
	}
	server, err := serverNameArg(st.args[0])
	if err != nil {
		return nil, err
	}
	major, err := optBool(st.args, 1, "major")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.CompactRegionServer(ctx, server, major); err != nil {
			return nil, err
		}
		return done("Queued a %s compaction of the regions of %s", compactionKind(major), server), nil
	}), nil
}

func compactionKind(major bool) string {
	if major {
		return "major"
	}
	return "minor"
}

// stateResult is a one-word answer (a compaction state).
type stateResult struct {
	State string `json:"state"`
}

func (r *stateResult) shellText(w io.Writer) (int64, error) {
	_, err := fmt.Fprintln(w, r.State)
	return -1, err
}

func prepareCompactionState(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 1, "compaction_state 'table'"); err != nil {
		return nil, err
	}
	target, err := strVal(st.args[0], "table or region")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		var s admin.CompactionState
		var err error
		if isRegionName(target) {
			s, err = a.RegionCompactionState(ctx, []byte(target))
		} else {
			s, err = a.TableCompactionState(ctx, target)
		}
		if err != nil {
			return nil, err
		}
		return &stateResult{State: s.String()}, nil
	}), nil
}

// switchOut is each server's previous compaction switch.
type switchOut struct {
	Previous map[string]bool `json:"previous"`
}

func (r *switchOut) shellText(w io.Writer) (int64, error) {
	names := make([]string, 0, len(r.Previous))
	for n := range r.Previous {
		names = append(names, n)
	}
	sort.Strings(names)
	rows := make([][]string, 0, len(names))
	for _, n := range names {
		rows = append(rows, []string{n, strconv.FormatBool(r.Previous[n])})
	}
	return int64(len(rows)), writeTable(w, []string{"SERVER", "PREV_STATE"}, rows)
}

func prepareCompactionSwitch(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "compaction_switch true|false[, ['host,port,startcode', ...]]"); err != nil {
		return nil, err
	}
	on, err := boolVal(st.args[0], "switch")
	if err != nil {
		return nil, err
	}
	var servers []string
	if len(st.args) == 2 {
		if servers, err = listArg(st.args[1], "servers", serverNameArg); err != nil {
			return nil, err
		}
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		prev, err := a.CompactionSwitch(ctx, on, servers...)
		if err != nil {
			return nil, err
		}
		out := &switchOut{Previous: map[string]bool{}}
		for sn, p := range prev {
			out.Previous[sn.String()] = p
		}
		return out, nil
	}), nil
}

func prepareDecommission(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "decommission_regionservers 'host,port' or ['host,port', ...][, offload]"); err != nil {
		return nil, err
	}
	servers, err := listArg(st.args[0], "servers", serverNameArg)
	if err != nil {
		return nil, err
	}
	offload, err := optBool(st.args, 1, "offload")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.DecommissionServers(ctx, offload, servers...); err != nil {
			return nil, err
		}
		return done("Decommissioned %s", strings.Join(servers, ", ")), nil
	}), nil
}

func prepareListDecommissioned(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		sns, err := a.DecommissionedServers(ctx)
		if err != nil {
			return nil, err
		}
		return serverList("DECOMMISSIONED REGION SERVERS", sns), nil
	}), nil
}

func serverList(header string, sns []hrpc.ServerName) *listOut {
	out := &listOut{Header: header, Names: []string{}}
	for _, sn := range sns {
		out.Names = append(out.Names, sn.String())
	}
	sort.Strings(out.Names)
	return out
}

func prepareRecommission(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "recommission_regionserver 'host,port,startcode'[, ['encoded_region_name', ...]]"); err != nil {
		return nil, err
	}
	server, err := serverNameArg(st.args[0])
	if err != nil {
		return nil, err
	}
	var regions [][]byte
	if len(st.args) == 2 {
		if st.args[1].kind != vArray {
			return nil, fmt.Errorf("regions: want an array of region names, got %s", st.args[1].describe())
		}
		for _, v := range st.args[1].arr {
			r, err := regionArg(v)
			if err != nil {
				return nil, err
			}
			regions = append(regions, r)
		}
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.RecommissionServer(ctx, server, regions...); err != nil {
			return nil, err
		}
		return done("Recommissioned %s", server), nil
	}), nil
}

// evictionOut is what clear_block_cache evicted, named as Java's CacheEvictionStats.
type evictionOut struct {
	EvictedBlocks int64             `json:"evictedBlocks"`
	EvictedBytes  int64             `json:"evictedBytes"`
	MaxCacheSize  int64             `json:"maxCacheSize"`
	Failed        map[string]string `json:"failedRegions,omitempty"`
}

func (r *evictionOut) shellText(w io.Writer) (int64, error) {
	_, err := fmt.Fprintf(w, "CacheEvictionStats{evictedBlocks=%d, evictedBytes=%d, maxCacheSize=%d, failedRegionsSize=%d}\n",
		r.EvictedBlocks, r.EvictedBytes, r.MaxCacheSize, len(r.Failed))
	for _, n := range sortedKeys(r.Failed) {
		fmt.Fprintf(w, "  %s: %s\n", formatBinary([]byte(n)), r.Failed[n])
	}
	return -1, err
}

func prepareClearBlockCache(st statement) (action, error) {
	table, err := singleTable(st, "clear_block_cache 'table'")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		s, err := a.ClearBlockCache(ctx, table)
		if err != nil {
			return nil, err
		}
		out := &evictionOut{EvictedBlocks: s.EvictedBlocks, EvictedBytes: s.EvictedBytes, MaxCacheSize: s.MaxCacheSize}
		for n, e := range s.Failed {
			if out.Failed == nil {
				out.Failed = map[string]string{}
			}
			out.Failed[n] = e.Error()
		}
		return out, nil
	}), nil
}

func singleTable(st statement, form string) (string, error) {
	if err := wantArgs(st.args, 1, 1, form); err != nil {
		return "", err
	}
	return strVal(st.args[0], "table name")
}

// singleRegion reads the one region name a command takes.
func singleRegion(st statement, form string) ([]byte, error) {
	if err := wantArgs(st.args, 1, 1, form); err != nil {
		return nil, err
	}
	return regionArg(st.args[0])
}

// regionInfoOut is a region as Java's RegionInfo prints itself.
type regionInfoOut struct {
	Encoded string `json:"encoded"`
	Name    string `json:"name"`
	Table   string `json:"table"`
	Start   string `json:"startKey"`
	End     string `json:"endKey"`
	Server  string `json:"server,omitempty"`
}

func (r *regionInfoOut) shellText(w io.Writer) (int64, error) {
	_, err := fmt.Fprintf(w, "{ENCODED => %s, NAME => '%s', STARTKEY => '%s', ENDKEY => '%s'}\n", r.Encoded, r.Name, r.Start, r.End)
	return -1, err
}

func prepareRegionInfo(st statement) (action, error) {
	region, err := singleRegion(st, "regioninfo 'region name'")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		r, err := a.Region(ctx, region)
		if err != nil {
			return nil, err
		}
		out := &regionInfoOut{Encoded: r.Encoded, Name: formatBinary(r.Name), Table: r.Table,
			Start: formatBinary(r.Start), End: formatBinary(r.End)}
		if r.Server.Port != 0 {
			out.Server = r.Server.String()
		}
		return out, nil
	}), nil
}

func prepareTruncateRegion(st statement) (action, error) {
	region, err := singleRegion(st, "truncate_region 'region name'")
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.TruncateRegion(ctx, region); err != nil {
			return nil, err
		}
		return done("Truncated region %s", string(region)), nil
	}), nil
}

// prepareServerCall is a command that asks one server to do something: wal_roll and
// update_config.
func prepareServerCall(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" 'host,port,startcode'"); err != nil {
			return nil, err
		}
		server, err := serverNameArg(st.args[0])
		if err != nil {
			return nil, err
		}
		return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			if verb == "wal_roll" {
				if err := a.RollWALWriter(ctx, server); err != nil {
					return nil, err
				}
				return done("Rolled the WALs of %s", server), nil
			}
			if err := a.UpdateConfiguration(ctx, server); err != nil {
				return nil, err
			}
			return done("Updated the configuration of %s", server), nil
		}), nil
	}
}

func prepareUpdateAllConfig(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.UpdateAllConfigurations(ctx); err != nil {
			return nil, err
		}
		return done("Updated the configuration of every server"), nil
	}), nil
}
