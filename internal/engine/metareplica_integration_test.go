package engine

import (
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/zk"
)

// TestMetaReplicaLookupsAgainstHBase starts a cluster of its own with three replicas of
// hbase:meta and reads a table of 8 regions with a cold cache through clients with
// WithMetaReplicaLookups, finding the replicas through ZooKeeper and through the master's
// connection registry: every Get is answered, and the lookups are spread over the replicas
// (a cluster of its own, up in about 6 s: make test's race pass and make reliability).
func TestMetaReplicaLookupsAgainstHBase(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: needs an HBase mini cluster")
	}
	start := time.Now()
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 3, Conf: map[string]string{
		"hbase.meta.replica.count":                         "3",
		"hbase.region.replica.replication.catalog.enabled": "true",
		"hbase.regionserver.meta.storefile.refresh.period": "500",
	}})
	t.Logf("cluster with 3 hbase:meta replicas up in %v", time.Since(start))
	ctx := testContext(t, 3*time.Minute)
	zc, err := zk.New(cl.ZKQuorum, zk.WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer zc.Close()
	for id := 1; id <= 2; id++ {
		for {
			if _, err := zc.LocateMetaReplica(ctx, id); err == nil {
				break
			} else if ctx.Err() != nil {
				t.Fatalf("hbase:meta replica %d never located: %v", id, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	t.Logf("hbase:meta replicas located %v after the start", time.Since(start))

	writer, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	const table = "metareplicas"
	if err := cl.CreateTable(ctx, table, []string{"f"}, [][]byte{[]byte("1"), []byte("2"), []byte("3"),
		[]byte("4"), []byte("5"), []byte("6"), []byte("7")}); err != nil {
		t.Fatal(err)
	}
	rows := []string{"0r", "1r", "2r", "3r", "4r", "5r", "6r", "7r"}
	for _, row := range rows {
		p, _ := hrpc.NewPut(table, []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte(row)))
		if _, err := writer.Put(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// The replicas of hbase:meta follow its flushed files (refreshed every 500 ms here); in
	// 2.6.1 catalog replication alone did not show them the new regions' servers within
	// seconds, and a replica's answer without a server sends the lookup to the primary.
	if err := cl.Flush(ctx, "hbase:meta"); err != nil {
		t.Fatalf("flushing hbase:meta: %v", err)
	}
	time.Sleep(2 * time.Second)
	// The same reads through each registry: ZooKeeper's meta-region-server-N znodes, and the
	// connection registry of the master and (HBase 2.5+) of a region server, whose one
	// GetMetaRegionLocations answer lists every replica.
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, reg := range []struct {
		name   string
		quorum string
		opts   []Option
	}{
		{"zookeeper", cl.ZKQuorum, []Option{WithZNodeParent(cl.ZNodeParent)}},
		{"bootstrap-master", "", []Option{WithBootstrapServers(cl.MasterAddr)}},
		{"bootstrap-regionserver", "", []Option{WithBootstrapServers(st.RegionServers[0].Addr)}},
	} {
		t.Run(reg.name, func(t *testing.T) {
			if reg.name == "bootstrap-regionserver" && !cl.AtLeast(2, 5) {
				t.Skipf("HBase %s region servers serve no connection registry", cl.Version())
			}
			var replicaLookups, lookups int64
			for round := range 3 {
				c, err := NewClient(reg.quorum, append(reg.opts, WithMetaReplicaLookups())...)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				// The first lookup reads the replicas' locations in the background: wait for them.
				g, _ := hrpc.NewGet(table, []byte(rows[0]))
				if _, err := c.Get(ctx, g); err != nil {
					t.Fatal(err)
				}
				reps := waitReplicas(t, c, 2, time.Minute)
				if round == 0 {
					t.Logf("hbase:meta replicas: %v, located by %T", reps, c.metaReps.loc)
				}
				for _, row := range rows[1:] {
					g, _ := hrpc.NewGet(table, []byte(row))
					res, err := c.Get(ctx, g)
					if err != nil {
						t.Fatalf("round %d: Get %s: %v", round, row, err)
					}
					if len(res.Cells) != 1 || string(res.Cells[0].Value) != row {
						t.Fatalf("round %d: Get %s: %v", round, row, res.Cells)
					}
				}
				replicaLookups += c.metaReplicaRPCs.Load()
				lookups += c.metaReplicaRPCs.Load() + c.metaRPCs.Load()
				c.Close()
			}
			t.Logf("%d lookups, %d answered by an hbase:meta replica", lookups, replicaLookups)
			if replicaLookups == 0 {
				t.Fatal("no lookup was answered by a replica of hbase:meta")
			}
		})
	}
}
