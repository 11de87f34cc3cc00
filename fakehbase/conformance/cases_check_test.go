package conformance

import (
	"github.com/go-hbase/hbase/hrpc"
)

func (e *env) putMut(row string, opts ...hrpc.PutOption) hrpc.Mutation {
	p, err := hrpc.NewPut(e.tb, b(row), opts...)
	if err != nil {
		e.logf("building a put: %v", err)
	}
	return p
}

func (e *env) delMut(row string, opts ...hrpc.DeleteOption) hrpc.Mutation {
	d, err := hrpc.NewDelete(e.tb, b(row), opts...)
	if err != nil {
		e.logf("building a delete: %v", err)
	}
	return d
}

// cam records whether a CheckAndMutate applied.
func (e *env) cam(label string, cond hrpc.Condition, m hrpc.Mutation) {
	c, err := hrpc.NewCheckAndMutate(cond, m)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	ok, err := e.c.CheckAndMutate(e.ctx, c)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: applied=%v", label, ok)
}

func (e *env) camRow(label string, cond hrpc.Condition, ms ...hrpc.Mutation) {
	rm, err := hrpc.NewRowMutations(ms)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	c, err := hrpc.NewCheckAndMutateRow(cond, rm)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	ok, err := e.c.CheckAndMutate(e.ctx, c)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: applied=%v", label, ok)
}

func (e *env) mutateRow(label string, ms ...hrpc.Mutation) {
	rm, err := hrpc.NewRowMutations(ms)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	e.errf(label, e.c.MutateRow(e.ctx, rm))
}

// CheckAndMutate (value conditions with every compare op, absent columns, filters, time
// ranges) and MutateRow.
var checkCases = []kase{
	{"check_if_not_exists", oneFamily, func(e *env) {
		e.cam("first", hrpc.IfNotExists(f, b("a")), e.putMut("r1", hrpc.ValueAt(f, b("a"), 1, b("one"))))
		e.cam("second", hrpc.IfNotExists(f, b("a")), e.putMut("r1", hrpc.ValueAt(f, b("a"), 2, b("two"))))
		e.get("get", "r1")
	}},
	{"check_value_equal", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 1, "x")
		e.cam("equal y", hrpc.IfValue(f, b("a"), hrpc.Equal, b("y")), e.putMut("r1", hrpc.ValueAt(f, b("b"), 1, b("1"))))
		e.cam("equal x", hrpc.IfValue(f, b("a"), hrpc.Equal, b("x")), e.putMut("r1", hrpc.ValueAt(f, b("b"), 1, b("2"))))
		e.get("get", "r1")
	}},
	{"check_compare_ops", oneFamily, func(e *env) {
		// The cell holds "m"; each op is tried with a smaller, an equal and a larger value.
		e.putAt("r1", f, "a", 1, "m")
		ops := []struct {
			name string
			op   hrpc.CompareOp
		}{{"less", hrpc.Less}, {"less_or_equal", hrpc.LessOrEqual}, {"equal", hrpc.Equal},
			{"not_equal", hrpc.NotEqual}, {"greater_or_equal", hrpc.GreaterOrEqual}, {"greater", hrpc.Greater}}
		for _, o := range ops {
			for _, v := range []string{"a", "m", "z"} {
				e.cam(o.name+" "+v, hrpc.IfValue(f, b("a"), o.op, b(v)),
					e.putMut("r1", hrpc.ValueAt(f, b(o.name+"_"+v), 1, b("1"))))
			}
		}
		e.get("get", "r1")
	}},
	{"check_absent_column", oneFamily, func(e *env) {
		e.putAt("r1", f, "empty", 1, "")
		e.cam("absent equal x", hrpc.IfValue(f, b("none"), hrpc.Equal, b("x")), e.putMut("r1", hrpc.ValueAt(f, b("1"), 1, b("1"))))
		e.cam("absent not_equal x", hrpc.IfValue(f, b("none"), hrpc.NotEqual, b("x")), e.putMut("r1", hrpc.ValueAt(f, b("2"), 1, b("1"))))
		e.cam("absent not_equal empty", hrpc.IfValue(f, b("none"), hrpc.NotEqual, nil), e.putMut("r1", hrpc.ValueAt(f, b("3"), 1, b("1"))))
		e.cam("empty value equal empty", hrpc.IfValue(f, b("empty"), hrpc.Equal, nil), e.putMut("r1", hrpc.ValueAt(f, b("4"), 1, b("1"))))
		e.cam("empty value not_equal empty", hrpc.IfValue(f, b("empty"), hrpc.NotEqual, nil), e.putMut("r1", hrpc.ValueAt(f, b("5"), 1, b("1"))))
		e.cam("empty value greater empty", hrpc.IfValue(f, b("empty"), hrpc.Greater, nil), e.putMut("r1", hrpc.ValueAt(f, b("6"), 1, b("1"))))
		e.get("get", "r1")
	}},
	{"check_and_delete", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("x")), hrpc.ValueAt(f, b("b"), 1, b("y")))
		e.cam("no", hrpc.IfValue(f, b("a"), hrpc.Equal, b("z")), e.delMut("r1", hrpc.DeleteColumn(f, b("b"))))
		e.cam("yes", hrpc.IfValue(f, b("a"), hrpc.Equal, b("x")), e.delMut("r1", hrpc.DeleteColumn(f, b("b"))))
		e.get("get", "r1")
	}},
	{"check_put_timestamp_after_checked_cell", oneFamily, func(e *env) {
		// A Put without a timestamp is stamped no earlier than the cell the condition read.
		e.putAt("r1", f, "a", future, "x")
		e.cam("cas", hrpc.IfValue(f, b("a"), hrpc.Equal, b("x")), e.putMut("r1", hrpc.Value(f, b("a"), b("y")), hrpc.Value(f, b("b"), b("z"))))
		e.get("get", "r1")
	}},
	{"check_in_time_range", threeVers, func(e *env) {
		e.putAt("r1", f, "a", 10, "old")
		e.putAt("r1", f, "a", 20, "new")
		e.cam("old in [0,15)", hrpc.IfValue(f, b("a"), hrpc.Equal, b("old")).InTimeRange(0, 15), e.putMut("r1", hrpc.ValueAt(f, b("x"), 1, b("1"))))
		e.cam("old in [0,30)", hrpc.IfValue(f, b("a"), hrpc.Equal, b("old")).InTimeRange(0, 30), e.putMut("r1", hrpc.ValueAt(f, b("y"), 1, b("1"))))
		e.cam("absent in [30,40)", hrpc.IfNotExists(f, b("a")).InTimeRange(30, 40), e.putMut("r1", hrpc.ValueAt(f, b("z"), 1, b("1"))))
		e.get("get", "r1", hrpc.Columns(f, b("x"), b("y"), b("z")))
	}},
	{"check_filter_condition", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("10")), hrpc.ValueAt(f, b("b"), 1, b("20")))
		e.cam("value 20 exists", hrpc.IfFilter(hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: b("20")}}),
			e.putMut("r1", hrpc.ValueAt(f, b("c"), 1, b("yes"))))
		e.cam("value 30 exists", hrpc.IfFilter(hrpc.ValueFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: b("30")}}),
			e.putMut("r1", hrpc.ValueAt(f, b("d"), 1, b("no"))))
		e.get("get", "r1")
	}},
	{"check_wrong_family", oneFamily, func(e *env) {
		e.cam("condition", hrpc.IfNotExists(b("nope"), b("a")), e.putMut("r1", hrpc.ValueAt(f, b("a"), 1, b("1"))))
		e.cam("mutation", hrpc.IfNotExists(f, b("a")), e.putMut("r1", hrpc.ValueAt(b("nope"), b("a"), 1, b("1"))))
		e.get("get", "r1")
	}},
	{"check_and_mutate_row", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 1, "x")
		e.putAt("r1", f, "gone", 1, "x")
		e.camRow("no", hrpc.IfValue(f, b("a"), hrpc.Equal, b("q")),
			e.putMut("r1", hrpc.ValueAt(f, b("b"), 1, b("1"))), e.delMut("r1", hrpc.DeleteColumn(f, b("gone"))))
		e.camRow("yes", hrpc.IfValue(f, b("a"), hrpc.Equal, b("x")),
			e.putMut("r1", hrpc.ValueAt(f, b("b"), 1, b("1"))), e.delMut("r1", hrpc.DeleteColumn(f, b("gone"))))
		e.get("get", "r1")
	}},
	{"mutate_row", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("old"), 1, b("x")))
		e.mutateRow("mutate", e.putMut("r1", hrpc.ValueAt(f, b("a"), 1, b("1")), hrpc.ValueAt(g, b("b"), 1, b("2"))),
			e.delMut("r1", hrpc.DeleteColumn(f, b("old"))))
		e.get("get", "r1")
	}},
	{"mutate_row_refused_whole", oneFamily, func(e *env) {
		e.mutateRow("mutate", e.putMut("r1", hrpc.ValueAt(f, b("a"), 1, b("1"))),
			e.putMut("r1", hrpc.ValueAt(b("nope"), b("b"), 1, b("2"))))
		e.get("get", "r1")
	}},
	{"mutate_row_with_increment", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("n"), 1, long(1)))
		inc, err := hrpc.NewIncrement(e.tb, b("r1"), hrpc.Amount(f, b("n"), 10))
		if err != nil {
			e.logf("building: %v", err)
			return
		}
		e.mutateRow("mutate", inc, e.putMut("r1", hrpc.ValueAt(f, b("p"), 1, b("1"))))
		e.get("get", "r1")
	}},
	{"check_and_increment", oneFamily, func(e *env) {
		e.putAt("r1", f, "state", 1, "open")
		inc, err := hrpc.NewIncrement(e.tb, b("r1"), hrpc.Amount(f, b("n"), 5))
		if err != nil {
			e.logf("building: %v", err)
			return
		}
		e.cam("open", hrpc.IfValue(f, b("state"), hrpc.Equal, b("open")), inc)
		e.cam("closed", hrpc.IfValue(f, b("state"), hrpc.Equal, b("closed")), inc)
		app, _ := hrpc.NewAppend(e.tb, b("r1"), hrpc.Value(f, b("log"), b("x")))
		e.cam("append", hrpc.IfNotExists(f, b("log")), app)
		e.get("get", "r1", hrpc.Columns(f, b("n"), b("log")))
	}},
}
