package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
			if _, ok := client.Reg.(*bootstrapRegistry); !ok {
				t.Fatalf("registry = %T; want the bootstrap registry", client.Reg)
			}
		})
	}
}
