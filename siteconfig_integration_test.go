package hbase

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

// A client made from an hbase-site.xml alone reaches the real cluster: the quorum's host and
// its clientPort come from separate keys, as in a Java deployment's files.
func TestIntegrationSiteConfig(t *testing.T) {
	cl := testCluster(t)
	table := createTable(t, []string{"f"}, nil)
	host, port, err := net.SplitHostPort(cl.ZKQuorum)
	if err != nil {
		t.Fatal(err)
	}
	c := siteClient(t,
		"hbase.zookeeper.quorum", host,
		"hbase.zookeeper.property.clientPort", port,
		"zookeeper.znode.parent", cl.ZNodeParent,
		"hbase.client.meta.operation.timeout", "20000")
	siteRoundTrip(t, c, table)
}

// siteClient returns a client made from an hbase-site.xml holding the given keys and values,
// closed when the test ends.
func siteClient(t *testing.T, kv ...string) *Client {
	t.Helper()
	cfg, err := LoadSiteConfig(testkit.WriteSite(t, t.TempDir(), "hbase-site.xml", kv...))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClientFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// siteRoundTrip puts one cell through c and reads it back.
func siteRoundTrip(t *testing.T, c *Client, table string) {
	t.Helper()
	ctx := testContext(t, time.Minute)
	put, err := hrpc.NewPut(table, []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("from the site file")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatalf("Put: %v", err)
	}
	get, err := hrpc.NewGet(table, []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, get)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, []byte("from the site file")) {
		t.Fatalf("Get = %v; want the cell just put", res.Cells)
	}
}
