package conformance

import (
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
)

// batch sends calls in one SendBatch and records each one's outcome, in call order.
func (e *env) batch(label string, calls ...hrpc.Batchable) {
	for i, r := range e.c.SendBatch(e.ctx, calls) {
		if r.Err != nil {
			e.logf("%s %d: %s", label, i, errText(r.Err))
			continue
		}
		e.logf("%s %d: %s", label, i, e.result(r.Result))
	}
}

func (e *env) getCall(row string, opts ...hrpc.GetOption) hrpc.Batchable {
	g, err := hrpc.NewGet(e.tb, b(row), opts...)
	if err != nil {
		e.logf("building a get: %v", err)
	}
	return g
}

// Batches (Multi): per-action results and exceptions, across regions.
var batchCases = []kase{
	{"batch_puts_and_gets_across_regions", fams([]string{"f"}, "g", "p"), func(e *env) {
		var puts []hrpc.Batchable
		for i, r := range []string{"a", "h", "q", "z"} {
			puts = append(puts, e.putMut(r, hrpc.ValueAt(f, b("q"), uint64(i+1), b(r))).(hrpc.Batchable))
		}
		e.batch("put", puts...)
		e.batch("get", e.getCall("z"), e.getCall("a"), e.getCall("missing"), e.getCall("h", hrpc.ExistsOnly()),
			e.getCall("nothing", hrpc.ExistsOnly()))
	}},
	{"batch_bad_family_action", oneFamily, func(e *env) {
		// With the region cached, the batch is one region action, whose Puts HBase applies
		// after its Gets: the Get of r1 does not see the Put of r1 before it.
		e.get("warm the region cache", "r0")
		e.batch("mixed",
			e.putMut("r1", hrpc.ValueAt(f, b("q"), 1, b("ok"))).(hrpc.Batchable),
			e.putMut("r2", hrpc.ValueAt(b("nope"), b("q"), 1, b("bad"))).(hrpc.Batchable),
			e.getCall("r1", hrpc.Families(b("nope"))),
			e.getCall("r1"))
	}},
	{"batch_mutations_of_every_kind", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("s"), 1, b("ab")), hrpc.ValueAt(f, b("d"), 1, b("x")))
		inc, _ := hrpc.NewIncrement(e.tb, b("r1"), hrpc.Amount(f, b("n"), 3))
		app, _ := hrpc.NewAppend(e.tb, b("r1"), hrpc.Value(f, b("s"), b("cd")))
		e.batch("batch", inc, app, e.delMut("r1", hrpc.DeleteColumn(f, b("d"))).(hrpc.Batchable),
			e.putMut("r2", hrpc.ValueAt(f, b("q"), 1, b("v"))).(hrpc.Batchable))
		e.get("r1", "r1")
		e.get("r2", "r2")
	}},
	{"batch_many_rows", fams([]string{"f"}, "r25", "r50", "r75"), func(e *env) {
		var calls []hrpc.Batchable
		for i := range 100 {
			calls = append(calls, e.putMut(fmt.Sprintf("r%02d", i), hrpc.ValueAt(f, b("q"), 1, b(fmt.Sprint(i)))).(hrpc.Batchable))
		}
		for i, r := range e.c.SendBatch(e.ctx, calls) {
			if r.Err != nil {
				e.logf("put %d: %s", i, errText(r.Err))
			}
		}
		var gets []hrpc.Batchable
		for i := 99; i >= 0; i -= 11 {
			gets = append(gets, e.getCall(fmt.Sprintf("r%02d", i)))
		}
		e.batch("get", gets...)
	}},
}
