package main

import (
	"fmt"
	"time"

	"github.com/go-hbase/hbase/admin"
)

// snapshotOptions reads snapshot's hash: SKIP_FLUSH => true and TTL => seconds (the shell
// also reads MAX_FILESIZE there, which HBase ignores for snapshots; it is refused here).
func snapshotOptions(h value) ([]admin.SnapshotOption, error) {
	if err := checkKeys("snapshot", h, "SKIP_FLUSH", "TTL"); err != nil {
		return nil, err
	}
	var opts []admin.SnapshotOption
	if v, ok := h.get("SKIP_FLUSH"); ok {
		skip, err := boolVal(v, "SKIP_FLUSH")
		if err != nil {
			return nil, err
		}
		if skip {
			opts = append(opts, admin.SkipFlush())
		}
	}
	if v, ok := h.get("TTL"); ok {
		secs, err := intVal(v, "TTL")
		if err != nil {
			return nil, err
		}
		// The shell sends -1 and 0 through; HBase keeps such a snapshot forever.
		if secs < -1 {
			return nil, fmt.Errorf("TTL: want seconds (0 or more, or -1 for none), got %d", secs)
		}
		if secs > 0 {
			opts = append(opts, admin.SnapshotTTL(time.Duration(secs)*time.Second))
		}
	}
	return opts, nil
}
