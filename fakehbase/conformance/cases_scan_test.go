package conformance

import (
	"fmt"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// rows writes rows with one cell f:q = the row, at timestamp 1.
func (e *env) rows(rows ...string) {
	for _, r := range rows {
		e.putAt(r, f, "q", 1, r)
	}
}

var alphabet = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}

// threeRegions splits at c and g: regions [,c) [c,g) [g,).
var threeRegions = fams([]string{"f", "g"}, "c", "g")

// Scans: ranges in both directions across regions, limits, caching, batches, columns, time.
var scanCases = []kase{
	{"scan_forward_and_reversed", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("forward")
		e.scan("reversed", hrpc.Reversed())
	}},
	{"scan_start_stop", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("[b,h)", hrpc.StartRow(b("b")), hrpc.StopRow(b("h")))
		e.scan("[c,g)", hrpc.StartRow(b("c")), hrpc.StopRow(b("g")))
		e.scan("[bb,gg)", hrpc.StartRow(b("bb")), hrpc.StopRow(b("gg")))
		e.scan("[h,)", hrpc.StartRow(b("h")))
		e.scan("[,c)", hrpc.StopRow(b("c")))
		e.scan("[z,)", hrpc.StartRow(b("z")))
		e.scan("[d,d)", hrpc.StartRow(b("d")), hrpc.StopRow(b("d")))
	}},
	{"scan_reversed_start_stop", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("h down to b", hrpc.Reversed(), hrpc.StartRow(b("h")), hrpc.StopRow(b("b")))
		e.scan("g down to c", hrpc.Reversed(), hrpc.StartRow(b("g")), hrpc.StopRow(b("c")))
		e.scan("gg down to bb", hrpc.Reversed(), hrpc.StartRow(b("gg")), hrpc.StopRow(b("bb")))
		e.scan("c down", hrpc.Reversed(), hrpc.StartRow(b("c")))
		e.scan("down to h", hrpc.Reversed(), hrpc.StopRow(b("h")))
		e.scan("zz down", hrpc.Reversed(), hrpc.StartRow(b("zz")))
	}},
	{"scan_prefix_across_split", fams([]string{"f"}, "ab5"), func(e *env) {
		e.rows("a", "ab", "ab1", "ab5", "ab9", "abc", "ac", "b")
		e.scan("prefix ab", hrpc.Prefix(b("ab")))
		e.scan("prefix ab reversed", hrpc.Prefix(b("ab")), hrpc.Reversed())
		e.scan("prefix \\xff", hrpc.Prefix([]byte{0xff}))
	}},
	{"scan_limit", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("limit 4", hrpc.Limit(4))
		e.scan("limit 4 reversed", hrpc.Limit(4), hrpc.Reversed())
		e.scan("limit 1 caching 1", hrpc.Limit(1), hrpc.NumberOfRows(1))
		e.scan("limit 20", hrpc.Limit(20))
	}},
	{"scan_caching_one", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.scan("caching 1", hrpc.NumberOfRows(1))
		e.scan("caching 2 reversed", hrpc.NumberOfRows(2), hrpc.Reversed())
	}},
	{"scan_batch_size", twoFamilies, func(e *env) {
		var opts []hrpc.PutOption
		for i := range 5 {
			opts = append(opts, hrpc.ValueAt(f, b(fmt.Sprint(i)), 1, b("f")), hrpc.ValueAt(g, b(fmt.Sprint(i)), 1, b("g")))
		}
		e.put("r1", opts...)
		e.put("r2", hrpc.ValueAt(f, b("only"), 1, b("x")))
		e.put("r3", opts...)
		e.scan("batch 3", hrpc.BatchSize(3))
		e.scan("batch 4 caching 1", hrpc.BatchSize(4), hrpc.NumberOfRows(1))
		e.scan("batch 10", hrpc.BatchSize(10))
	}},
	{"scan_columns", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("1")), hrpc.ValueAt(f, b("b"), 1, b("2")), hrpc.ValueAt(g, b("a"), 1, b("3")))
		e.put("r2", hrpc.ValueAt(g, b("b"), 1, b("4")))
		e.put("r3", hrpc.ValueAt(f, b("b"), 1, b("5")))
		e.scan("family f", hrpc.Families(f))
		e.scan("f:b", hrpc.Columns(f, b("b")))
		e.scan("g and f:a", hrpc.Families(g), hrpc.Columns(f, b("a")))
	}},
	{"scan_versions_and_time", &layout{families: []famSpec{{name: "f", versions: 3}}, splits: []string{"r2"}}, func(e *env) {
		for _, r := range []string{"r1", "r2", "r3"} {
			for ts := uint64(10); ts <= 40; ts += 10 {
				e.putAt(r, f, "q", ts, fmt.Sprint(r, "@", ts))
			}
		}
		e.scan("latest")
		e.scan("all versions", hrpc.MaxVersions(10))
		e.scan("[15,35) two versions", hrpc.TimeRange(15, 35), hrpc.MaxVersions(2))
		e.scan("[0,10)", hrpc.TimeRange(0, 10))
	}},
	{"scan_empty_table", threeRegions, func(e *env) {
		e.scan("forward")
		e.scan("reversed", hrpc.Reversed())
		e.scan("limit", hrpc.Limit(1))
	}},
	{"scan_deleted_rows", threeRegions, func(e *env) {
		e.rows(alphabet...)
		for _, r := range []string{"a", "c", "d", "j"} {
			e.del(r)
		}
		e.scan("forward")
		e.scan("reversed caching 1", hrpc.Reversed(), hrpc.NumberOfRows(1))
	}},
	{"scan_sees_later_writes_between_rpcs", oneFamily, func(e *env) {
		// Caching 1: the scanner's later RPCs read as of its first one.
		e.rows("a", "b", "c")
		s, err := hrpc.NewScan(e.tb, hrpc.NumberOfRows(1))
		if err != nil {
			e.logf("building: %v", err)
			return
		}
		first := true
		for res, err := range e.c.Scan(e.ctx, s) {
			if err != nil {
				e.logf("scan: %s", errText(err))
				break
			}
			e.logf("row: %s", e.result(res))
			if first {
				first = false
				e.putAt("b", f, "q", 2, "b2")
				e.putAt("bb", f, "q", 2, "bb")
				e.del("c")
			}
		}
		e.scan("after")
	}},
	{"scan_metrics", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.del("c")
		e.putAt("e", g, "only", 1, "g")
		e.del("e", hrpc.DeleteFamily(f))
		s, err := hrpc.NewScan(e.tb, hrpc.TrackScanMetrics(), hrpc.Families(f),
			hrpc.WithFilter(hrpc.RowFilter{Op: hrpc.Equal, Comparator: hrpc.RegexStringComparator{Pattern: "^[a-f]"}}))
		if err != nil {
			e.logf("building: %v", err)
			return
		}
		sc := e.c.NewScanner(e.ctx, s)
		n := 0
		for sc.Next() {
			n++
		}
		m := sc.Metrics()
		e.logf("rows %d, err %s, regions %d, rows scanned %d, rows filtered %d", n, errText(sc.Err()), m.Regions, m.RowsScanned, m.RowsFiltered)
		sc.Close()
	}},
	{"scan_small_result_size", twoFamilies, func(e *env) {
		// A size limit smaller than a row: HBase returns rows in pieces, the client puts
		// them together again.
		for _, r := range []string{"a", "b", "c"} {
			e.put(r, hrpc.ValueAt(f, b("1"), 1, b(r+"1")), hrpc.ValueAt(f, b("2"), 1, b(r+"2")), hrpc.ValueAt(g, b("3"), 1, b(r+"3")))
		}
		e.scan("max result size 1", hrpc.MaxResultSize(1))
		e.scan("max result size 1, reversed, limit 2", hrpc.MaxResultSize(1), hrpc.Reversed(), hrpc.Limit(2))
	}},
	{"scan_ttl", &layout{families: []famSpec{{name: "f", ttl: 24 * time.Hour}}}, func(e *env) {
		e.putAt("old", f, "q", 1000, "expired")
		e.put("new", hrpc.Value(f, b("q"), b("fresh")))
		e.put("mixed", hrpc.Value(f, b("q"), b("fresh")), hrpc.ValueAt(f, b("r"), 1000, b("expired")))
		e.scan("scan")
		e.get("get old", "old")
	}},
	{"region_moves", threeRegions, func(e *env) {
		e.rows(alphabet...)
		e.putAt("d", f, "q", 0, "older, dropped by the flush of the move")
		e.move("d")
		e.get("get d", "d", hrpc.MaxVersions(5))
		e.del("d", hrpc.DeleteLatestVersion(f, b("q")))
		e.get("get d after deleting its latest version", "d")
		s, err := hrpc.NewScan(e.tb, hrpc.NumberOfRows(1))
		if err != nil {
			e.logf("building: %v", err)
			return
		}
		n := 0
		for res, err := range e.c.Scan(e.ctx, s) {
			if err != nil {
				e.logf("scan: %s", errText(err))
				break
			}
			if n++; n == 2 {
				e.move("b") // the region being scanned
				e.move("h") // one to come
			}
			e.logf("row: %s", e.result(res))
		}
		e.putAt("h", f, "q", 2, "after the moves")
		e.get("get h", "h")
	}},
}
