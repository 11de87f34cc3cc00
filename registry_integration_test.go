package hbase

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
)

// A client that knows only bootstrap servers (the master, or a region server) finds hbase:meta
// through their connection registry and serves calls, with no ZooKeeper session.
func TestIntegrationBootstrapRegistry(t *testing.T) {
	cl := testCluster(t)
	table := createTable(t, []string{"f"}, nil)
	st, err := cl.Status(testContext(t, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, addr string }{
		{"master", cl.MasterAddr},
		{"regionserver", st.RegionServers[0].Addr},
	} {
		t.Run(c.name, func(t *testing.T) {
			client, err := NewClient("", WithBootstrapServers(c.addr))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			if c.name == "regionserver" && !cl.AtLeast(2, 5) {
				short, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_, err := client.Get(short, mustGet(t, table, []byte("row")))
				// A 2.4 region server resets the connection on the registry service: the
				// Get fails at once, as a configuration error, not at its deadline.
				if !errors.Is(err, hberr.ErrBootstrapUnreachable) || !errors.Is(err, hberr.ErrConfiguration) || !strings.Contains(err.Error(), "HBase 2.5") {
					t.Fatalf("HBase %s: err = %v; want hberr.ErrBootstrapUnreachable and hberr.ErrConfiguration naming HBase 2.5", cl.Version(), err)
				}
				t.Logf("HBase %s region server: %v", cl.Version(), err)
				return
			}
			siteRoundTrip(t, client, table)
			if _, ok := client.reg.(*bootstrapRegistry); !ok {
				t.Fatalf("registry = %T; want the bootstrap registry", client.reg)
			}
		})
	}
}

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
