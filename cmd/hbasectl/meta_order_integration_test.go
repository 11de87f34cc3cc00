package main

import (
	"slices"
	"testing"
	"time"
)

// hostileSplits are split keys whose region names hbase:meta does not keep in byte order
// (below ',', at it and around it); formatted as hbasectl prints and reads binary keys.
var hostileSplits = []string{`\x00`, `\x00\x01\xFF`, `\x01`, `\x10\xFF\x00`, "+", ",", ",,", "-", `\xFF`}

// TestCLIHostileSplitKeys runs the commands that read hbase:meta (create, list, describe,
// split, put, get, count, drop) and locality on tables split at keys below and around ',' next to
// tables whose names sort around each other ("t", "t-", "t0"), each with a 20 s deadline:
// a client that took hbase:meta's order for corruption retried until it.
func TestCLIHostileSplitKeys(t *testing.T) {
	base := "ctl_meta_" + time.Now().Format("150405")
	names := []string{base + "_t", base + "_t-", base + "_t0"}
	want := append([]string{""}, hostileSplits...)
	run := func(out any, args ...string) string {
		t.Helper()
		return ctl(t, out, append([]string{"-timeout", "20s"}, args...)...)
	}
	for _, table := range names {
		args := []string{"create"}
		for _, k := range hostileSplits {
			args = append(args, "-split", k)
		}
		var desc describeResult
		run(&desc, append(args, table, "f")...)
	}
	var list listResult
	run(&list, "list", "-regex", base+".*")
	if !slices.Equal(list.Tables, names) {
		t.Errorf("list -regex %s.*: %q, want %q", base, list.Tables, names)
	}
	for _, table := range names {
		var desc describeResult
		run(&desc, "describe", table)
		var starts []string
		for _, r := range desc.Regions {
			starts = append(starts, r.Start)
		}
		if !slices.Equal(starts, want) {
			t.Fatalf("describe %s: region starts %q, want %q", table, starts, want)
		}
		for _, k := range hostileSplits {
			run(nil, "put", table, k, "f:q", "v")
			var got cellsResult
			run(&got, "get", table, k)
			if len(got.Cells) != 1 || got.Cells[0].Row != k || got.Cells[0].Value != "v" {
				t.Fatalf("get %s %s: %+v", table, k, got.Cells)
			}
		}
		var n countResult
		run(&n, "count", table)
		if n.Rows != int64(len(hostileSplits)) {
			t.Errorf("count %s: %d rows, want %d", table, n.Rows, len(hostileSplits))
		}
	}

	// Split a region at a key below ',': the regions printed after it read hbase:meta again.
	var regions regionsResult
	run(&regions, "split", names[0], `,\x00`)
	var starts []string
	for _, r := range regions.Regions {
		starts = append(starts, r.Start)
	}
	if !slices.Contains(starts, `,\x00`) || len(starts) != len(want)+1 {
		t.Errorf("split %s at ,\\x00: region starts %q", names[0], starts)
	}

	// locality of one of the tables: every region counted once the servers have reported it
	// (every second on the test cluster).
	total := 0
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		var loc localityResult
		run(&loc, "locality", "-table", names[1])
		total = 0
		for _, s := range loc.Servers {
			total += s.Regions
		}
		if total == len(want) {
			break
		}
	}
	if total != len(want) {
		t.Errorf("locality -table %s: %d regions, want %d", names[1], total, len(want))
	}

	for _, table := range names {
		var drop dropResult
		run(&drop, "drop", table)
		if !drop.Dropped {
			t.Errorf("drop %s printed %+v", table, drop)
		}
	}
}
