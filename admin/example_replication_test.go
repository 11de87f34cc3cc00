package admin_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// A peer that ships one table to a second cluster: the row written on the source is read
// back on the peer.
func ExampleAdmin_AddReplicationPeer() {
	// Two local clusters; a program names its own peer's cluster key ("zk1,zk2:2181:/hbase").
	cluster, err := hbasetest.Start(context.Background(), hbasetest.Options{PeerCluster: true})
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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	desc, err := hrpc.NewTableDescriptor("orders", hrpc.WithFamily("o"))
	if err != nil {
		log.Fatal(err)
	}
	if err := adm.CreateTable(ctx, desc); err != nil {
		log.Fatal(err)
	}
	err = adm.AddReplicationPeer(ctx, "backup", &admin.ReplicationPeerConfig{
		ClusterKey: cluster.Peer.ClusterKey(),
		TableCFs:   map[string][]string{"orders": nil}, // every family of orders
	}, true)
	if err != nil {
		log.Fatal(err)
	}
	// Creates orders on the peer cluster and sets REPLICATION_SCOPE 1 on its families.
	if err := adm.EnableTableReplication(ctx, "orders"); err != nil {
		log.Fatal(err)
	}
	peers, err := adm.ListReplicationPeers(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range peers {
		fmt.Printf("peer %s enabled=%v tables=%v\n", p.ID, p.Enabled, p.Config.TableCFs)
	}

	put, err := hrpc.NewPut("orders", []byte("o-1"), hrpc.Value([]byte("o"), []byte("total"), []byte("42")))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Put(ctx, put); err != nil {
		log.Fatal(err)
	}
	peerClient, err := hbase.NewClient(cluster.Peer.ZKQuorum, hbase.WithZNodeParent(cluster.Peer.ZNodeParent))
	if err != nil {
		log.Fatal(err)
	}
	defer peerClient.Close()
	get, err := hrpc.NewGet("orders", []byte("o-1"))
	if err != nil {
		log.Fatal(err)
	}
	for {
		res, err := peerClient.Get(ctx, get)
		if err != nil {
			log.Fatal(err)
		}
		if len(res.Cells) > 0 {
			fmt.Printf("on the peer: %s\n", res.Cells[0].Value)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := adm.RemoveReplicationPeer(ctx, "backup"); err != nil {
		log.Fatal(err)
	}
	// Output:
	// peer backup enabled=true tables=map[orders:[]]
	// on the peer: 42
}

// Which families ship to the replication peers, and switching a table's replication off; these
// two calls need no peer, so they also run on fakehbase.
func ExampleAdmin_ListReplicatedTableCFs() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	desc, err := hrpc.NewTableDescriptor("events",
		hrpc.WithFamily("e", hrpc.FamilyAttribute("REPLICATION_SCOPE", "1")), hrpc.WithFamily("local"))
	if err != nil {
		log.Fatal(err)
	}
	if err := adm.CreateTable(ctx, desc); err != nil {
		log.Fatal(err)
	}
	replicated, err := adm.ListReplicatedTableCFs(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("replicated:", replicated)
	if err := adm.DisableTableReplication(ctx, "events"); err != nil {
		log.Fatal(err)
	}
	replicated, err = adm.ListReplicatedTableCFs(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after DisableTableReplication:", replicated)
	// Output:
	// replicated: map[events:[e]]
	// after DisableTableReplication: map[]
}
