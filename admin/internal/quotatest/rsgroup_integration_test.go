package quotatest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// groupWords renders groups as the launcher's rsgroups command does.
func groupWords(gs []admin.RSGroup) []string {
	var out []string
	for _, g := range gs {
		var conf []string
		for _, k := range slices.Sorted(maps.Keys(g.Config)) {
			conf = append(conf, k+"="+g.Config[k])
		}
		out = append(out, strings.Join([]string{word(g.Name), word(strings.Join(g.Servers, ";")),
			word(strings.Join(g.Tables, ";")), word(strings.Join(conf, ";"))}, ","))
	}
	return out
}

// checkGroupsMatchJava compares admin.RSGroups with the Java RSGroupAdminClient's list.
func checkGroupsMatchJava(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, adm *admin.Admin) []admin.RSGroup {
	t.Helper()
	gs, err := adm.RSGroups(ctx)
	if err != nil {
		t.Fatalf("RSGroups: %v", err)
	}
	got, want := groupWords(gs), javaWords(t, cl, "rsgroups", "group")
	if !slices.Equal(got, want) {
		t.Fatalf("RSGroups =\n%s\nthe Java RSGroupAdminClient's listRSGroups =\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return gs
}

// TestRSGroupHostsItsTables: a group with a server moved in serves its tables' regions, and
// only that server; renamed, balanced, emptied and removed, the groups are as the Java
// client lists them at each step.
func TestRSGroupHostsItsTables(t *testing.T) {
	cl, _, adm := newAdmin(t)
	ctx := stepContext(t, 4*time.Minute)
	gs := checkGroupsMatchJava(t, ctx, cl, adm)
	if len(gs) != 1 || gs[0].Name != "default" || len(gs[0].Servers) != 2 {
		t.Fatalf("groups at start = %+v; want default with both servers", gs)
	}
	table := env.Table(t, []string{"f"}, [][]byte{[]byte("g"), []byte("p")})
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	server := st.RegionServers[1].Addr

	const group, renamed = "grp_a", "grp_b"
	if err := adm.AddRSGroup(ctx, group); err != nil {
		t.Fatal(err)
	}
	name := group
	t.Cleanup(func() {
		ctx := context.Background()
		_ = adm.MoveTablesToRSGroup(ctx, "default", table)
		_ = adm.MoveServersToRSGroup(ctx, "default", server)
		_ = adm.RemoveRSGroup(ctx, name)
	})
	if err := adm.MoveServersToRSGroup(ctx, group, server); err != nil {
		t.Fatal(err)
	}
	if err := adm.MoveTablesToRSGroup(ctx, group, table); err != nil {
		t.Fatal(err)
	}
	regions := checkGroupHosts(t, ctx, cl, adm, group, server, table)
	if len(regions) != 3 {
		t.Errorf("%s has %d regions; want 3", table, len(regions))
	}
	for _, q := range []struct {
		what string
		get  func() (*admin.RSGroup, error)
	}{
		{"RSGroup", func() (*admin.RSGroup, error) { return adm.RSGroup(ctx, group) }},
		{"RSGroupOfTable", func() (*admin.RSGroup, error) { return adm.RSGroupOfTable(ctx, table) }},
		{"RSGroupOfServer", func() (*admin.RSGroup, error) { return adm.RSGroupOfServer(ctx, server) }},
	} {
		if g, err := q.get(); err != nil || g.Name != group || !slices.Equal(g.Servers, []string{server}) {
			t.Errorf("%s = %+v, %v; want %s", q.what, g, err, group)
		}
	}
	if g, err := adm.RSGroupOfServer(ctx, st.RegionServers[0].Addr); err != nil || g.Name != "default" {
		t.Errorf("RSGroupOfServer(%s) = %+v, %v; want default", st.RegionServers[0].Addr, g, err)
	}

	const confKey = "hbase.master.balancer.stochastic.maxSteps"
	if err := adm.UpdateRSGroupConfig(ctx, group, map[string]string{confKey: "1000"}); err != nil {
		t.Fatal(err)
	}
	gs = checkGroupsMatchJava(t, ctx, cl, adm)
	if i := slices.IndexFunc(gs, func(g admin.RSGroup) bool { return g.Name == group }); i < 0 || gs[i].Config[confKey] != "1000" {
		t.Fatalf("groups after UpdateRSGroupConfig = %+v; want %s with %s=1000", gs, group, confKey)
	}
	if _, err := adm.BalanceRSGroup(ctx, group); err != nil {
		t.Fatal(err)
	}
	if err := adm.RenameRSGroup(ctx, group, renamed); err != nil {
		t.Fatal(err)
	}
	name = renamed
	// The renamed group keeps its servers and tables; HBase 2.x's rename does not carry the
	// configuration over (RSGroupInfoManagerImpl.renameRSGroup), as the Java client lists.
	gs = checkGroupsMatchJava(t, ctx, cl, adm)
	if i := slices.IndexFunc(gs, func(g admin.RSGroup) bool { return g.Name == renamed }); i < 0 ||
		!slices.Equal(gs[i].Tables, []string{table}) || !slices.Equal(gs[i].Servers, []string{server}) {
		t.Fatalf("groups after the rename = %+v; want %s holding %s and %s", gs, renamed, server, table)
	}
	if _, err := adm.RSGroup(ctx, group); !errors.Is(err, hberr.ErrRSGroupNotFound) {
		t.Errorf("RSGroup(%s) after the rename: %v; want hberr.ErrRSGroupNotFound", group, err)
	}

	// Emptied and removed.
	if err := adm.MoveTablesToRSGroup(ctx, "default", table); err != nil {
		t.Fatal(err)
	}
	if err := adm.MoveServersToRSGroup(ctx, "default", server); err != nil {
		t.Fatal(err)
	}
	if err := adm.RemoveRSGroup(ctx, renamed); err != nil {
		t.Fatal(err)
	}
	if gs := checkGroupsMatchJava(t, ctx, cl, adm); len(gs) != 1 {
		t.Fatalf("groups after removing %s = %+v; want default alone", renamed, gs)
	}
}

// TestRSGroupBadInput: refusals name what was wrong; the groups stay as they were.
func TestRSGroupBadInput(t *testing.T) {
	cl, _, adm := newAdmin(t)
	ctx := stepContext(t, 2*time.Minute)
	const group = "grp_bad"
	if err := adm.AddRSGroup(ctx, group); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = adm.RemoveRSGroup(context.Background(), group) })
	table := env.Table(t, []string{"f"}, nil)
	if err := adm.MoveTablesToRSGroup(ctx, group, table); err == nil {
		// A group without servers cannot host a table; HBase refuses the move.
		t.Fatalf("MoveTablesToRSGroup into a group without servers: no error")
	} else {
		t.Logf("MoveTablesToRSGroup into a group without servers: %v", err)
	}
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := checkGroupsMatchJava(t, ctx, cl, adm)
	for _, tc := range []struct {
		name string
		call func() error
		want error
		says string
	}{
		{"add an existing group", func() error { return adm.AddRSGroup(ctx, group) }, hberr.ErrRSGroupExists, group},
		{"remove a missing group", func() error { return adm.RemoveRSGroup(ctx, "nosuch") }, hberr.ErrRSGroupNotFound, "nosuch"},
		{"get a missing group", func() error { _, err := adm.RSGroup(ctx, "nosuch"); return err }, hberr.ErrRSGroupNotFound, "nosuch"},
		{"rename a missing group", func() error { return adm.RenameRSGroup(ctx, "nosuch", "other") }, hberr.ErrRSGroupNotFound, "nosuch"},
		{"rename onto an existing group", func() error { return adm.RenameRSGroup(ctx, group, "default") }, hberr.ErrRSGroupExists, "default"},
		{"move servers to a missing group", func() error { return adm.MoveServersToRSGroup(ctx, "nosuch", "localhost:1") }, hberr.ErrRSGroupNotFound, "nosuch"},
		{"move a missing server", func() error { return adm.MoveServersToRSGroup(ctx, group, "localhost:1") }, hberr.ErrServerNotFound, "localhost:1"},
		{"move tables to a missing group", func() error { return adm.MoveTablesToRSGroup(ctx, "nosuch", table) }, hberr.ErrRSGroupNotFound, "nosuch"},
		// With the balancer off (as hbasetest keeps it) HBase 2.x answers "did not run" before
		// it looks for the group; on, it refuses a missing one.
		{"balance a missing group", func() error {
			if _, err := adm.SetBalancer(ctx, true); err != nil {
				return err
			}
			defer func() {
				if _, err := adm.SetBalancer(ctx, false); err != nil {
					t.Errorf("SetBalancer(false): %v", err)
				}
			}()
			_, err := adm.BalanceRSGroup(ctx, "nosuch")
			return err
		}, hberr.ErrRSGroupNotFound, "nosuch"},
		{"group of a missing table", func() error { _, err := adm.RSGroupOfTable(ctx, "nosuch_table"); return err }, hberr.ErrTableNotFound, "nosuch_table"},
		{"bad group name", func() error { return adm.AddRSGroup(ctx, "a-b") }, hberr.ErrInvalidName, "illegal character"},
		{"bad server", func() error { return adm.MoveServersToRSGroup(ctx, group, "localhost") }, hberr.ErrBadRequest, "not host:port"},
		{"no server", func() error { return adm.MoveServersToRSGroup(ctx, group) }, hberr.ErrBadRequest, "no server"},
		{"bad table", func() error { return adm.MoveTablesToRSGroup(ctx, group, "a b") }, hberr.ErrInvalidName, "a b"},
		{"remove a live server", func() error { return adm.RemoveServersFromRSGroup(ctx, st.RegionServers[0].Addr) }, hberr.ErrDoNotRetry, st.RegionServers[0].Addr},
	} {
		err := tc.call()
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v; want %v saying %q", tc.name, err, tc.want, tc.says)
		}
	}
	after := checkGroupsMatchJava(t, ctx, cl, adm)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("groups changed by refused calls: before %+v, after %+v", before, after)
	}
}

// TestRSGroupMoveServersAndTables: a table cannot move alone into a group without servers,
// but moves with a server in one MoveServersAndTablesToRSGroup, after which its regions are
// on that server; the same call takes both back.
func TestRSGroupMoveServersAndTables(t *testing.T) {
	cl, _, adm := newAdmin(t)
	ctx := stepContext(t, 4*time.Minute)
	table := env.Table(t, []string{"f"}, [][]byte{[]byte("m")})
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	server := st.RegionServers[1].Addr
	const group = "grp_both"
	if err := adm.AddRSGroup(ctx, group); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		_ = adm.MoveServersAndTablesToRSGroup(ctx, "default", []string{server}, []string{table})
		_ = adm.RemoveRSGroup(ctx, group)
	})
	if err := adm.MoveTablesToRSGroup(ctx, group, table); err == nil {
		t.Fatalf("MoveTablesToRSGroup into %s without servers succeeded; want it refused", group)
	}
	if err := adm.MoveServersAndTablesToRSGroup(ctx, group, []string{server}, []string{table}); err != nil {
		t.Fatal(err)
	}
	checkGroupHosts(t, ctx, cl, adm, group, server, table)
	if err := adm.MoveServersAndTablesToRSGroup(ctx, group, nil, []string{table}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("MoveServersAndTablesToRSGroup without servers: %v; want hberr.ErrBadRequest", err)
	}
	if err := adm.MoveServersAndTablesToRSGroup(ctx, "default", []string{server}, []string{table}); err != nil {
		t.Fatal(err)
	}
	if err := adm.RemoveRSGroup(ctx, group); err != nil {
		t.Fatal(err)
	}
	if gs := checkGroupsMatchJava(t, ctx, cl, adm); len(gs) != 1 {
		t.Fatalf("groups after removing %s = %+v; want default alone", group, gs)
	}
}

// checkGroupHosts checks that group holds server and table, as the Java client lists it too,
// and, by the effect, that every region of table is on server; it returns the regions.
func checkGroupHosts(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, adm *admin.Admin, group, server, table string) []*hrpc.Region {
	t.Helper()
	gs := checkGroupsMatchJava(t, ctx, cl, adm)
	if i := slices.IndexFunc(gs, func(g admin.RSGroup) bool { return g.Name == group }); i < 0 ||
		!slices.Equal(gs[i].Servers, []string{server}) || !slices.Equal(gs[i].Tables, []string{table}) {
		t.Fatalf("groups = %+v; want %s with %s and %s", gs, group, server, table)
	}
	regions, err := adm.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		if r.Server.Addr() != server {
			t.Errorf("region %s of %s is on %s; want %s, the only server of %s", r.Encoded, table, r.Server.Addr(), server, group)
		}
	}
	return regions
}
