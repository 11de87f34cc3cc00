package engine

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// TestRequestAttributesAgainstHBase: what the client puts in its RPCs (hrpc.Priority,
// hrpc.RequestAttribute, WithConnectionAttribute) is what an HBase 2.6 region server's
// coprocessors see of each request (RpcServer.getCurrentCall(): the header's priority, the
// call's priority, getRequestAttributes, getConnectionAttributes), for single calls, a scan
// and a batch (its highest priority and the attributes of all its calls), with binary names,
// values and rows.
func TestRequestAttributesAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	ctx := testContext(t, 2*time.Minute)
	table := fmt.Sprintf("rec%d", tables.Add(1))
	if err := cl.CreateRecordedTable(ctx, table, "f"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, table)
		_ = cl.DropTable(ctx, table)
	})
	connAttrs := map[string][]byte{"app": []byte("ingest"), "bin\x00,": {0, 0xff, ','}}
	c := newTestClient(t, WithConnectionAttribute("app", []byte("ingest")),
		WithConnectionAttribute("bin\x00,", []byte{0, 0xff, ','}))
	plain := newTestClient(t)
	tb := table
	row := func(s string) []byte { return append([]byte{0, ','}, s...) }
	val := hrpc.Value([]byte("f"), []byte("q"), []byte("v"))

	put, err := hrpc.NewPut(tb, row("a"), val, hrpc.Priority(7),
		hrpc.RequestAttribute("tenant", []byte("a")), hrpc.RequestAttribute("k\x00", []byte{0, 1, ','}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatal(err)
	}
	// Above HBase's QOS_THRESHOLD (10): served by the priority handlers.
	get, _ := hrpc.NewGet(tb, row("a"), hrpc.Priority(150), hrpc.RequestAttribute("tenant", []byte("b")))
	if res, err := c.Get(ctx, get); err != nil || len(res.Cells) != 1 {
		t.Fatalf("Get = %v, %v; want one cell", res, err)
	}
	scan, _ := hrpc.NewScan(tb, hrpc.StartRow(row("a")), hrpc.Priority(3), hrpc.RequestAttribute("scan", nil))
	n := 0
	for _, err := range c.Scan(ctx, scan) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("scan returned %d rows; want 1", n)
	}
	b1, _ := hrpc.NewPut(tb, row("b"), val, hrpc.Priority(2), hrpc.RequestAttribute("x", []byte("1")))
	b2, _ := hrpc.NewPut(tb, row("c"), val, hrpc.Priority(9), hrpc.RequestAttribute("y", []byte("2")),
		hrpc.RequestAttribute("x", []byte("other")))
	b3, _ := hrpc.NewGet(tb, row("a"))
	for i, r := range c.SendBatch(ctx, []hrpc.Batchable{b1, b2, b3}) {
		if r.Err != nil {
			t.Fatalf("batch call %d: %v", i, r.Err)
		}
	}
	bare, _ := hrpc.NewPut(tb, row("d"), val)
	if _, err := plain.Put(ctx, bare); err != nil {
		t.Fatal(err)
	}

	got, err := cl.Recorded(ctx, table, true)
	if err != nil {
		t.Fatal(err)
	}
	batchAttrs := map[string][]byte{"x": []byte("1"), "y": []byte("2")}
	want := []hbasetest.RecordedRequest{
		{Op: "Put", Row: row("a"), HeaderPriority: 7, Priority: 7,
			RequestAttributes: map[string][]byte{"tenant": []byte("a"), "k\x00": {0, 1, ','}}, ConnectionAttributes: connAttrs},
		{Op: "Get", Row: row("a"), HeaderPriority: 150, Priority: 150,
			RequestAttributes: map[string][]byte{"tenant": []byte("b")}, ConnectionAttributes: connAttrs},
		{Op: "Scan", Row: row("a"), HeaderPriority: 3, Priority: 3,
			RequestAttributes: map[string][]byte{"scan": {}}, ConnectionAttributes: connAttrs},
		// The batch: one MultiRequest with the highest priority of its calls and the
		// attributes of all of them, each name with its first value.
		{Op: "Get", Row: row("a"), HeaderPriority: 9, Priority: 9, RequestAttributes: batchAttrs, ConnectionAttributes: connAttrs},
		{Op: "Put", Row: row("b"), HeaderPriority: 9, Priority: 9, RequestAttributes: batchAttrs, ConnectionAttributes: connAttrs},
		{Op: "Put", Row: row("c"), HeaderPriority: 9, Priority: 9, RequestAttributes: batchAttrs, ConnectionAttributes: connAttrs},
		{Op: "Put", Row: row("d"), HeaderPriority: -1, Priority: -2}, // -2: any priority the server picks
	}
	if len(got) != len(want) {
		t.Fatalf("recorded %d requests; want %d:\n%+v", len(got), len(want), got)
	}
	// The server runs a MultiRequest's Gets before its mutations; compare as sets within the batch.
	for i := range want {
		j := i
		if i >= 3 && i <= 5 {
			j = -1
			for k := 3; k <= 5; k++ {
				if got[k].Op == want[i].Op && bytes.Equal(got[k].Row, want[i].Row) {
					j = k
				}
			}
			if j < 0 {
				t.Fatalf("batch call %s %q not recorded: %+v", want[i].Op, want[i].Row, got[3:6])
			}
		}
		g, w := got[j], want[i]
		if g.Op != w.Op || !bytes.Equal(g.Row, w.Row) || g.HeaderPriority != w.HeaderPriority ||
			(w.Priority != -2 && g.Priority != w.Priority) ||
			!maps.EqualFunc(g.RequestAttributes, w.RequestAttributes, bytes.Equal) ||
			!maps.EqualFunc(g.ConnectionAttributes, w.ConnectionAttributes, bytes.Equal) {
			t.Errorf("request %d: got = %+v; want %+v", i, g, w)
		}
	}
}

// TestAtomicCallAttributesAgainstHBase: a CheckAndMutate and RowMutations, alone and in a
// batch beside a Put at priority 3, reach the region server's observer with the highest
// priority of their own options and their mutations', and the request attributes of all of
// them (a batch: of all its calls, each name with the value of the call first in the batch).
func TestAtomicCallAttributesAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	ctx := testContext(t, 2*time.Minute)
	table := fmt.Sprintf("rec%d", tables.Add(1))
	if err := cl.CreateRecordedTable(ctx, table, "f"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, table)
		_ = cl.DropTable(ctx, table)
	})
	c := newTestClient(t)
	f, q, v := []byte("f"), []byte("q"), []byte("v")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	put := func(row string, opts ...hrpc.PutOption) *hrpc.Put {
		p, err := hrpc.NewPut(table, []byte(row), append([]hrpc.PutOption{hrpc.Value(f, q, v)}, opts...)...)
		must(err)
		return p
	}
	cond := hrpc.IfNotExists(f, q)
	attr := hrpc.RequestAttribute

	cam, err := hrpc.NewCheckAndMutate(cond, put("cam", hrpc.Priority(2), attr("m", []byte("put"))),
		hrpc.Priority(5), attr("cam", []byte("1")))
	must(err)
	if ok, err := c.CheckAndMutate(ctx, cam); err != nil || !ok {
		t.Fatalf("CheckAndMutate = %v, %v; want applied", ok, err)
	}
	del, err := hrpc.NewDelete(table, []byte("rm"), attr("d", []byte("1")))
	must(err)
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{put("rm", hrpc.Priority(12)), del}, hrpc.Priority(6), attr("rm", []byte("1")))
	must(err)
	must(c.MutateRow(ctx, rm))
	rmCond, err := hrpc.NewRowMutations([]hrpc.Mutation{put("camrow")}, attr("rm", []byte("2")))
	must(err)
	camRow, err := hrpc.NewCheckAndMutateRow(cond, rmCond, hrpc.Priority(150))
	must(err)
	if ok, err := c.CheckAndMutate(ctx, camRow); err != nil || !ok {
		t.Fatalf("CheckAndMutate of RowMutations = %v, %v; want applied", ok, err)
	}
	bcam, err := hrpc.NewCheckAndMutate(cond, put("bcam"), hrpc.Priority(7), attr("k", []byte("cam")))
	must(err)
	brm, err := hrpc.NewRowMutations([]hrpc.Mutation{put("brm")}, hrpc.Priority(4), attr("r", []byte("1")))
	must(err)
	bput := put("bput", hrpc.Priority(3), attr("p", []byte("3")), attr("k", []byte("put")))
	for i, r := range c.SendBatch(ctx, []hrpc.Batchable{bcam, bput, brm}) {
		if r.Err != nil {
			t.Fatalf("batch call %d: %v", i, r.Err)
		}
	}

	got, err := cl.Recorded(ctx, table, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		t.Logf("observer: %s %q header priority %d, call priority %d, request attributes %q",
			g.Op, g.Row, g.HeaderPriority, g.Priority, g.RequestAttributes)
	}
	batch := hbasetest.RecordedRequest{HeaderPriority: 7, Priority: 7,
		RequestAttributes: map[string][]byte{"k": []byte("cam"), "p": []byte("3"), "r": []byte("1")}}
	want := map[string]hbasetest.RecordedRequest{
		"Put cam": {HeaderPriority: 5, Priority: 5, RequestAttributes: map[string][]byte{"cam": []byte("1"), "m": []byte("put")}},
		"Put rm":  {HeaderPriority: 12, Priority: 12, RequestAttributes: map[string][]byte{"rm": []byte("1"), "d": []byte("1")}},
		"Delete rm": {HeaderPriority: 12, Priority: 12,
			RequestAttributes: map[string][]byte{"rm": []byte("1"), "d": []byte("1")}},
		"Put camrow": {HeaderPriority: 150, Priority: 150, RequestAttributes: map[string][]byte{"rm": []byte("2")}},
		"Put bcam":   batch,
		"Put brm":    batch,
		"Put bput":   batch,
	}
	if len(got) != len(want) {
		t.Errorf("recorded %d requests; want %d", len(got), len(want))
	}
	for _, g := range got {
		key := g.Op + " " + string(g.Row)
		w, ok := want[key]
		if !ok {
			t.Errorf("recorded %s, not sent", key)
			continue
		}
		delete(want, key)
		if g.HeaderPriority != w.HeaderPriority || g.Priority != w.Priority ||
			!maps.EqualFunc(g.RequestAttributes, w.RequestAttributes, bytes.Equal) {
			t.Errorf("%s: header priority %d, call priority %d, request attributes %q; want %d, %d, %q", key,
				g.HeaderPriority, g.Priority, g.RequestAttributes, w.HeaderPriority, w.Priority, w.RequestAttributes)
		}
	}
	for key := range want {
		t.Errorf("%s not recorded", key)
	}
}
