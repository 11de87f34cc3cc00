package quotatest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// quotaWords renders quotas as the launcher's quotas command does: one word per setting.
func quotaWords(qs []admin.Quota) []string {
	units := map[time.Duration]string{time.Second: "SECONDS", time.Minute: "MINUTES", time.Hour: "HOURS", 24 * time.Hour: "DAYS"}
	var out []string
	for _, q := range qs {
		who := strings.Join([]string{word(q.Target.User), word(q.Target.Table), word(q.Target.Namespace), word(q.Target.RegionServer)}, ",")
		for _, th := range q.Throttles {
			scope := "MACHINE"
			if th.ClusterWide {
				scope = "CLUSTER"
			}
			out = append(out, fmt.Sprintf("%s,throttle,%v,%d,%s,%s", who, th.Type, th.Limit, units[th.Per], scope))
		}
		if q.BypassGlobals {
			out = append(out, who+",bypass,true")
		}
		if q.Space != nil {
			out = append(out, fmt.Sprintf("%s,space,%d,%v", who, q.Space.Limit, q.Space.Policy))
		}
	}
	return out
}

// checkQuotasMatchJava compares admin.Quotas with the Java Admin's getQuota, in order.
func checkQuotasMatchJava(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, adm *admin.Admin) []admin.Quota {
	t.Helper()
	qs, err := adm.Quotas(ctx, admin.QuotaFilter{})
	if err != nil {
		t.Fatalf("Quotas: %v", err)
	}
	got, want := quotaWords(qs), javaWords(t, cl, "quotas", "quota")
	if !slices.Equal(got, want) {
		t.Fatalf("Quotas =\n%s\nthe Java Admin's getQuota =\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return qs
}

// TestQuotaListingsMatchJava sets a quota of every kind of target and reads them back, in
// full and through filters, next to what the Java Admin reads.
func TestQuotaListingsMatchJava(t *testing.T) {
	cl, _, adm := newAdmin(t)
	ctx := stepContext(t, 3*time.Minute)
	table := env.Table(t, []string{"f"}, nil)
	ns := "qns_" + strconv.FormatInt(time.Now().UnixNano()%1e9, 10)
	if err := adm.CreateNamespace(ctx, &hrpc.NamespaceDescriptor{Name: ns}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = adm.DeleteNamespace(context.Background(), ns) })
	user := "quota,user\u00e9" // a ',' and a non-ASCII letter in the row key
	sets := []struct {
		target admin.QuotaTarget
		th     admin.Throttle
	}{
		{admin.QuotaTarget{User: user}, admin.Throttle{Type: admin.RequestNumber, Limit: 1000, Per: time.Second}},
		{admin.QuotaTarget{User: user}, admin.Throttle{Type: admin.WriteSize, Limit: 1 << 30, Per: time.Hour, ClusterWide: true}},
		{admin.QuotaTarget{User: user, Table: table}, admin.Throttle{Type: admin.ReadNumber, Limit: 500, Per: time.Minute}},
		{admin.QuotaTarget{User: user, Namespace: ns}, admin.Throttle{Type: admin.ReadCapacityUnit, Limit: 7, Per: 24 * time.Hour}},
		{admin.QuotaTarget{Table: table}, admin.Throttle{Type: admin.RequestSize, Limit: 1 << 40, Per: time.Second}},
		{admin.QuotaTarget{Namespace: ns}, admin.Throttle{Type: admin.WriteNumber, Limit: 100000, Per: time.Second, ClusterWide: true}},
		{admin.QuotaTarget{RegionServer: "all"}, admin.Throttle{Type: admin.RequestNumber, Limit: 1_000_000, Per: time.Second}},
	}
	for _, s := range sets {
		if err := adm.SetThrottle(ctx, s.target, s.th); err != nil {
			t.Fatalf("SetThrottle(%v, %v): %v", s.target, s.th, err)
		}
	}
	if err := adm.SetBypassGlobals(ctx, user, true); err != nil {
		t.Fatal(err)
	}
	if err := adm.SetSpaceQuota(ctx, admin.QuotaTarget{Table: table}, admin.SpaceQuota{Limit: 1 << 30, Policy: admin.SpaceNoInserts}); err != nil {
		t.Fatal(err)
	}
	if err := adm.SetSpaceQuota(ctx, admin.QuotaTarget{Namespace: ns}, admin.SpaceQuota{Limit: 1 << 40, Policy: admin.SpaceDisable}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		for _, tg := range []admin.QuotaTarget{{User: user}, {User: user, Table: table}, {User: user, Namespace: ns}, {Table: table}, {Namespace: ns}, {RegionServer: "all"}} {
			_ = adm.RemoveThrottles(ctx, tg)
		}
		_ = adm.SetBypassGlobals(ctx, user, false)
		_ = adm.RemoveSpaceQuota(ctx, admin.QuotaTarget{Table: table})
		_ = adm.RemoveSpaceQuota(ctx, admin.QuotaTarget{Namespace: ns})
	})

	qs := checkQuotasMatchJava(t, ctx, cl, adm)
	// Every throttle set is there, as set.
	for _, s := range sets {
		i := slices.IndexFunc(qs, func(q admin.Quota) bool { return q.Target == s.target })
		if i < 0 || !slices.Contains(qs[i].Throttles, s.th) {
			t.Errorf("Quotas has no %v for %v: %+v", s.th, s.target, qs)
		}
	}

	// Filters select as the Java QuotaFilter does, in the full listing's order (hbase:quota's:
	// a user's quotas by qualifier, so a namespace's may come before a table's).
	inOrder := func(targets ...admin.QuotaTarget) []admin.QuotaTarget {
		var out []admin.QuotaTarget
		for _, q := range qs {
			if slices.Contains(targets, q.Target) {
				out = append(out, q.Target)
			}
		}
		if len(out) != len(targets) {
			t.Fatalf("the full listing lacks some of %v: %+v", targets, qs)
		}
		return out
	}
	for _, tc := range []struct {
		f    admin.QuotaFilter
		want []admin.QuotaTarget
	}{
		{admin.QuotaFilter{User: "quota,.*"}, inOrder(admin.QuotaTarget{User: user}, admin.QuotaTarget{User: user, Table: table}, admin.QuotaTarget{User: user, Namespace: ns})},
		{admin.QuotaFilter{User: "quota,.*", Table: table}, []admin.QuotaTarget{{User: user, Table: table}}},
		{admin.QuotaFilter{User: "quota,.*", Namespace: "qns_.*"}, []admin.QuotaTarget{{User: user, Namespace: ns}}},
		{admin.QuotaFilter{Table: table}, []admin.QuotaTarget{{Table: table}}},
		{admin.QuotaFilter{Namespace: ns}, []admin.QuotaTarget{{Namespace: ns}}},
		{admin.QuotaFilter{RegionServer: "a.."}, []admin.QuotaTarget{{RegionServer: "all"}}},
		{admin.QuotaFilter{User: "nobody"}, nil},
	} {
		got, err := adm.Quotas(ctx, tc.f)
		if err != nil {
			t.Fatalf("Quotas(%+v): %v", tc.f, err)
		}
		var targets []admin.QuotaTarget
		for _, q := range got {
			targets = append(targets, q.Target)
		}
		if !slices.Equal(targets, tc.want) {
			t.Errorf("Quotas(%+v) targets = %v; want %v", tc.f, targets, tc.want)
		}
	}

	// Removing one type leaves the others; removing all leaves the bypass and space quota.
	if err := adm.RemoveThrottle(ctx, admin.QuotaTarget{User: user}, admin.WriteSize); err != nil {
		t.Fatal(err)
	}
	if err := adm.RemoveThrottles(ctx, admin.QuotaTarget{Table: table}); err != nil {
		t.Fatal(err)
	}
	if err := adm.RemoveThrottles(ctx, admin.QuotaTarget{RegionServer: "all"}); err != nil {
		t.Fatal(err)
	}
	qs = checkQuotasMatchJava(t, ctx, cl, adm)
	for _, q := range qs {
		switch q.Target {
		case admin.QuotaTarget{User: user}:
			if len(q.Throttles) != 1 || q.Throttles[0].Type != admin.RequestNumber || !q.BypassGlobals {
				t.Errorf("user quota after removing its WRITE_SIZE throttle = %+v; want REQUEST_NUMBER and the bypass", q)
			}
		case admin.QuotaTarget{Table: table}:
			if len(q.Throttles) != 0 || q.Space == nil || q.Space.Policy != admin.SpaceNoInserts {
				t.Errorf("table quota after removing its throttles = %+v; want the space quota alone", q)
			}
		case admin.QuotaTarget{RegionServer: "all"}:
			if len(q.Throttles) != 0 {
				t.Errorf("region server quota after removing its throttles = %+v", q)
			}
		}
	}

	// Its throttles removed and its bypass switched off, the user's row holds a bypass of
	// false and no setting. Quotas skips it and lists the quota of the user after it; HBase
	// 2.6's QuotaRetriever (the Java Admin's getQuota) stops at it.
	for _, tg := range []admin.QuotaTarget{{User: user}, {User: user, Table: table}, {User: user, Namespace: ns}} {
		if err := adm.RemoveThrottles(ctx, tg); err != nil {
			t.Fatal(err)
		}
	}
	if err := adm.SetBypassGlobals(ctx, user, false); err != nil {
		t.Fatal(err)
	}
	next := admin.Quota{Target: admin.QuotaTarget{User: "quota-next"}, Throttles: []admin.Throttle{{Type: admin.ReadNumber, Limit: 9, Per: time.Second}}}
	if err := adm.SetThrottle(ctx, next.Target, next.Throttles[0]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = adm.RemoveThrottles(context.Background(), next.Target) })
	got, err := adm.Quotas(ctx, admin.QuotaFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(got, func(q admin.Quota) bool { return q.Target.User == user }) ||
		!slices.ContainsFunc(got, func(q admin.Quota) bool { return fmt.Sprint(q) == fmt.Sprint(next) }) {
		t.Errorf("Quotas after emptying %q's row = %+v; want no quota of %q, and %+v", user, got, user, next)
	}
	if java := javaWords(t, cl, "quotas", "quota"); slices.Contains(java, quotaWords([]admin.Quota{next})[0]) {
		t.Errorf("the Java Admin's getQuota lists %v past an empty row: %q; the throttle test's user need not sort first", next, java)
	}
}

// TestThrottleRefusesABurstAndTheClientWaits: a throttle of 2 requests a second, on a table,
// on the client's user on a table and on a namespace, refuses a burst of single-attempt Gets
// with hberr.ErrThrottled; the same Gets with time left wait as the server says and all
// succeed; with the throttle removed a burst passes.
func TestThrottleRefusesABurstAndTheClientWaits(t *testing.T) {
	cl, c, adm := newAdmin(t)
	ctx := stepContext(t, 4*time.Minute)
	table := env.Table(t, []string{"f"}, nil)
	ns := "thns_" + strconv.FormatInt(time.Now().UnixNano()%1e9, 10)
	if err := adm.CreateNamespace(ctx, &hrpc.NamespaceDescriptor{Name: ns}); err != nil {
		t.Fatal(err)
	}
	nsTable := ns + ":t"
	desc, err := hrpc.NewTableDescriptor(nsTable, hrpc.WithFamily("f"))
	if err != nil {
		t.Fatal(err)
	}
	if err := adm.CreateTable(ctx, desc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		_ = adm.DisableTable(ctx, nsTable)
		_ = adm.DeleteTable(ctx, nsTable)
		_ = adm.DeleteNamespace(ctx, ns)
	})
	for _, tb := range []string{table, nsTable} {
		put, err := hrpc.NewPut(tb, []byte("r"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Put(ctx, put); err != nil {
			t.Fatal(err)
		}
	}
	// A client of another user: a user's throttle refuses its calls, not the first client's.
	// HBase 2.6's QuotaRetriever (the Java Admin's getQuota) ends its listing at a row that
	// holds no setting, as TestQuotaListingsMatchJava leaves its user's (a bypass switched off
	// stays stored as false): this user's row sorts before it ('+' < ',') for the listings to
	// be compared.
	const user = "quota+reader"
	_, uc, _ := newAdmin(t, hbase.WithUser(user))
	th := admin.Throttle{Type: admin.RequestNumber, Limit: 2, Per: time.Second}
	for _, tc := range []struct {
		name     string
		target   admin.QuotaTarget
		table    string        // read
		by, free *hbase.Client // by reads; free, if any, is not throttled meanwhile
	}{
		{"table", admin.QuotaTarget{Table: table}, table, c, nil},
		{"user_on_table", admin.QuotaTarget{User: user, Table: table}, table, uc, c},
		{"namespace", admin.QuotaTarget{Namespace: ns}, nsTable, c, nil},
		// Last: every region server's throttle slows every user table of the cluster until
		// it is removed (system tables are exempt, so region lookups still pass).
		{"regionserver", admin.QuotaTarget{RegionServer: "all"}, table, c, nil},
	} {
		t.Run(tc.name, func(t *testing.T) { throttleBurst(t, ctx, cl, adm, tc.by, tc.free, tc.target, th, tc.table) })
	}
}

// throttleBurst sets th on target, sees bursts of Gets of table by c refused and waited out
// (and, if free is not nil, a burst of free's passing meanwhile), then removes it and sees
// bursts pass.
func throttleBurst(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, adm *admin.Admin, c, free *hbase.Client, target admin.QuotaTarget, th admin.Throttle, table string) {
	if err := adm.SetThrottle(ctx, target, th); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = adm.RemoveThrottles(context.Background(), target) })
	qs := checkQuotasMatchJava(t, ctx, cl, adm)
	if !slices.ContainsFunc(qs, func(q admin.Quota) bool {
		return q.Target == target && slices.Equal(q.Throttles, []admin.Throttle{th})
	}) {
		t.Fatalf("Quotas has no %v on %v: %+v", th, target, qs)
	}

	// burst sends n single-attempt Gets by c at once and returns the refusals' errors.
	burst := func(c *hbase.Client, n int) (refused []error) {
		for range n {
			get, err := hrpc.NewGet(table, []byte("r"), hrpc.MaxAttempts(1))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Get(ctx, get); err != nil {
				refused = append(refused, err)
			}
		}
		return refused
	}
	var refused []error
	took := eventually(t, time.Minute, "a throttled Get", func() bool { refused = burst(c, 10); return len(refused) > 0 })
	t.Logf("throttle in effect after %v: %d of 10 single-attempt Gets refused, first: %v", took.Round(time.Millisecond), len(refused), refused[0])
	for _, err := range refused {
		if !errors.Is(err, hberr.ErrThrottled) || !errors.Is(err, hberr.ErrAttemptsExhausted) || !strings.Contains(err.Error(), "RpcThrottlingException") {
			t.Errorf("refused Get: %v; want hberr.ErrThrottled after one attempt", err)
		}
		if re, ok := errors.AsType[*hberr.RemoteError](err); !ok || re.Wait() <= 0 {
			t.Errorf("refused Get: %v; want an RpcThrottlingException naming a wait", err)
		}
	}
	if free != nil {
		if refused := burst(free, 10); len(refused) != 0 {
			t.Errorf("%d of 10 Gets of another user refused under %v's throttle: %v", len(refused), target, refused[0])
		}
	}

	// With time to wait, every Get succeeds, the burst taking about as long as the throttle
	// allows: of 8 Gets at 2 a second, those past the first second's (and a limiter's refill
	// held over) wait at least 2 s.
	const n = 8
	least := time.Duration(n-2*th.Limit) / time.Duration(th.Limit) * time.Second
	start := time.Now()
	for i := range n {
		get, err := hrpc.NewGet(table, []byte("r"))
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err = c.Get(cctx, get)
		cancel()
		if err != nil {
			t.Fatalf("Get %d with 30 s to wait: %v", i, err)
		}
	}
	if took := time.Since(start); took < least {
		t.Errorf("%d Gets at %d/s took %v; want at least %v (the client did not wait as told)", n, th.Limit, took, least)
	} else {
		t.Logf("%d Gets at %d/s with time to wait: all succeeded in %v", n, th.Limit, took.Round(time.Millisecond))
	}

	// Removed, the throttle lets bursts through once the region servers refresh.
	if err := adm.RemoveThrottle(ctx, target, th.Type); err != nil {
		t.Fatal(err)
	}
	passed := 0
	took = eventually(t, time.Minute, "three unthrottled bursts in a row", func() bool {
		if len(burst(c, 10)) == 0 {
			passed++
		} else {
			passed = 0
		}
		return passed == 3
	})
	t.Logf("throttle gone after %v", took.Round(time.Millisecond))
}

// TestSpaceQuotaNoWrites: a table over its NO_WRITES space quota refuses Puts with
// hberr.ErrSpaceQuotaViolated, the master and its region server say it is in violation, and
// with the quota removed Puts pass again.
func TestSpaceQuotaNoWrites(t *testing.T) {
	cl, c, adm := newAdmin(t)
	ctx := stepContext(t, 4*time.Minute)
	table := env.Table(t, []string{"f"}, nil)
	value := make([]byte, 8<<10)
	for i := range 16 {
		put, err := hrpc.NewPut(table, fmt.Appendf(nil, "r%02d", i), hrpc.Value([]byte("f"), []byte("q"), value))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Put(ctx, put); err != nil {
			t.Fatal(err)
		}
	}
	if err := adm.FlushTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	target := admin.QuotaTarget{Table: table}
	if err := adm.SetSpaceQuota(ctx, target, admin.SpaceQuota{Limit: 16 << 10, Policy: admin.SpaceNoWrites}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = adm.RemoveSpaceQuota(context.Background(), target) })
	checkQuotasMatchJava(t, ctx, cl, adm)

	putOnce := func(row string) error {
		put, err := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte("v")), hrpc.MaxAttempts(1))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Put(ctx, put)
		return err
	}
	var refusal error
	took := eventually(t, 2*time.Minute, "a Put refused by the space quota", func() bool {
		refusal = putOnce("late")
		return refusal != nil
	})
	if !errors.Is(refusal, hberr.ErrSpaceQuotaViolated) || !errors.Is(refusal, hberr.ErrQuotaExceeded) {
		t.Fatalf("Put over the space quota: %v; want hberr.ErrSpaceQuotaViolated", refusal)
	}
	t.Logf("space quota enforced after %v: %v", took.Round(time.Millisecond), refusal)

	usages, err := adm.SpaceQuotaUsages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(usages, func(u admin.SpaceQuotaUsage) bool { return u.Target == target })
	if i < 0 || !usages[i].InViolation || usages[i].Policy != admin.SpaceNoWrites || usages[i].Limit != 16<<10 || usages[i].Usage <= 16<<10 {
		t.Fatalf("SpaceQuotaUsages = %+v; want %s in violation of NO_WRITES, over 16 KiB of 16 KiB", usages, table)
	}
	sizes, err := adm.SpaceQuotaTableSizes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sizes[table] != usages[i].Usage {
		t.Errorf("SpaceQuotaTableSizes[%s] = %d; want the quota's usage %d", table, sizes[table], usages[i].Usage)
	}
	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions of %s: %v, %v", table, regions, err)
	}
	rs, err := adm.RegionServerSpaceQuotaUsages(ctx, regions[0].Addr)
	if err != nil {
		t.Fatal(err)
	}
	if j := slices.IndexFunc(rs, func(u admin.SpaceQuotaUsage) bool { return u.Target == target }); j < 0 || !rs[j].InViolation {
		t.Errorf("RegionServerSpaceQuotaUsages(%s) = %+v; want %s in violation", regions[0].Addr, rs, table)
	}

	if err := adm.RemoveSpaceQuota(ctx, target); err != nil {
		t.Fatal(err)
	}
	checkQuotasMatchJava(t, ctx, cl, adm)
	took = eventually(t, 2*time.Minute, "a Put after removing the space quota", func() bool { return putOnce("after") == nil })
	t.Logf("space quota lifted after %v", took.Round(time.Millisecond))
}

// TestQuotaSwitches: the RPC throttle switch reports and changes its state.
func TestQuotaSwitches(t *testing.T) {
	_, _, adm := newAdmin(t)
	ctx := stepContext(t, time.Minute)
	on, err := adm.RPCThrottleEnabled(ctx)
	if err != nil || !on {
		t.Fatalf("RPCThrottleEnabled = %v, %v; want true", on, err)
	}
	prev, err := adm.SetRPCThrottle(ctx, false)
	if err != nil || !prev {
		t.Fatalf("SetRPCThrottle(false) = %v, %v; want true (it was on)", prev, err)
	}
	if on, err := adm.RPCThrottleEnabled(ctx); err != nil || on {
		t.Fatalf("RPCThrottleEnabled after switching it off = %v, %v", on, err)
	}
	if prev, err := adm.SetRPCThrottle(ctx, true); err != nil || prev {
		t.Fatalf("SetRPCThrottle(true) = %v, %v; want false (it was off)", prev, err)
	}
	// HBase switches the exceed-throttle mode on only over a region server throttle of reads
	// and writes; without one it refuses, and the mode stays off.
	if _, err := adm.SetExceedThrottleQuota(ctx, true); err == nil {
		t.Fatalf("SetExceedThrottleQuota(true) without a region server throttle: no error")
	} else {
		t.Logf("SetExceedThrottleQuota(true) without a region server throttle: %v", err)
	}
	if prev, err := adm.SetExceedThrottleQuota(ctx, false); err != nil || prev {
		t.Fatalf("SetExceedThrottleQuota(false) = %v, %v; want false (it stayed off)", prev, err)
	}
}

// TestQuotaBadInput: each refusal names what was wrong, and the quotas stay as they were.
func TestQuotaBadInput(t *testing.T) {
	cl, _, adm := newAdmin(t)
	ctx := stepContext(t, time.Minute)
	before := checkQuotasMatchJava(t, ctx, cl, adm)
	for _, tc := range []struct {
		name string
		call func() error
		want error
		says string
	}{
		{"no target", func() error {
			return adm.SetThrottle(ctx, admin.QuotaTarget{}, admin.Throttle{Type: admin.ReadNumber, Limit: 1, Per: time.Second})
		}, hberr.ErrBadRequest, "names no user"},
		{"table and namespace", func() error {
			return adm.SetThrottle(ctx, admin.QuotaTarget{Table: "t", Namespace: "default"}, admin.Throttle{Type: admin.ReadNumber, Limit: 1, Per: time.Second})
		}, hberr.ErrBadRequest, `table "t" on namespace "default"`},
		{"zero limit", func() error {
			return adm.SetThrottle(ctx, admin.QuotaTarget{User: "u"}, admin.Throttle{Type: admin.ReadNumber, Per: time.Second})
		}, hberr.ErrBadRequest, "a limit of 0"},
		{"odd time unit", func() error {
			return adm.SetThrottle(ctx, admin.QuotaTarget{User: "u"}, admin.Throttle{Type: admin.ReadNumber, Limit: 1, Per: time.Millisecond})
		}, hberr.ErrBadRequest, "per 1ms"},
		{"unknown type", func() error {
			return adm.SetThrottle(ctx, admin.QuotaTarget{User: "u"}, admin.Throttle{Type: 10, Limit: 1, Per: time.Second})
		}, hberr.ErrBadRequest, "unknown throttle type 10"},
		{"bad table name", func() error { return adm.RemoveThrottles(ctx, admin.QuotaTarget{Table: "a b"}) }, hberr.ErrInvalidName, "illegal character"},
		{"space quota of a user", func() error {
			return adm.SetSpaceQuota(ctx, admin.QuotaTarget{User: "u"}, admin.SpaceQuota{Limit: 1, Policy: admin.SpaceNoWrites})
		}, hberr.ErrBadRequest, "space quota is for a table or a namespace"},
		{"no policy", func() error { return adm.SetSpaceQuota(ctx, admin.QuotaTarget{Table: "t"}, admin.SpaceQuota{Limit: 1}) }, hberr.ErrBadRequest, "unknown violation policy 0"},
		{"bypass without a user", func() error { return adm.SetBypassGlobals(ctx, "", true) }, hberr.ErrBadRequest, "needs a user"},
		{"bad filter", func() error { _, err := adm.Quotas(ctx, admin.QuotaFilter{User: "("}); return err }, hberr.ErrBadRequest, "quota filter of user"},
		{"unknown server", func() error { _, err := adm.RegionServerSpaceQuotaUsages(ctx, "nohost:1"); return err }, hberr.ErrServerNotFound, "nohost:1"},
	} {
		err := tc.call()
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v; want %v saying %q", tc.name, err, tc.want, tc.says)
		} else if ae, ok := errors.AsType[*hberr.AdminError](err); !ok || ae.Op == "" {
			t.Errorf("%s: %v is no *hberr.AdminError", tc.name, err)
		}
	}
	if after := checkQuotasMatchJava(t, ctx, cl, adm); !slices.EqualFunc(before, after, func(a, b admin.Quota) bool {
		return fmt.Sprint(a) == fmt.Sprint(b)
	}) {
		t.Errorf("quotas changed by refused calls: before %+v, after %+v", before, after)
	}
}
