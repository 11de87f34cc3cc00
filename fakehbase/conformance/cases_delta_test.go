package conformance

import (
	"encoding/binary"

	"github.com/go-hbase/hbase/hrpc"
)

func (e *env) increment(label, row string, opts ...hrpc.IncrementOption) {
	inc, err := hrpc.NewIncrement(e.tb, b(row), opts...)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	res, err := e.c.Increment(e.ctx, inc)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: %s", label, e.result(res))
}

func (e *env) appendTo(label, row string, opts ...hrpc.AppendOption) {
	a, err := hrpc.NewAppend(e.tb, b(row), opts...)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	res, err := e.c.Append(e.ctx, a)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: %s", label, e.result(res))
}

func long(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }

// future is a timestamp far after any clock of the run (2255), to pin timestamps the server
// derives from a cell's.
const future = 9_000_000_000_000

// Increment and Append: values, timestamps and the results they return.
var deltaCases = []kase{
	{"increment_new_and_existing", oneFamily, func(e *env) {
		e.increment("first", "r1", hrpc.Amount(f, b("n"), 5))
		e.increment("second", "r1", hrpc.Amount(f, b("n"), -7))
		e.get("get", "r1")
	}},
	{"increment_several_columns", twoFamilies, func(e *env) {
		e.increment("inc", "r1", hrpc.Amount(g, b("z"), 1), hrpc.Amount(f, b("b"), 2), hrpc.Amount(f, b("a"), 3))
		e.get("get", "r1")
	}},
	{"increment_not_a_long", oneFamily, func(e *env) {
		e.putAt("r1", f, "n", 1, "abc")
		e.increment("inc", "r1", hrpc.Amount(f, b("n"), 1))
		e.get("get", "r1")
	}},
	{"increment_after_future_cell", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("n"), future, long(40)))
		e.increment("inc", "r1", hrpc.Amount(f, b("n"), 2))
		e.get("get", "r1")
	}},
	{"increment_explicit_timestamp", oneFamily, func(e *env) {
		e.increment("new column", "r1", hrpc.Amount(f, b("n"), 1), hrpc.Timestamp(1234))
		e.increment("existing", "r1", hrpc.Amount(f, b("n"), 1), hrpc.Timestamp(1234))
		e.get("get", "r1")
	}},
	{"increment_time_range", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("n"), 10, long(100)))
		e.put("r1", hrpc.ValueAt(f, b("n"), 20, long(200)))
		e.increment("in [0,15)", "r1", hrpc.Amount(f, b("n"), 1), hrpc.TimeRange(0, 15))
		e.increment("in [0,5)", "r1", hrpc.Amount(f, b("m"), 1), hrpc.TimeRange(0, 5))
	}},
	{"increment_wrong_family", oneFamily, func(e *env) {
		e.increment("inc", "r1", hrpc.Amount(b("nope"), b("n"), 1))
	}},
	{"append_new_and_existing", oneFamily, func(e *env) {
		e.appendTo("first", "r1", hrpc.Value(f, b("s"), b("ab")))
		e.appendTo("second", "r1", hrpc.Value(f, b("s"), b("cd")), hrpc.Value(f, b("t"), b("new")))
		e.get("get", "r1")
	}},
	{"append_after_future_cell", oneFamily, func(e *env) {
		e.putAt("r1", f, "s", future, "x")
		e.appendTo("append", "r1", hrpc.Value(f, b("s"), b("y")))
		e.get("get", "r1")
	}},
	{"append_explicit_timestamp", oneFamily, func(e *env) {
		e.appendTo("new column", "r1", hrpc.Value(f, b("s"), b("a")), hrpc.Timestamp(99))
		e.get("get", "r1")
	}},
	{"append_after_delete", oneFamily, func(e *env) {
		e.putAt("r1", f, "s", 5, "gone")
		e.del("r1", hrpc.DeleteColumn(f, b("s")), hrpc.Timestamp(5))
		e.appendTo("append", "r1", hrpc.Value(f, b("s"), b("fresh")))
		e.get("get", "r1")
	}},
	{"increment_sent_twice", oneFamily, func(e *env) {
		// One request sent twice carries one nonce: the server applies it once.
		inc, err := hrpc.NewIncrement(e.tb, b("r1"), hrpc.Amount(f, b("n"), 1))
		if err != nil {
			e.logf("building: %v", err)
			return
		}
		for _, label := range []string{"first", "second"} {
			res, err := e.c.Increment(e.ctx, inc)
			if err != nil {
				e.logf("%s: %s", label, errText(err))
				continue
			}
			e.logf("%s: %s", label, e.result(res))
		}
		e.increment("a new request", "r1", hrpc.Amount(f, b("n"), 1))
		e.get("get", "r1")
	}},
}
