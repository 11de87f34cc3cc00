package conformance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// describe records a table's descriptor: its families' settings and attributes.
func (e *env) describe(label, table string) {
	d, err := e.admin.DescribeTable(e.ctx, table)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: table %s attributes %s", label, d.Name, showMap(d.Attributes))
	for _, fd := range d.Families {
		e.logf("  family %s versions=%d min=%d ttl=%v compression=%s bloom=%s blocksize=%d inmemory=%v encoding=%s blockcache=%v keepdeleted=%s scope=%d attributes %s",
			fd.Name, fd.MaxVersions, fd.MinVersions, fd.TTL, fd.Compression, fd.BloomFilter, fd.BlockSize,
			fd.InMemory, fd.Encoding, fd.BlockCache, fd.KeepDeletedCells, fd.ReplicationScope, showMap(fd.Attributes))
	}
}

func showMap(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// listTables records the tables of a listing, keeping those of this run (conf_ and the
// cases' namespaces) only: the cluster holds other tables.
func (e *env) listTables(label string, opts ...hrpc.ListTablesOption) {
	tables, err := e.admin.ListTables(e.ctx, opts...)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	var mine []string
	for _, t := range tables {
		if strings.Contains(t, "cadm") {
			mine = append(mine, t)
		}
	}
	e.logf("%s: %v", label, mine)
}

func (e *env) regions(label, table string) {
	rs, err := e.admin.Regions(e.ctx, table)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("[%q,%q)", r.Start, r.End))
	}
	e.logf("%s: %s", label, strings.Join(parts, " "))
}

func (e *env) create(label string, d *hrpc.TableDescriptor, opts ...hrpc.CreateTableOption) {
	e.errf(label, e.admin.CreateTable(e.ctx, d, opts...))
}

func desc(name string, opts ...hrpc.TableOption) *hrpc.TableDescriptor {
	d, err := hrpc.NewTableDescriptor(name, opts...)
	if err != nil {
		panic(err) // a case's own constant descriptor: a bug in the case
	}
	return d
}

// Admin calls a service uses: create (with splits and family settings), describe, list,
// disable, enable, delete, truncate, namespaces, families.
var adminCases = []kase{
	{"admin_create_describe", nil, func(e *env) {
		e.create("create", desc("cadm_describe",
			hrpc.WithFamily("o", hrpc.Versions(3), hrpc.TTL(30*24*time.Hour), hrpc.Compress(hrpc.CompressionGZ)),
			hrpc.WithFamily("audit", hrpc.BlockEncoding(hrpc.EncodingFastDiff), hrpc.InMemory(true), hrpc.Bloom(hrpc.BloomRowCol),
				hrpc.BlockSize(8192), hrpc.FamilyAttribute("custom", "x"))),
			hrpc.SplitKeys(b("m")))
		e.describe("describe", "cadm_describe")
		e.regions("regions", "cadm_describe")
		e.create("again", desc("cadm_describe", hrpc.WithFamily("o")))
		e.describe("missing", "cadm_nothing")
	}},
	{"admin_list_tables", nil, func(e *env) {
		for _, n := range []string{"cadm_list_b", "cadm_list_a", "cadm_other"} {
			e.create("create "+n, desc(n, hrpc.WithFamily("f")))
		}
		e.listTables("all")
		e.listTables("regex cadm_list_.*", hrpc.TableRegex("cadm_list_.*"))
		e.listTables("regex default:cadm_other", hrpc.TableRegex("default:cadm_other"))
		e.listTables("regex partial list", hrpc.TableRegex("list"))
		e.listTables("namespace default", hrpc.InNamespace("default"))
		e.listTables("namespace missing", hrpc.InNamespace("cadm_nons"))
	}},
	{"admin_disable_enable", nil, func(e *env) {
		e.create("create", desc("cadm_toggle", hrpc.WithFamily("f")), hrpc.SplitKeys(b("m")))
		e.tb = "cadm_toggle"
		e.putAt("a", f, "q", 1, "v")
		e.errf("disable", e.admin.DisableTable(e.ctx, "cadm_toggle"))
		ok, err := e.admin.TableEnabled(e.ctx, "cadm_toggle")
		e.logf("enabled: %v %s", ok, errText(err))
		ok, err = e.admin.TableDisabled(e.ctx, "cadm_toggle")
		e.logf("disabled: %v %s", ok, errText(err))
		_, err = e.admin.TableDisabled(e.ctx, "cadm_none")
		e.errf("disabled, no table", err)
		ok, err = e.admin.TableAvailable(e.ctx, "cadm_toggle")
		e.logf("available: %v %s", ok, errText(err))
		e.get("get while disabled", "a")
		e.put("z", hrpc.ValueAt(f, b("q"), 1, b("v")))
		e.scan("scan while disabled")
		e.errf("disable again", e.admin.DisableTable(e.ctx, "cadm_toggle"))
		e.errf("enable", e.admin.EnableTable(e.ctx, "cadm_toggle"))
		ok, err = e.admin.TableAvailable(e.ctx, "cadm_toggle")
		e.logf("available: %v %s", ok, errText(err))
		e.errf("enable again", e.admin.EnableTable(e.ctx, "cadm_toggle"))
		e.get("get after enable", "a")
	}},
	{"admin_delete", nil, func(e *env) {
		e.create("create", desc("cadm_delete", hrpc.WithFamily("f")))
		e.tb = "cadm_delete"
		e.putAt("a", f, "q", 1, "v")
		e.errf("delete enabled", e.admin.DeleteTable(e.ctx, "cadm_delete"))
		e.errf("disable", e.admin.DisableTable(e.ctx, "cadm_delete"))
		e.errf("delete", e.admin.DeleteTable(e.ctx, "cadm_delete"))
		exists, err := e.admin.TableExists(e.ctx, "cadm_delete")
		e.logf("exists: %v %s", exists, errText(err))
		e.get("get", "a")
		e.errf("delete again", e.admin.DeleteTable(e.ctx, "cadm_delete"))
		e.errf("disable missing", e.admin.DisableTable(e.ctx, "cadm_delete"))
		e.errf("enable missing", e.admin.EnableTable(e.ctx, "cadm_delete"))
		e.create("create again", desc("cadm_delete", hrpc.WithFamily("f")))
		e.get("get in the new table", "a")
	}},
	{"admin_truncate", nil, func(e *env) {
		e.create("create", desc("cadm_truncate", hrpc.WithFamily("f")), hrpc.SplitKeys(b("g"), b("p")))
		e.tb = "cadm_truncate"
		e.rows("a", "h", "q")
		e.errf("truncate enabled", e.admin.TruncateTable(e.ctx, "cadm_truncate", true))
		e.errf("disable", e.admin.DisableTable(e.ctx, "cadm_truncate"))
		e.errf("truncate keeping splits", e.admin.TruncateTable(e.ctx, "cadm_truncate", true))
		ok, err := e.admin.TableEnabled(e.ctx, "cadm_truncate")
		e.logf("enabled: %v %s", ok, errText(err))
		e.scan("scan")
		e.regions("regions", "cadm_truncate")
		e.errf("disable", e.admin.DisableTable(e.ctx, "cadm_truncate"))
		e.errf("truncate", e.admin.TruncateTable(e.ctx, "cadm_truncate", false))
		e.regions("regions", "cadm_truncate")
	}},
	{"admin_namespaces", nil, func(e *env) {
		e.errf("create", e.admin.CreateNamespace(e.ctx, &hrpc.NamespaceDescriptor{Name: "cadmns", Properties: map[string]string{"k": "v"}}))
		e.errf("create again", e.admin.CreateNamespace(e.ctx, &hrpc.NamespaceDescriptor{Name: "cadmns"}))
		ns, err := e.admin.DescribeNamespace(e.ctx, "cadmns")
		if err != nil {
			e.logf("describe: %s", errText(err))
		} else {
			e.logf("describe: %s %s", ns.Name, showMap(ns.Properties))
		}
		_, err = e.admin.DescribeNamespace(e.ctx, "cadm_none")
		e.errf("describe missing", err)
		all, err := e.admin.ListNamespaces(e.ctx)
		var names []string
		for _, n := range all {
			names = append(names, n.Name)
		}
		e.logf("list: %v %s", names, errText(err))
		e.create("create table", desc("cadmns:t1", hrpc.WithFamily("f")))
		e.create("create in missing", desc("cadm_none:t1", hrpc.WithFamily("f")))
		e.listTables("in namespace", hrpc.InNamespace("cadmns"))
		e.tb = "cadmns:t1"
		e.putAt("r1", f, "q", 1, "v")
		e.get("get", "r1")
		e.errf("delete not empty", e.admin.DeleteNamespace(e.ctx, "cadmns"))
		e.errf("disable", e.admin.DisableTable(e.ctx, "cadmns:t1"))
		e.errf("delete table", e.admin.DeleteTable(e.ctx, "cadmns:t1"))
		e.errf("delete", e.admin.DeleteNamespace(e.ctx, "cadmns"))
		e.errf("delete missing", e.admin.DeleteNamespace(e.ctx, "cadmns"))
		e.errf("delete default", e.admin.DeleteNamespace(e.ctx, "default"))
	}},
	{"admin_families", nil, func(e *env) {
		e.create("create", desc("cadm_families", hrpc.WithFamily("f")))
		e.tb = "cadm_families"
		e.put("r1", hrpc.ValueAt(f, b("a"), 10, b("a10")), hrpc.ValueAt(f, b("a"), 20, b("a20")))
		e.get("versions 1", "r1", hrpc.MaxVersions(3))
		fd, _ := hrpc.NewFamily("f", hrpc.Versions(3))
		e.errf("modify f", e.admin.ModifyFamily(e.ctx, "cadm_families", fd))
		e.get("versions 3", "r1", hrpc.MaxVersions(3))
		gd, _ := hrpc.NewFamily("g")
		e.errf("add g", e.admin.AddFamily(e.ctx, "cadm_families", gd))
		e.errf("add g again", e.admin.AddFamily(e.ctx, "cadm_families", gd))
		e.putAt("r1", g, "b", 1, "gb")
		e.get("get", "r1")
		e.errf("delete f", e.admin.DeleteFamily(e.ctx, "cadm_families", "f"))
		e.get("after delete f", "r1")
		e.errf("delete g, the last", e.admin.DeleteFamily(e.ctx, "cadm_families", "g"))
		e.errf("delete missing", e.admin.DeleteFamily(e.ctx, "cadm_families", "zz"))
		e.describe("describe", "cadm_families")
	}},
	{"admin_meta_regions", nil, func(e *env) {
		// A table name that sorts badly in byte order: "cadm_m" rows must not mix with
		// "cadm_m-x" rows (hbase:meta's comparator).
		e.create("create", desc("cadm_m", hrpc.WithFamily("f")), hrpc.SplitKeys(b(","), b("a,b"), b("\x00")))
		e.create("create other", desc("cadm_m-x", hrpc.WithFamily("f")), hrpc.SplitKeys(b("k")))
		e.regions("regions", "cadm_m")
		e.regions("regions other", "cadm_m-x")
		e.tb = "cadm_m"
		e.rows("\x00", "\x00\x01", ",", ",,", "a", "a,b", "a,c", "z")
		e.scan("scan")
		e.scan("reversed", hrpc.Reversed())
	}},
}
