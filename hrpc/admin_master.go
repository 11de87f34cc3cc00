package hrpc

import "time"

// Snapshot describes a completed snapshot.
type Snapshot struct {
	Name    string
	Table   string
	Created time.Time
	Owner   string
	// Type is FLUSH (the memstores were flushed first), SKIPFLUSH or DISABLED (taken of a
	// disabled table).
	Type string
	TTL  time.Duration // 0: kept until deleted
}
