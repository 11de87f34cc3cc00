package conformance

import (
	"bytes"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// Puts and Gets: timestamps, versions, columns, hostile keys, errors.
var basicCases = []kase{
	{"put_get_explicit_timestamp", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 10, "v1")
		e.put("r1", hrpc.ValueAt(f, b("b"), 20, b("v2")), hrpc.ValueAt(f, b("c"), 30, b("v3")))
		e.get("get", "r1")
	}},
	{"put_get_server_timestamp", oneFamily, func(e *env) {
		e.put("r1", hrpc.Value(f, b("a"), b("v")))
		e.get("get", "r1")
	}},
	{"put_timestamp_option", oneFamily, func(e *env) {
		e.put("r1", hrpc.Value(f, b("a"), b("v")), hrpc.Value(f, b("b"), b("w")), hrpc.Timestamp(77))
		e.get("get", "r1")
	}},
	{"get_missing_row", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 10, "v")
		e.get("missing", "r2")
		e.get("exists missing", "r2", hrpc.ExistsOnly())
		e.get("exists present", "r1", hrpc.ExistsOnly())
	}},
	{"versions_default_one", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 10, "old")
		e.putAt("r1", f, "a", 20, "new")
		e.get("get", "r1")
		e.get("get 5 versions", "r1", hrpc.MaxVersions(5))
	}},
	{"versions_family_three", threeVers, func(e *env) {
		for i, v := range []string{"v1", "v2", "v3", "v4"} {
			e.putAt("r1", f, "a", uint64(10*(i+1)), v)
		}
		e.get("get", "r1")
		e.get("get 2 versions", "r1", hrpc.MaxVersions(2))
		e.get("get 10 versions", "r1", hrpc.MaxVersions(10))
	}},
	{"versions_time_range", threeVers, func(e *env) {
		for i, v := range []string{"v1", "v2", "v3"} {
			e.putAt("r1", f, "a", uint64(10*(i+1)), v)
		}
		e.get("range [15,30)", "r1", hrpc.TimeRange(15, 30), hrpc.MaxVersions(3))
		e.get("range [10,30) latest", "r1", hrpc.TimeRange(10, 30))
		e.get("range [30,31)", "r1", hrpc.TimeRange(30, 31))
		e.get("range [0,10)", "r1", hrpc.TimeRange(0, 10))
		e.get("range [20,20)", "r1", hrpc.TimeRange(20, 20))
	}},
	{"same_timestamp_overwrites", threeVers, func(e *env) {
		e.putAt("r1", f, "a", 10, "first")
		e.putAt("r1", f, "a", 10, "second")
		e.get("get", "r1", hrpc.MaxVersions(3))
	}},
	{"get_columns_and_families", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("fa")), hrpc.ValueAt(f, b("b"), 1, b("fb")),
			hrpc.ValueAt(f, b("c"), 1, b("fc")), hrpc.ValueAt(g, b("a"), 1, b("ga")))
		e.get("all", "r1")
		e.get("f:a,c", "r1", hrpc.Columns(f, b("c"), b("a")))
		e.get("family g", "r1", hrpc.Families(g))
		e.get("g and f:b", "r1", hrpc.Families(g), hrpc.Columns(f, b("b")))
		e.get("f:zz", "r1", hrpc.Columns(f, b("zz")))
	}},
	{"families_in_byte_order", fams([]string{"b", "a", "c"}), func(e *env) {
		e.put("r1", hrpc.ValueAt(b("c"), b("q"), 1, b("c")), hrpc.ValueAt(b("a"), b("q"), 1, b("a")),
			hrpc.ValueAt(b("b"), b("q"), 1, b("b")))
		e.get("get", "r1")
	}},
	{"empty_qualifier_and_value", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, []byte{}, 5, []byte{}), hrpc.ValueAt(f, b("q"), 5, []byte{}))
		e.get("get", "r1")
		e.get("empty qualifier only", "r1", hrpc.Columns(f, []byte{}))
	}},
	{"binary_and_comma_keys", oneFamily, func(e *env) {
		rows := []string{"\x00", "\x00\x00", "\xff", "\xff\xff", ",", "a,b,c", ",,", "a\x00b", "\x7f"}
		for _, r := range rows {
			e.putAt(r, f, "q\x00\xff", 3, r+"!")
		}
		for _, r := range rows {
			e.get("get "+r, r)
		}
		e.scan("scan")
		e.scan("scan reversed", hrpc.Reversed())
	}},
	{"long_row_and_qualifier", oneFamily, func(e *env) {
		// The longest row, before its region is cached: the hbase:meta lookup key
		// ("table,row,99999999999999") would be longer than a row may be, so the client cuts
		// it to fit.
		long := strings.Repeat("r", 32767)
		e.putAt(long, f, "q", 1, "v")
		e.get("get the longest", long)
		row := strings.Repeat("r", 32000)
		qual := strings.Repeat("q", 70000)
		e.putAt(row, f, qual, 1, "v")
		e.get("get", row)
	}},
	{"large_values", oneFamily, func(e *env) {
		big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
		e.put("r1", hrpc.ValueAt(f, b("big"), 1, big))
		e.get("get 1 MiB", "r1")
		huge := bytes.Repeat([]byte("x"), 11<<20)
		e.put("r2", hrpc.ValueAt(f, b("huge"), 1, huge))
		e.get("get refused", "r2")
	}},
	{"wrong_family", oneFamily, func(e *env) {
		e.put("r1", hrpc.ValueAt(b("nope"), b("q"), 1, b("v")))
		e.putAt("r1", f, "q", 1, "v")
		e.get("get family", "r1", hrpc.Families(b("nope")))
		e.get("get column", "r1", hrpc.Columns(b("nope"), b("q")))
		e.scan("scan", hrpc.Families(b("nope")))
		e.del("r1", hrpc.DeleteFamily(b("nope")))
		e.get("after", "r1")
	}},
	{"wrong_table", nil, func(e *env) {
		e.tb = "conf_no_such_table"
		e.put("r1", hrpc.ValueAt(f, b("q"), 1, b("v")))
		e.get("get", "r1")
		e.scan("scan")
	}},
	{"store_limit_and_offset", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 1, b("1")), hrpc.ValueAt(f, b("b"), 1, b("2")),
			hrpc.ValueAt(f, b("c"), 1, b("3")), hrpc.ValueAt(g, b("a"), 1, b("4")), hrpc.ValueAt(g, b("b"), 1, b("5")))
		e.get("limit 1", "r1", hrpc.MaxResultsPerColumnFamily(1))
		e.get("offset 1", "r1", hrpc.ResultOffsetPerColumnFamily(1))
		e.get("limit 1 offset 1", "r1", hrpc.MaxResultsPerColumnFamily(1), hrpc.ResultOffsetPerColumnFamily(1))
		e.scan("scan limit 2", hrpc.MaxResultsPerColumnFamily(2))
	}},
}
