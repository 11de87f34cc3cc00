package admin_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// A throttle on a table, read back, then a Get over it: the client waits as the server says
// while the call's context allows, and a refusal it could not wait out is hberr.ErrThrottled.
// (No output: it needs a cluster with hbase.quota.enabled.)
func ExampleAdmin_SetThrottle() {
	client, err := hbase.NewClient("zk1:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx := context.Background()

	orders := admin.QuotaTarget{Table: "shop:orders"}
	err = adm.SetThrottle(ctx, orders, admin.Throttle{Type: admin.ReadNumber, Limit: 100, Per: time.Second})
	if errors.Is(err, hberr.ErrNotSupported) {
		log.Fatal("quotas are off: ", err)
	} else if err != nil {
		log.Fatal(err)
	}
	quotas, err := adm.Quotas(ctx, admin.QuotaFilter{Table: "shop:.*"})
	if err != nil {
		log.Fatal(err)
	}
	for _, q := range quotas {
		fmt.Println(q.Target, q.Throttles)
	}

	get, err := hrpc.NewGet("shop:orders", []byte("o-1"))
	if err != nil {
		log.Fatal(err)
	}
	callCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := client.Get(callCtx, get); errors.Is(err, hberr.ErrThrottled) {
		fmt.Println("over the quota:", err)
	}
	if err := adm.RemoveThrottles(ctx, orders); err != nil {
		log.Fatal(err)
	}
}

// A space quota: writes to the table stop once it uses more than 10 GiB.
func ExampleAdmin_SetSpaceQuota() {
	client, err := hbase.NewClient("zk1:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx := context.Background()

	logs := admin.QuotaTarget{Table: "events"}
	if err := adm.SetSpaceQuota(ctx, logs, admin.SpaceQuota{Limit: 10 << 30, Policy: admin.SpaceNoWrites}); err != nil {
		log.Fatal(err)
	}
	usages, err := adm.SpaceQuotaUsages(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range usages {
		fmt.Printf("%v: %d of %d bytes, in violation %v\n", u.Target, u.Usage, u.Limit, u.InViolation)
	}
	// A Put refused by it: errors.Is(err, hberr.ErrSpaceQuotaViolated).
}

// The calls that took over hbase.ipc.warn.response.time on the region servers, newest first,
// for one table (the servers keep them with hbase.regionserver.slowlog.buffer.enabled).
func ExampleAdmin_SlowLogs() {
	client, err := hbase.NewClient("zk1:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx := context.Background()

	recs, err := adm.SlowLogs(ctx, admin.LogQuery{Table: "shop:orders", Limit: 20})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recs {
		fmt.Printf("%s %s %s by %s from %s: %v (queued %v)\n",
			r.Start.Format(time.RFC3339), r.Server, r.Method, r.User, r.Client, r.Processing, r.Queue)
	}
	if err := adm.ClearSlowLogs(ctx); err != nil {
		log.Fatal(err)
	}
}

// A region server group for one tenant: a server of its own, and its table's regions on it.
func ExampleAdmin_MoveServersToRSGroup() {
	client, err := hbase.NewClient("zk1:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx := context.Background()

	if err := adm.AddRSGroup(ctx, "tenant_a"); errors.Is(err, hberr.ErrNotSupported) {
		log.Fatal("RSGroups are off: ", err)
	} else if err != nil && !errors.Is(err, hberr.ErrRSGroupExists) {
		log.Fatal(err)
	}
	if err := adm.MoveServersToRSGroup(ctx, "tenant_a", "rs7.example.com:16020"); err != nil {
		log.Fatal(err)
	}
	if err := adm.MoveTablesToRSGroup(ctx, "tenant_a", "tenant_a:orders"); err != nil {
		log.Fatal(err)
	}
	g, err := adm.RSGroupOfTable(ctx, "tenant_a:orders")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Name, g.Servers, g.Tables)
}
