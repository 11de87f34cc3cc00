package bufwriter_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// order stands for the caller's data a mutation writes: what a service needs back with the
// outcome.
type order struct{ id int }

// TestWriterOutcomeTiesToData: every outcome names its mutation's table, row and kind, and
// hands back the tag it was written with (nil when written untagged), for tagged and
// untagged writes mixed in one buffer, single and batched, applied and failed.
func TestWriterOutcomeTiesToData(t *testing.T) {
	srv, c := writerServer(t)
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Row: []byte("refused")}, fakehbase.DoNotRetry, "refused", 0); err != nil {
		t.Fatal(err)
	}
	log := newOutcomeLog(t)
	w, err := bufwriter.New(c, "w", bufwriter.WithFlushCount(4), bufwriter.WithOnOutcome(log.add))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	del, err := hrpc.NewDelete("w", []byte("d1"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := hrpc.NewAppend("w", []byte("a1"), hrpc.Value([]byte("f"), []byte("a"), []byte("x")))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		row  string
		kind bufwriter.Kind
		tag  any
		ok   bool
	}
	wants := map[hrpc.Mutation]want{}
	first, refused, inc, untagged := wput(t, "p1", "v"), wput(t, "refused", "v"), winc(t, "c1", 1), wput(t, "p2", "v")
	// Untagged first, then tagged, in one buffer (and the other way round in the next).
	if err := w.Write(ctx, first); err != nil {
		t.Fatal(err)
	}
	wants[first] = want{"p1", bufwriter.KindPut, nil, true}
	if err := w.WriteTagged(ctx, refused, &order{1}); err != nil {
		t.Fatal(err)
	}
	wants[refused] = want{"refused", bufwriter.KindPut, nil, false} // tag checked below
	if err := w.WriteBatchTagged(ctx, []hrpc.Mutation{inc, del, app}, []any{"inc", 42, nil}); err != nil {
		t.Fatal(err)
	}
	wants[inc] = want{"c1", bufwriter.KindIncrement, "inc", true}
	wants[del] = want{"d1", bufwriter.KindDelete, 42, true}
	wants[app] = want{"a1", bufwriter.KindAppend, nil, true}
	tagged := wput(t, "p4", "v")
	if err := w.WriteTagged(ctx, tagged, "p4"); err != nil {
		t.Fatal(err)
	}
	wants[tagged] = want{"p4", bufwriter.KindPut, "p4", true}
	if err := w.WriteBatch(ctx, []hrpc.Mutation{untagged}); err != nil {
		t.Fatal(err)
	}
	wants[untagged] = want{"p2", bufwriter.KindPut, nil, true}
	// A tags slice of another length is refused, and nothing of the batch is accepted.
	extra := wput(t, "p3", "v")
	if err := w.WriteBatchTagged(ctx, []hrpc.Mutation{extra}, []any{1, 2}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("WriteBatchTagged with 2 tags for 1 mutation: %v, want hberr.ErrBadRequest", err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if log.len() != len(wants) {
		t.Fatalf("%d outcomes, want %d", log.len(), len(wants))
	}
	for m, wt := range wants {
		o, _ := log.get(m)
		if o.Table() != "w" || string(o.Row()) != wt.row || o.Kind() != wt.kind || o.Applied() != wt.ok {
			t.Errorf("outcome of %s %q: table %q, row %q, kind %v, applied %v; want w, %q, %v, %v",
				wt.kind, wt.row, o.Table(), o.Row(), o.Kind(), o.Applied(), wt.row, wt.kind, wt.ok)
		}
		if m == refused {
			if ord, ok := o.Tag.(*order); !ok || ord.id != 1 {
				t.Errorf("tag of the refused Put: %#v, want &order{1}", o.Tag)
			}
			continue
		}
		if o.Tag != wt.tag {
			t.Errorf("tag of %s %q: %#v, want %#v", wt.kind, wt.row, o.Tag, wt.tag)
		}
	}
	if _, ok := log.get(extra); ok {
		t.Error("the refused batch's mutation got an outcome")
	}
	for k, name := range map[bufwriter.Kind]string{bufwriter.KindPut: "Put", bufwriter.KindDelete: "Delete",
		bufwriter.KindAppend: "Append", bufwriter.KindIncrement: "Increment", 0: ""} {
		if k.String() != name {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), name)
		}
	}
	var zero bufwriter.Outcome
	if zero.Table() != "" || zero.Row() != nil || zero.Kind() != 0 {
		t.Errorf("zero Outcome: %q %q %v, want nothing", zero.Table(), zero.Row(), zero.Kind())
	}
}

// TestWriterTaggedWithoutCallback: tagged writes to a writer without WithOnOutcome, over
// several flushes: Flush returns the failure as for untagged ones.
func TestWriterTaggedWithoutCallback(t *testing.T) {
	srv, c := writerServer(t)
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Row: []byte("r13")}, fakehbase.DoNotRetry, "refused", 0); err != nil {
		t.Fatal(err)
	}
	w, err := bufwriter.New(c, "w", bufwriter.WithFlushCount(5))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 20 {
		if err := w.WriteTagged(ctx, wput(t, fmt.Sprintf("r%d", i), "v"), i); err != nil {
			t.Fatal(err)
		}
	}
	err = w.Flush(ctx)
	if op, ok := errors.AsType[*hberr.OpError](err); !ok || string(op.Row) != "r13" {
		t.Errorf("Flush: %v, want the failure of r13", err)
	}
	if st := w.Stats(); st.HeldBytes != 0 || st.Applied != 19 || st.Failed != 1 {
		t.Errorf("stats %+v, want 19 applied, 1 failed, nothing held", st)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
