package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// checkSnapshotOpts checks a "#snapshot-opts: NAME TYPE TTL_SECONDS" line: the snapshot NAME
// of each hbasectl run (text and -json) has that type and TTL as the Java Admin lists it.
// The Java side takes its snapshots without options, so this is checked rather than compared.
func checkSnapshotOpts(t *testing.T, cluster *hbasetest.Cluster, part int, line string, sides ...map[string]string) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) != 3 {
		t.Fatalf("part %d: #snapshot-opts: want NAME TYPE TTL_SECONDS, got %q", part, line)
	}
	ttl, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		t.Fatalf("part %d: #snapshot-opts %q: %v", part, line, err)
	}
	snaps, err := cluster.JavaSnapshots(t.Context())
	if err != nil {
		t.Fatalf("part %d: %v", part, err)
	}
	for _, names := range sides {
		name, found := substitute(f[0], names), false
		for _, s := range snaps {
			if s.Name != name {
				continue
			}
			found = true
			if s.Type != f[1] || s.TTL != time.Duration(ttl)*time.Second {
				t.Errorf("part %d: snapshot %s: type %s, TTL %v; want %s, %ds", part, name, s.Type, s.TTL, f[1], ttl)
			}
		}
		if !found {
			t.Errorf("part %d: snapshot %s: not listed by the Java Admin", part, name)
		}
	}
}
