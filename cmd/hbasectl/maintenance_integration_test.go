package main

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestCLIMaintenance runs namespace, enable, disable, flush, compact and truncate through
// hbasectl against the real cluster and checks their effect, not only their output.
func TestCLIMaintenance(t *testing.T) {
	ns := fmt.Sprintf("ctlns%d", time.Now().UnixNano()%1e6)
	var nss namespacesResult
	ctl(t, &nss, "namespace", "create", "-prop", "hbase.namespace.quota.maxtables=5", ns)
	var created *namespaceOut
	for i := range nss.Namespaces {
		if nss.Namespaces[i].Name == ns {
			created = &nss.Namespaces[i]
		}
	}
	if created == nil || created.Properties["hbase.namespace.quota.maxtables"] != "5" {
		t.Fatalf("namespace create printed %+v; want %s with its property", nss, ns)
	}
	nss = namespacesResult{}
	ctl(t, &nss, "namespace", "describe", ns)
	if len(nss.Namespaces) != 1 || nss.Namespaces[0].Properties["hbase.namespace.quota.maxtables"] != "5" {
		t.Fatalf("namespace describe: %+v", nss)
	}
	ctlFails(t, 2, "namespace exists|NamespaceExistException", "namespace", "create", ns)
	ctlFails(t, 2, "-prop goes with create only", "namespace", "delete", "-prop", "a=b", ns)

	table := ns + ":t"
	var desc describeResult
	ctl(t, &desc, "create", "-split", "m", table, "f")
	for _, r := range []string{"a", "p", "z"} {
		ctl(t, nil, "put", table, r, "f:q", "v"+r)
	}
	ctlFails(t, 2, "namespace not empty|ConstraintException|not empty", "namespace", "delete", ns)

	// Flush writes the memstores to store files, which the servers then report.
	var st storeResult
	ctl(t, &st, "flush", table)
	if st.Action != "flush" || st.Target != table {
		t.Errorf("flush printed %+v", st)
	}
	files := func() int {
		var status statusResult
		ctl(t, &status, "status", "-regions", "-table", table)
		n := 0
		for _, l := range status.RegionLoads {
			n += int(l.StoreFiles)
		}
		return n
	}
	for deadline := time.Now().Add(30 * time.Second); files() < 2; time.Sleep(time.Second) {
		if time.Now().After(deadline) {
			t.Fatalf("no store files reported 30 s after flush of %s", table)
		}
	}
	ctl(t, nil, "flush", desc.Regions[0].Encoded)
	ctl(t, &st, "compact", "-major", table)
	if !st.Major || st.Action != "compact" {
		t.Errorf("compact -major printed %+v", st)
	}
	ctl(t, nil, "compact", desc.Regions[1].Encoded)
	ctlFails(t, 2, "region not found", "flush", "0123456789abcdef0123456789abcdef")

	// Disabled, the table refuses reads; enabled again, its rows are there.
	var state tableStateResult
	ctl(t, &state, "disable", table)
	if state.Enabled || !state.Changed {
		t.Fatalf("disable printed %+v", state)
	}
	state = tableStateResult{}
	ctl(t, &state, "disable", table)
	if state.Enabled || state.Changed {
		t.Errorf("disable of a disabled table printed %+v; want no change", state)
	}
	ctlFails(t, 2, `table "[^"]+" is disabled`, "-timeout", "20s", "get", table, "a")
	ctl(t, &state, "enable", table)
	if !state.Enabled || !state.Changed {
		t.Fatalf("enable printed %+v", state)
	}
	var n countResult
	ctl(t, &n, "count", table)
	if n.Rows != 3 {
		t.Fatalf("count after disable and enable: %d, want 3", n.Rows)
	}

	// Truncate (of an enabled table: it is disabled first) empties it and keeps the split.
	ctl(t, &state, "truncate", table)
	if !state.Enabled || state.Action != "truncate" {
		t.Errorf("truncate printed %+v", state)
	}
	n = countResult{}
	ctl(t, &n, "count", table)
	if n.Rows != 0 {
		t.Errorf("count after truncate: %d, want 0", n.Rows)
	}
	desc = describeResult{}
	ctl(t, &desc, "describe", table)
	if len(desc.Regions) != 2 || desc.Regions[1].Start != "m" || !desc.Enabled {
		t.Errorf("after truncate: %+v; want enabled, regions [-, m) and [m, -)", desc)
	}
	ctl(t, &state, "truncate", "-preserve-splits=false", table)
	desc = describeResult{}
	ctl(t, &desc, "describe", table)
	if len(desc.Regions) != 1 {
		t.Errorf("after truncate -preserve-splits=false: %d regions, want 1", len(desc.Regions))
	}

	ctl(t, nil, "drop", table)
	nss = namespacesResult{}
	ctl(t, &nss, "namespace", "delete", ns)
	if slices.ContainsFunc(nss.Namespaces, func(n namespaceOut) bool { return n.Name == ns }) {
		t.Errorf("namespace delete: %s still listed: %+v", ns, nss)
	}
	ctlFails(t, 2, "namespace not found|NamespaceNotFoundException", "namespace", "describe", ns)
}
