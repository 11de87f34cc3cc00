package hbase

import (
	"context"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// With ZooKeeper stopped after startup, a new client bootstraps from the servers alone, and
// hbase-site.xml naming only bootstrap servers does the same.
func TestIntegrationBootstrapWithoutZooKeeper(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := cl.CreateTable(ctx, "nozk", []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := cl.StopZooKeeper(ctx); err != nil {
		t.Fatal(err)
	}
	zkClient, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer zkClient.Close()
	t.Run("option", func(t *testing.T) {
		c, err := NewClient("", WithBootstrapServers(cl.MasterAddr))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		siteRoundTrip(t, c, "nozk")
	})
	t.Run("site-config", func(t *testing.T) {
		c := siteClient(t,
			"hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry",
			"hbase.client.bootstrap.servers", cl.MasterAddr)
		siteRoundTrip(t, c, "nozk")
	})
	t.Run("zookeeper-client-cannot", func(t *testing.T) {
		// The control: the same call through ZooKeeper does not get through now.
		get := mustGet(t, "nozk", []byte("row"))
		short, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if _, err := zkClient.Get(short, get); err == nil {
			t.Fatal("a ZooKeeper client got through with ZooKeeper stopped")
		}
	})
}
