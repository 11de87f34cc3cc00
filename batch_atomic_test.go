package hbase

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// checkAtomicBatch runs one batch mixing Puts, a Get, CheckAndMutates (condition held or not,
// one mutation or RowMutations, an Increment returning its value) and RowMutations on rows of
// table (family "f") in several regions, with hostile keys, and checks every result and the
// rows afterwards. It runs against HBase (TestBatchCheckAndMutateAgainstHBase) and fakehbase
// (TestBatchCheckAndMutateOnFake, through CheckAtomicBatch).
func checkAtomicBatch(t *testing.T, ctx context.Context, c *Client, table string, rows [4]string) {
	t.Helper()
	tb, f := table, []byte("f")
	must := func(m hrpc.Mutation, err error) hrpc.Mutation {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	put := func(row, q, v string) hrpc.Mutation {
		return must(hrpc.NewPut(tb, []byte(row), hrpc.Value(f, []byte(q), []byte(v))))
	}
	// Seed: rows[0] and rows[2] hold q=old.
	for _, r := range []string{rows[0], rows[2]} {
		if _, err := c.Put(ctx, put(r, "q", "old").(*hrpc.Put)); err != nil {
			t.Fatal(err)
		}
	}
	camHeld, err := hrpc.NewCheckAndMutate(hrpc.IfValue(f, []byte("q"), hrpc.Equal, []byte("old")), put(rows[0], "q", "new"))
	if err != nil {
		t.Fatal(err)
	}
	camNotHeld, err := hrpc.NewCheckAndMutate(hrpc.IfValue(f, []byte("q"), hrpc.Equal, []byte("other")), put(rows[2], "q", "never"))
	if err != nil {
		t.Fatal(err)
	}
	camInc, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists(f, []byte("gone")),
		must(hrpc.NewIncrement(tb, []byte(rows[1]), hrpc.Amount(f, []byte("n"), 5))))
	if err != nil {
		t.Fatal(err)
	}
	rmCond, err := hrpc.NewRowMutations([]hrpc.Mutation{put(rows[2], "a", "1"), put(rows[2], "b", "2")})
	if err != nil {
		t.Fatal(err)
	}
	camRow, err := hrpc.NewCheckAndMutateRow(hrpc.IfValue(f, []byte("q"), hrpc.Equal, []byte("old")), rmCond)
	if err != nil {
		t.Fatal(err)
	}
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{put(rows[3], "x", "1"),
		must(hrpc.NewDelete(tb, []byte(rows[3]), hrpc.DeleteColumn(f, []byte("y")))),
		must(hrpc.NewIncrement(tb, []byte(rows[3]), hrpc.Amount(f, []byte("n"), 2)))})
	if err != nil {
		t.Fatal(err)
	}
	get, err := hrpc.NewGet(tb, []byte(rows[0]))
	if err != nil {
		t.Fatal(err)
	}
	calls := []hrpc.Batchable{put(rows[1], "p", "v"), camHeld, camNotHeld, get, camInc, camRow, rm, put(rows[3], "p", "v")}
	res := c.SendBatch(ctx, calls)
	for i, r := range res {
		if r.Err != nil {
			t.Fatalf("call %d: %v", i, r.Err)
		}
	}
	if !res[1].Applied || res[2].Applied || !res[4].Applied || !res[5].Applied || res[6].Applied || res[0].Applied {
		t.Errorf("Applied: held %v, not held %v, increment %v, row %v; RowMutations %v, Put %v; want true false true true false false",
			res[1].Applied, res[2].Applied, res[4].Applied, res[5].Applied, res[6].Applied, res[0].Applied)
	}
	if cells := res[4].Result.Cells; len(cells) != 1 || binary.BigEndian.Uint64(cells[0].Value) != 5 || string(cells[0].Row) != rows[1] {
		t.Errorf("conditional Increment's result: %v, want n=5", cells)
	}
	if cells := res[6].Result.Cells; len(cells) != 1 || binary.BigEndian.Uint64(cells[0].Value) != 2 {
		t.Errorf("RowMutations' result: %v, want the Increment's n=2", cells)
	}
	value := func(row, q string) string {
		t.Helper()
		g, err := hrpc.NewGet(tb, []byte(row), hrpc.Columns(f, []byte(q)))
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Get(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Cells) == 0 {
			return ""
		}
		return string(r.Cells[0].Value)
	}
	for _, w := range []struct{ row, q, want string }{
		{rows[0], "q", "new"}, {rows[2], "q", "old"}, {rows[2], "a", "1"}, {rows[2], "b", "2"},
		{rows[3], "x", "1"}, {rows[3], "p", "v"}, {rows[1], "p", "v"},
	} {
		if got := value(w.row, w.q); got != w.want {
			t.Errorf("%q/%s = %q, want %q", w.row, w.q, got, w.want)
		}
	}

	// A condition on a missing family fails that call alone, with the server's refusal.
	bad, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("nosuchfamily"), []byte("q")), put(rows[0], "q", "x"))
	if err != nil {
		t.Fatal(err)
	}
	res = c.SendBatch(ctx, []hrpc.Batchable{bad, put(rows[1], "z", "z")})
	if !errors.Is(res[0].Err, hberr.ErrNoSuchFamily) && !errors.Is(res[0].Err, hberr.ErrDoNotRetry) {
		t.Errorf("CheckAndMutate on a missing family: %v", res[0].Err)
	}
	if op, ok := errors.AsType[*hberr.OpError](res[0].Err); !ok || op.Op != "CheckAndMutate" || string(op.Row) != rows[0] {
		t.Errorf("its error does not name the CheckAndMutate of %q: %v", rows[0], res[0].Err)
	}
	if res[1].Err != nil {
		t.Errorf("the Put beside it: %v", res[1].Err)
	}
}

// TestBatchCheckAndMutateAgainstHBase: CheckAndMutate and RowMutations in a batch, as atomic
// region actions, against the real server: its results, processed flags and refusals.
func TestBatchCheckAndMutateAgainstHBase(t *testing.T) {
	table := createTable(t, []string{"f"}, [][]byte{[]byte(","), []byte("\x10")})
	c := newTestClient(t)
	checkAtomicBatch(t, testContext(t, time.Minute), c, table, [4]string{"\x00a", ",\x00,", ",,b", "\xff\x00"})
}
