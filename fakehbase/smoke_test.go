package fakehbase_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hrpc"
)

func TestSmoke(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}, []byte("m")); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, r := range []string{"a", "n", "z"} {
		p, _ := hrpc.NewPut([]byte("t"), []byte(r), hrpc.Value([]byte("f"), []byte("q"), []byte("v"+r)))
		if _, err := c.Put(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	g, _ := hrpc.NewGet([]byte("t"), []byte("n"))
	res, err := c.Get(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("get: %+v", res.Cells)
	sc, _ := hrpc.NewScan([]byte("t"))
	for row, err := range c.Scan(ctx, sc) {
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("row %s", row.Cells[0].Row)
	}
	sc, _ = hrpc.NewScan([]byte("t"), hrpc.Reversed())
	for row, err := range c.Scan(ctx, sc) {
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("rev row %s", row.Cells[0].Row)
	}
	tables, err := c.Admin().ListTables(ctx)
	t.Log(tables, err)
}
