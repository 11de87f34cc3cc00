package engine

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"go.uber.org/goleak"
)

var (
	famF  = []byte("f")
	qualQ = []byte("q")
)

func mustPut(t testing.TB, table string, row, value []byte) *hrpc.Put {
	t.Helper()
	p, err := hrpc.NewPut(table, row, hrpc.Value(famF, qualQ, value))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustGet(t testing.TB, table string, row []byte, opts ...hrpc.GetOption) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet(table, row, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestIntegrationGetPutDelete(t *testing.T) {
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	if _, err := c.Put(ctx, mustPut(t, table, []byte("r1"), []byte("v1"))); err != nil {
		t.Fatalf("Put: %v", err)
	}
	res, err := c.Get(ctx, mustGet(t, table, []byte("r1")))
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, []byte("v1")) || !bytes.Equal(res.Cells[0].Row, []byte("r1")) {
		t.Fatalf("Get = %+v, want r1 f:q=v1", res.Cells)
	}
	// The Java client on the cluster sees the same cell.
	cells, err := testCluster(t).Get(ctx, table, []byte("r1"))
	if err != nil || len(cells) != 1 || !bytes.Equal(cells[0].Value, []byte("v1")) {
		t.Fatalf("cluster Get = %+v, %v", cells, err)
	}
	del, err := hrpc.NewDelete(table, []byte("r1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Delete(ctx, del); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	res, err = c.Get(ctx, mustGet(t, table, []byte("r1")))
	if err != nil || len(res.Cells) != 0 {
		t.Fatalf("Get after Delete = %+v, %v; want no cells", res, err)
	}
	ex, err := c.Get(ctx, mustGet(t, table, []byte("nope"), hrpc.ExistsOnly()))
	if err != nil || ex.Exists == nil || *ex.Exists {
		t.Fatalf("exists-only Get of a missing row = %+v, %v", ex, err)
	}
}

func TestIntegrationServerRejectionsAreTyped(t *testing.T) {
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)

	_, err := c.Get(ctx, mustGet(t, "no_such_table_xyz", []byte("r")))
	if !errors.Is(err, hberr.ErrTableNotFound) {
		t.Errorf("Get on a missing table = %v, want hberr.ErrTableNotFound", err)
	}
	p, _ := hrpc.NewPut(table, []byte("r"), hrpc.Value([]byte("nofam"), qualQ, []byte("v")))
	_, err = c.Put(ctx, p)
	if !errors.Is(err, hberr.ErrNoSuchFamily) {
		t.Errorf("Put to an unknown family = %v, want hberr.ErrNoSuchFamily", err)
	}
	// hbase.server.keyvalue.maxsize defaults to 10 MiB: one byte over it is refused.
	big := make([]byte, 10<<20+1)
	_, err = c.Put(ctx, mustPut(t, table, []byte("big"), big))
	if !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Errorf("Put of a value over the server's limit = %v, want hberr.ErrDoNotRetry", err)
	}
	if ctx.Err() != nil {
		t.Fatal("typed rejections took until the test deadline: they were retried")
	}
}

func TestIntegrationSendBatchAcrossTablesRegionsServers(t *testing.T) {
	splits := [][]byte{[]byte("b"), []byte("d"), []byte("f"), []byte("h")}
	t1 := createTable(t, []string{"f"}, splits)
	t2 := createTable(t, []string{"f"}, splits)
	cl := testCluster(t)
	ctx := testContext(t, 2*time.Minute)
	// Spread the regions over the servers.
	regs, err := cl.Regions(ctx, t1)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range regs {
		if err := cl.Move(ctx, r.EncodedName, i%3); err != nil {
			t.Logf("move %s: %v", r.EncodedName, err)
		}
	}
	c := newTestClient(t)
	var puts []hrpc.Batchable
	rows := []string{"a1", "c1", "e1", "g1", "i1", "a2", "z9"}
	for _, table := range []string{t1, t2} {
		for _, r := range rows {
			puts = append(puts, mustPut(t, table, []byte(r), []byte(table+"/"+r)))
		}
	}
	for i, res := range c.SendBatch(ctx, puts) {
		if res.Err != nil {
			t.Fatalf("put %d: %v", i, res.Err)
		}
	}
	// Gets in a shuffled order, mixed with a bad family and a missing row: results in place.
	var gets []hrpc.Batchable
	var want []string
	for i := len(rows) - 1; i >= 0; i-- {
		for _, table := range []string{t2, t1} {
			gets = append(gets, mustGet(t, table, []byte(rows[i])))
			want = append(want, table+"/"+rows[i])
		}
	}
	gets = append(gets, mustGet(t, t1, []byte("missing")))
	want = append(want, "")
	gets = append(gets, mustGet(t, t1, []byte("a1"), hrpc.Families([]byte("nofam"))))
	want = append(want, "ERR")
	results := c.SendBatch(ctx, gets)
	if len(results) != len(gets) {
		t.Fatalf("%d results for %d calls", len(results), len(gets))
	}
	for i, res := range results {
		switch want[i] {
		case "ERR":
			if !errors.Is(res.Err, hberr.ErrNoSuchFamily) {
				t.Errorf("get %d: err = %v, want hberr.ErrNoSuchFamily", i, res.Err)
			}
		case "":
			if res.Err != nil || len(res.Result.Cells) != 0 {
				t.Errorf("get %d of a missing row = %+v, %v", i, res.Result, res.Err)
			}
		default:
			if res.Err != nil {
				t.Errorf("get %d: %v", i, res.Err)
				continue
			}
			if len(res.Result.Cells) != 1 || string(res.Result.Cells[0].Value) != want[i] {
				t.Errorf("get %d = %+v, want %s", i, res.Result.Cells, want[i])
			}
		}
	}
}

func TestIntegrationRegionMovesAreFollowed(t *testing.T) {
	table := createTable(t, []string{"f"}, [][]byte{[]byte("m")})
	cl := testCluster(t)
	c := newTestClient(t)
	ctx := testContext(t, 2*time.Minute)
	for _, r := range []string{"a", "z"} {
		if _, err := c.Put(ctx, mustPut(t, table, []byte(r), []byte("v"+r))); err != nil {
			t.Fatal(err)
		}
	}
	regs, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		for _, r := range regs {
			if err := cl.Move(ctx, r.EncodedName, (r.Server+1+round)%3); err != nil {
				t.Logf("move: %v", err)
			}
		}
		for _, r := range []string{"a", "z"} {
			res, err := c.Get(ctx, mustGet(t, table, []byte(r)))
			if err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != "v"+r {
				t.Fatalf("round %d: Get %s after move = %+v, %v", round, r, res, err)
			}
		}
	}
}

func TestIntegrationCloseLeavesNoGoroutine(t *testing.T) {
	table := createTable(t, []string{"f"}, [][]byte{[]byte("m")})
	cl := testCluster(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, time.Minute)
	for i := range 20 {
		if _, err := c.Put(ctx, mustPut(t, table, fmt.Appendf(nil, "%c%d", 'a'+i, i), []byte("v"))); err != nil {
			t.Fatal(err)
		}
	}
	sc := c.NewScanner(ctx, mustScanOf(t, table, hrpc.NumberOfRows(3)))
	if !sc.Next() {
		t.Fatal(sc.Err())
	}
	// Close the client with the scanner still open: no goroutine may survive.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, mustGet(t, table, []byte("a0"))); !errors.Is(err, hberr.ErrClosed) {
		t.Fatalf("Get after Close = %v", err)
	}
	sc.Close()
}

func mustScanOf(t testing.TB, table string, opts ...hrpc.ScanOption) *hrpc.Scan {
	t.Helper()
	s, err := hrpc.NewScan(table, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkIntegrationGet measures one Get round trip against the mini cluster (parallel
// callers share the client's one connection per server).
func BenchmarkIntegrationGet(b *testing.B) {
	table := createTable(b, []string{"f"}, nil)
	c := newTestClient(b)
	ctx := testContext(b, 5*time.Minute)
	if _, err := c.Put(ctx, mustPut(b, table, []byte("row"), make([]byte, 100))); err != nil {
		b.Fatal(err)
	}
	get := mustGet(b, table, []byte("row"))
	if _, err := c.Get(ctx, get); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Get(ctx, get); err != nil {
				b.Error(err)
				return
			}
		}
	})
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
