package admin_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
)

// TestQuotaLogGroupCallsOnFakehbase: fakehbase has no quotas, request logs or region server
// groups; each call of them fails with hberr.ErrNotSupported, at once.
func TestQuotaLogGroupCallsOnFakehbase(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	adm := admin.New(c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	th := admin.Throttle{Type: admin.RequestNumber, Limit: 10, Per: time.Second}
	for name, call := range map[string]func() error{
		"SetThrottle":      func() error { return adm.SetThrottle(ctx, admin.QuotaTarget{Table: "t"}, th) },
		"RemoveThrottle":   func() error { return adm.RemoveThrottle(ctx, admin.QuotaTarget{Table: "t"}, admin.RequestNumber) },
		"RemoveThrottles":  func() error { return adm.RemoveThrottles(ctx, admin.QuotaTarget{Table: "t"}) },
		"SetBypassGlobals": func() error { return adm.SetBypassGlobals(ctx, "u", true) },
		"SetSpaceQuota": func() error {
			return adm.SetSpaceQuota(ctx, admin.QuotaTarget{Table: "t"}, admin.SpaceQuota{Limit: 1, Policy: admin.SpaceNoWrites})
		},
		"RemoveSpaceQuota":     func() error { return adm.RemoveSpaceQuota(ctx, admin.QuotaTarget{Table: "t"}) },
		"Quotas":               func() error { _, err := adm.Quotas(ctx, admin.QuotaFilter{}); return err },
		"SpaceQuotaUsages":     func() error { _, err := adm.SpaceQuotaUsages(ctx); return err },
		"SpaceQuotaTableSizes": func() error { _, err := adm.SpaceQuotaTableSizes(ctx); return err },
		"RegionServerSpaceQuotaUsages": func() error {
			_, err := adm.RegionServerSpaceQuotaUsages(ctx, "localhost:1")
			return err
		},
		"SetRPCThrottle":         func() error { _, err := adm.SetRPCThrottle(ctx, true); return err },
		"RPCThrottleEnabled":     func() error { _, err := adm.RPCThrottleEnabled(ctx); return err },
		"SetExceedThrottleQuota": func() error { _, err := adm.SetExceedThrottleQuota(ctx, false); return err },
		"SlowLogs":               func() error { _, err := adm.SlowLogs(ctx, admin.LogQuery{}); return err },
		"LargeLogs":              func() error { _, err := adm.LargeLogs(ctx, admin.LogQuery{}); return err },
		"ClearSlowLogs":          func() error { return adm.ClearSlowLogs(ctx) },
		"BalancerDecisions":      func() error { _, err := adm.BalancerDecisions(ctx, 0); return err },
		"BalancerRejections":     func() error { _, err := adm.BalancerRejections(ctx, 0); return err },
		"AddRSGroup":             func() error { return adm.AddRSGroup(ctx, "g") },
		"RemoveRSGroup":          func() error { return adm.RemoveRSGroup(ctx, "g") },
		"RenameRSGroup":          func() error { return adm.RenameRSGroup(ctx, "g", "h") },
		"RSGroups":               func() error { _, err := adm.RSGroups(ctx); return err },
		"RSGroup":                func() error { _, err := adm.RSGroup(ctx, "default"); return err },
		"RSGroupOfServer":        func() error { _, err := adm.RSGroupOfServer(ctx, "localhost:1"); return err },
		"RSGroupOfTable":         func() error { _, err := adm.RSGroupOfTable(ctx, "t"); return err },
		"MoveServersToRSGroup":   func() error { return adm.MoveServersToRSGroup(ctx, "g", "localhost:1") },
		"MoveTablesToRSGroup":    func() error { return adm.MoveTablesToRSGroup(ctx, "g", "t") },
		"MoveServersAndTablesToRSGroup": func() error {
			return adm.MoveServersAndTablesToRSGroup(ctx, "g", []string{"h:1"}, []string{"t"})
		},
		"RemoveServersFromRSGroup": func() error {
			return adm.RemoveServersFromRSGroup(ctx, "localhost:1")
		},
		"BalanceRSGroup":       func() error { _, err := adm.BalanceRSGroup(ctx, "g"); return err },
		"UpdateRSGroupConfig":  func() error { return adm.UpdateRSGroupConfig(ctx, "g", map[string]string{"k": "v"}) },
		"SecurityCapabilities": func() error { _, err := adm.SecurityCapabilities(ctx); return err },
	} {
		start := time.Now()
		err := call()
		if !errors.Is(err, hberr.ErrNotSupported) {
			t.Errorf("%s on fakehbase: %v; want hberr.ErrNotSupported", name, err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s on fakehbase took %v; want a refusal at once", name, took)
		}
	}
}
