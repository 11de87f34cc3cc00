package bufwriter

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// TestWriterOutcomesTiedToData: against a real cluster, each outcome names its mutation's
// table, row and kind, and carries the tag it was written with, for the four kinds, tagged
// singly and in a batch, applied and refused by the server (a Put to a family the table does
// not have).
func TestWriterOutcomesTiedToData(t *testing.T) {
	c := newTestClient(t)
	table := createTable(t, []string{"f"}, [][]byte{[]byte("m")})
	type event struct{ id string }
	var mu sync.Mutex
	got := map[string]Outcome{} // by the tag's id
	w, err := New(c, table, WithOnOutcome(func(o Outcome) {
		mu.Lock()
		defer mu.Unlock()
		ev, ok := o.Tag.(*event)
		if !ok {
			t.Errorf("outcome of %v %q with tag %#v, want an *event", o.Kind(), o.Row(), o.Tag)
			return
		}
		if _, dup := got[ev.id]; dup {
			t.Errorf("second outcome for %s", ev.id)
		}
		got[ev.id] = o
	}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, time.Minute)
	f := []byte("f")
	put, _ := hrpc.NewPut(table, []byte("a-put"), hrpc.Value(f, []byte("q"), []byte("v")))
	bad, _ := hrpc.NewPut(table, []byte("n-bad"), hrpc.Value([]byte("nosuchfamily"), []byte("q"), []byte("v")))
	del, _ := hrpc.NewDelete(table, []byte("z-del"))
	app, _ := hrpc.NewAppend(table, []byte("b-app"), hrpc.Value(f, []byte("a"), []byte("x")))
	inc, _ := hrpc.NewIncrement(table, []byte("y-inc"), hrpc.Amount(f, []byte("n"), 2))
	if err := w.WriteTagged(ctx, put, &event{"e1"}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteTagged(ctx, bad, &event{"e2"}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatchTagged(ctx, []hrpc.Mutation{del, app, inc}, []any{&event{"e3"}, &event{"e4"}, &event{"e5"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		row     string
		kind    Kind
		applied bool
	}{
		"e1": {"a-put", KindPut, true}, "e2": {"n-bad", KindPut, false}, "e3": {"z-del", KindDelete, true},
		"e4": {"b-app", KindAppend, true}, "e5": {"y-inc", KindIncrement, true},
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("%d outcomes, want %d", len(got), len(want))
	}
	for id, wt := range want {
		o := got[id]
		desc := fmt.Sprintf("%s: %v of %s/%q, applied %v", id, o.Kind(), o.Table(), o.Row(), o.Applied())
		t.Log(desc)
		if o.Table() != table || string(o.Row()) != wt.row || o.Kind() != wt.kind || o.Applied() != wt.applied {
			t.Errorf("%s; want %v of %s/%q, applied %v", desc, wt.kind, table, wt.row, wt.applied)
		}
	}
	if e2 := got["e2"]; !errors.Is(e2.Err, hberr.ErrNoSuchFamily) || e2.Indeterminate() {
		t.Errorf("the Put to a missing family: %v, want hberr.ErrNoSuchFamily", e2.Err)
	}
	if r := got["e5"].Result; r == nil || len(r.Cells) != 1 {
		t.Errorf("the Increment's result: %v, want its new value", r)
	}
}
