package conformance

import (
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
)

// Seeding and reading on the server side (fakehbase's Put, PutAt, Get, Rows; on HBase a
// client's Put, Get and Scan): a seeded cell is what a client's Put writes, and the server
// reads what a client's Get and Scan return.
var seedCases = []kase{
	{"seed_then_client_reads", twoFamilies, func(e *env) {
		e.seed("r1", "f", "a", 0, "now")
		e.seed("r1", "g", "b", 10, "at10")
		e.seed("r2", "f", "a", 20, "other row")
		e.get("get r1", "r1")
		e.get("get r1 g", "r1", hrpc.Families(g))
		e.scan("scan")
	}},
	{"seed_versions", threeVers, func(e *env) {
		for i, v := range []string{"v1", "v2", "v3", "v4"} {
			e.seed("r1", "f", "a", uint64(10*(i+1)), v)
		}
		e.seed("r1", "f", "a", 20, "v2 again")
		e.get("get 10 versions", "r1", hrpc.MaxVersions(10))
		e.peek("server get", "r1", "f", "a")
	}},
	{"seed_across_regions", splitAtM, func(e *env) {
		for _, row := range []string{"z", "a", "m", "l"} {
			e.seed(row, "f", "q", 10, "v"+row)
		}
		e.scan("scan")
		e.scan("reversed", hrpc.Reversed())
		e.serverRows("server rows")
	}},
	{"seed_masked_by_delete", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 10, "old")
		e.del("r1", hrpc.Timestamp(15))
		e.seed("r1", "f", "a", 12, "masked")
		e.seed("r1", "f", "b", 20, "visible")
		e.get("get", "r1")
		e.peek("server get a", "r1", "f", "a")
		e.peek("server get b", "r1", "f", "b")
	}},
	{"server_reads_client_writes", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("old")), hrpc.ValueAt(f, b("a"), 20, b("new")),
			hrpc.ValueAt(g, b("c"), 10, b("other family")))
		e.put("r2", hrpc.Value(f, b("a"), b("now")))
		e.del("r2", hrpc.DeleteColumn(f, b("a")))
		e.put("r3", hrpc.ValueAt(f, b("a"), 10, b("kept")), hrpc.ValueAt(f, b("b"), 10, b("gone")))
		e.del("r3", hrpc.DeleteColumn(f, b("b")))
		e.peek("server get r1", "r1", "f", "a")
		e.peek("server get r2", "r2", "f", "a")
		e.peek("server get missing", "r9", "f", "a")
		e.serverRows("server rows")
	}},
}

// seed writes a cell on the server side; only a failure is recorded.
func (e *env) seed(row, family, qualifier string, ts uint64, value string) {
	if err := e.srv.put(e.ctx, e.table, row, family, qualifier, ts, value); err != nil {
		e.logf("seed %s: %s", show(b(row)), errText(err))
	}
}

// peek records a server-side read of one column.
func (e *env) peek(label, row, family, qualifier string) {
	v, ok, err := e.srv.get(e.ctx, e.table, row, family, qualifier)
	switch {
	case err != nil:
		e.logf("%s: %s", label, errText(err))
	case !ok:
		e.logf("%s: (none)", label)
	default:
		e.logf("%s: %s", label, show(b(v)))
	}
}

// serverRows records the table's rows as the server side reads them.
func (e *env) serverRows(label string) {
	rows, err := e.srv.rows(e.ctx, e.table)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: %s", label, fmt.Sprint(len(rows)))
	for _, r := range rows {
		e.out = append(e.out, "  "+e.result(r))
	}
}
