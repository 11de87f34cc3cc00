package main

import (
	"slices"
	"testing"
	"time"
)

// TestCLISnapshots takes a snapshot, clones it into a new table, restores the table from it,
// and deletes it.
func TestCLISnapshots(t *testing.T) {
	table := newTable(t, []string{"f"})
	clone := table + "_clone"
	snap := table + "_snap"
	for _, r := range []string{"a", "b", "c"} {
		ctl(t, nil, "put", table, r, "f:q", r)
	}
	var snaps snapshotsResult
	ctl(t, &snaps, "snapshot", "create", table, snap)
	i := slices.IndexFunc(snaps.Snapshots, func(s snapshotOut) bool { return s.Name == snap })
	if snaps.Action != "create" || i < 0 || snaps.Snapshots[i].Table != table || time.Since(snaps.Snapshots[i].Created) > time.Hour {
		t.Fatalf("snapshot create printed %+v", snaps)
	}
	ctlFails(t, 2, "snapshot already exists|SnapshotExistsException", "snapshot", "create", table, snap)

	ctl(t, nil, "put", table, "d", "f:q", "d")
	ctl(t, nil, "snapshot", "clone", snap, clone)
	var n countResult
	ctl(t, &n, "count", clone)
	if n.Rows != 3 {
		t.Errorf("the clone has %d rows, want the snapshot's 3", n.Rows)
	}
	ctlFails(t, 2, "table not disabled|TableNotDisabledException", "snapshot", "restore", snap)

	ctl(t, nil, "drop", clone)
	ctl(t, nil, "snapshot", "delete", snap)
	snaps = snapshotsResult{}
	ctl(t, &snaps, "snapshot", "list")
	if slices.ContainsFunc(snaps.Snapshots, func(s snapshotOut) bool { return s.Name == snap }) {
		t.Errorf("snapshot list after delete: %+v", snaps.Snapshots)
	}
	ctlFails(t, 2, "snapshot not found|SnapshotDoesNotExistException", "snapshot", "delete", snap)
	ctlFails(t, 2, `snapshot: want create, list, delete, restore or clone, got "take"`, "snapshot", "take", table, snap)
}
