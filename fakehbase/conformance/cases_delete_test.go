package conformance

import "github.com/go-hbase/hbase/hrpc"

// Deletes of every kind, with HBase's delete-marker semantics: a marker masks the puts at or
// before its timestamp, written before it or after.
var deleteCases = []kase{
	{"delete_row", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("1")), hrpc.ValueAt(g, b("b"), 10, b("2")))
		e.putAt("r2", f, "a", 10, "keep")
		e.del("r1")
		e.get("r1", "r1")
		e.get("r2", "r2")
		e.putAt("r1", f, "a", 20, "older than now")
		e.get("r1 after an old put", "r1")
	}},
	{"delete_row_at_timestamp", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("1")), hrpc.ValueAt(f, b("a"), 30, b("3")),
			hrpc.ValueAt(g, b("b"), 20, b("2")))
		e.del("r1", hrpc.Timestamp(20))
		e.get("get", "r1")
		e.putAt("r1", g, "b", 15, "masked")
		e.putAt("r1", g, "b", 25, "visible")
		e.get("after puts", "r1")
	}},
	{"delete_family", twoFamilies, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("1")), hrpc.ValueAt(f, b("b"), 10, b("2")), hrpc.ValueAt(g, b("a"), 10, b("3")))
		e.del("r1", hrpc.DeleteFamily(f))
		e.get("get", "r1")
	}},
	{"delete_family_at_timestamp", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("1")), hrpc.ValueAt(f, b("a"), 20, b("2")), hrpc.ValueAt(f, b("b"), 30, b("3")))
		e.del("r1", hrpc.DeleteFamily(f), hrpc.Timestamp(20))
		e.get("get", "r1", hrpc.MaxVersions(3))
	}},
	{"delete_family_version", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")),
			hrpc.ValueAt(f, b("b"), 20, b("b20")), hrpc.ValueAt(f, b("c"), 30, b("c30")))
		e.del("r1", hrpc.DeleteFamilyVersion(f, 20))
		e.get("get", "r1", hrpc.MaxVersions(3))
	}},
	{"delete_column_all_versions", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")), hrpc.ValueAt(f, b("b"), 20, b("b20")))
		e.del("r1", hrpc.DeleteColumn(f, b("a")))
		e.get("get", "r1", hrpc.MaxVersions(3))
	}},
	{"delete_column_up_to_timestamp", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")), hrpc.ValueAt(f, b("a"), 30, b("a30")))
		e.del("r1", hrpc.DeleteColumn(f, b("a")), hrpc.Timestamp(20))
		e.get("get", "r1", hrpc.MaxVersions(3))
	}},
	{"delete_one_version", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")), hrpc.ValueAt(f, b("a"), 30, b("a30")))
		e.del("r1", hrpc.DeleteColumnVersion(f, b("a"), 20))
		e.get("get", "r1", hrpc.MaxVersions(3))
		e.del("r1", hrpc.DeleteColumnVersion(f, b("a"), 25))
		e.get("no such version", "r1", hrpc.MaxVersions(3))
	}},
	{"delete_latest_version", threeVers, func(e *env) {
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")), hrpc.ValueAt(f, b("a"), 30, b("a30")))
		e.del("r1", hrpc.DeleteLatestVersion(f, b("a")))
		e.get("get", "r1", hrpc.MaxVersions(3))
		e.del("r1", hrpc.DeleteLatestVersion(f, b("a")), hrpc.DeleteLatestVersion(f, b("a")))
		e.get("two more", "r1", hrpc.MaxVersions(3))
	}},
	{"delete_latest_version_one_kept", oneFamily, func(e *env) {
		// The older version comes back: a family keeping one version still holds the older
		// one until a flush drops it (no flush happens here).
		e.putAt("r1", f, "a", 10, "old")
		e.putAt("r1", f, "a", 20, "new")
		e.del("r1", hrpc.DeleteLatestVersion(f, b("a")))
		e.get("get", "r1")
	}},
	{"delete_latest_version_after_flush", oneFamily, func(e *env) {
		// A flush writes the newest version only: deleting it leaves nothing.
		e.putAt("r1", f, "a", 10, "old")
		e.putAt("r1", f, "a", 20, "new")
		e.errf("flush", e.admin.FlushTable(e.ctx, e.table))
		e.del("r1", hrpc.DeleteLatestVersion(f, b("a")))
		e.get("get", "r1")
		e.putAt("r1", f, "b", 10, "old")
		e.errf("flush again", e.admin.FlushTable(e.ctx, e.table))
		e.putAt("r1", f, "b", 20, "new")
		e.del("r1", hrpc.DeleteLatestVersion(f, b("b")))
		e.get("the flushed version comes back", "r1")
	}},
	{"delete_marker_masks_later_puts", oneFamily, func(e *env) {
		e.putAt("r1", f, "a", 100, "v")
		e.del("r1", hrpc.DeleteColumn(f, b("a")), hrpc.Timestamp(100))
		e.putAt("r1", f, "a", 50, "older, written later")
		e.get("masked", "r1")
		e.putAt("r1", f, "a", 150, "newer")
		e.get("newer", "r1")
		e.del("r1", hrpc.DeleteColumnVersion(f, b("a"), 150))
		e.putAt("r1", f, "a", 150, "same version again")
		e.get("version marker masks a rewrite", "r1")
	}},
	{"delete_missing_row", oneFamily, func(e *env) {
		e.del("nothing")
		e.get("get", "nothing")
		e.putAt("nothing", f, "a", 5, "old timestamp")
		e.get("put after", "nothing")
	}},
	{"delete_in_split_table", splitAtM, func(e *env) {
		for _, r := range []string{"a", "m", "z"} {
			e.putAt(r, f, "q", 1, r)
		}
		e.del("m")
		e.scan("scan")
	}},
}
