package admin_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func ExampleAdmin() {
	// A local cluster; a program connects to its own: hbase.NewClient("zk1:2181,...").
	cluster, err := hbasetest.Start(context.Background(), hbasetest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer cluster.Stop()
	client, err := hbase.NewClient(cluster.ZKQuorum, hbase.WithZNodeParent(cluster.ZNodeParent))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)

	// Every admin call ends with its context; procedures are waited on until then.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := adm.CreateNamespace(ctx, &hrpc.NamespaceDescriptor{Name: "shop"}); err != nil {
		log.Fatal(err)
	}
	desc, err := hrpc.NewTableDescriptor("shop:orders",
		hrpc.WithFamily("o", hrpc.Versions(3), hrpc.TTL(30*24*time.Hour), hrpc.Compress(hrpc.CompressionGZ)),
		hrpc.WithFamily("audit", hrpc.BlockEncoding(hrpc.EncodingFastDiff)))
	if err != nil {
		log.Fatal(err) // bad names and settings are reported here, before anything is sent
	}
	if err := adm.CreateTable(ctx, desc, hrpc.HexStringSplits(4)); err != nil {
		log.Fatal(err)
	}
	err = adm.CreateTable(ctx, desc)
	fmt.Println("again:", errors.Is(err, hberr.ErrTableExists))

	got, err := adm.DescribeTable(ctx, "shop:orders")
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range got.Families {
		fmt.Printf("family %s: versions %d, ttl %v, compression %s, encoding %s\n",
			f.Name, f.MaxVersions, f.TTL, f.Compression, f.Encoding)
	}
	regions, err := adm.Regions(ctx, "shop:orders")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range regions {
		fmt.Printf("region [%q, %q)\n", r.Start, r.End)
	}
	tables, err := adm.ListTables(ctx, hrpc.InNamespace("shop"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("tables:", tables)

	err = adm.DeleteNamespace(ctx, "shop")
	fmt.Println("namespace not empty:", errors.Is(err, hberr.ErrNamespaceNotEmpty))

	// An operator's calls: switches, compaction state, a snapshot kept for a day.
	wasOn, err := adm.SetSplit(ctx, false)
	if err != nil {
		log.Fatal(err)
	}
	err = adm.SplitTable(ctx, "shop:orders", []byte("2"))
	fmt.Println("split while splits are off:", errors.Is(err, hberr.ErrSwitchedOff))
	if _, err := adm.SetSplit(ctx, wasOn); err != nil {
		log.Fatal(err)
	}
	state, err := adm.TableCompactionState(ctx, "shop:orders")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("compaction state:", state)
	if err := adm.Snapshot(ctx, "orders-daily", "shop:orders", admin.SnapshotTTL(24*time.Hour)); err != nil {
		log.Fatal(err)
	}
	snaps, err := adm.ListSnapshots(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range snaps {
		fmt.Printf("snapshot %s of %s, kept %v\n", s.Name, s.Table, s.TTL)
	}
	if err := adm.DeleteSnapshot(ctx, "orders-daily"); err != nil {
		log.Fatal(err)
	}

	if err := adm.DisableTable(ctx, "shop:orders"); err != nil {
		log.Fatal(err)
	}
	disabled, err := adm.TableDisabled(ctx, "shop:orders")
	fmt.Println("disabled:", disabled, err)
	if err := adm.DeleteTable(ctx, "shop:orders"); err != nil {
		log.Fatal(err)
	}
	if err := adm.DeleteNamespace(ctx, "shop"); err != nil {
		log.Fatal(err)
	}
	// Output:
	// again: true
	// family audit: versions 1, ttl 0s, compression NONE, encoding FAST_DIFF
	// family o: versions 3, ttl 720h0m0s, compression GZ, encoding NONE
	// region ["", "40000000")
	// region ["40000000", "80000000")
	// region ["80000000", "c0000000")
	// region ["c0000000", "")
	// tables: [shop:orders]
	// namespace not empty: true
	// split while splits are off: true
	// compaction state: NONE
	// snapshot orders-daily of shop:orders, kept 24h0m0s
	// disabled: true <nil>
}
