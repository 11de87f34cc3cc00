package conformance

import (
	"maps"
	"slices"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// replicated records the tables of this run whose families are replicated
// (ListReplicatedTableCFs), with those families.
func (e *env) replicated(label string) {
	m, err := e.admin.ListReplicatedTableCFs(e.ctx)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(m)) {
		if strings.Contains(t, "cadm") {
			parts = append(parts, t+"="+strings.Join(m[t], ","))
		}
	}
	e.logf("%s: [%s]", label, strings.Join(parts, " "))
}

// The replication calls that need no replication peer, which fakehbase serves: a table's
// families' REPLICATION_SCOPE read back (ListReplicatedTableCFs) and switched off
// (DisableTableReplication). The peer calls themselves are not served (fakehbase/doc.go).
var replicationCases = []kase{
	{"admin_replication_scope", nil, func(e *env) {
		e.create("create", desc("cadm_repl",
			hrpc.WithFamily("f", hrpc.FamilyAttribute("REPLICATION_SCOPE", "1")), hrpc.WithFamily("g")))
		e.create("create other", desc("cadm_repl_all",
			hrpc.WithFamily("a", hrpc.FamilyAttribute("REPLICATION_SCOPE", "1")), hrpc.WithFamily("b", hrpc.FamilyAttribute("REPLICATION_SCOPE", "1"))))
		e.replicated("replicated")
		e.errf("disable replication", e.admin.DisableTableReplication(e.ctx, "cadm_repl"))
		e.replicated("after disable")
		e.describe("describe", "cadm_repl")
		e.errf("disable again", e.admin.DisableTableReplication(e.ctx, "cadm_repl"))
		e.errf("disable missing", e.admin.DisableTableReplication(e.ctx, "cadm_repl_none"))
		e.errf("disable bad name", e.admin.DisableTableReplication(e.ctx, "cadm repl"))
		e.errf("disable all", e.admin.DisableTableReplication(e.ctx, "cadm_repl_all"))
		e.replicated("after disable all")
	}},
}
