package hbasetest

import (
	"errors"
	"fmt"
	"time"
)

// ErrStopped is returned by commands sent to a cluster that was stopped or whose launcher
// exited.
var ErrStopped = errors.New("hbasetest: cluster stopped")

// CommandError is the launcher's ERR answer to a command.
type CommandError struct {
	Command string // the command word, e.g. "split"
	Reason  string // the text after ERR
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("hbasetest: %s: %s", e.Command, e.Reason)
}

// StartError says why a cluster did not start, with the end of the launcher's output.
type StartError struct {
	Err     error
	LogTail string
}

func (e *StartError) Error() string {
	if e.LogTail == "" {
		return fmt.Sprintf("hbasetest: cluster did not start: %v", e.Err)
	}
	return fmt.Sprintf("hbasetest: cluster did not start: %v\n--- launcher output (tail) ---\n%s", e.Err, e.LogTail)
}

func (e *StartError) Unwrap() error { return e.Err }

// Server is the master or one region server.
type Server struct {
	Index     int    // region server slot; -1 for the master
	Addr      string // host:port as HBase advertises it, e.g. "localhost:16020"
	StartCode int64  // 0 when the server is not running
	Live      bool
}

// Status is the answer to the status command.
type Status struct {
	Master        Server
	RegionServers []Server // ordered by index
}

// LiveRegionServers counts the region servers that are running.
func (s *Status) LiveRegionServers() int {
	n := 0
	for _, rs := range s.RegionServers {
		if rs.Live {
			n++
		}
	}
	return n
}

// Region is one region as hbase:meta records it.
type Region struct {
	Table       string
	EncodedName string
	Name        []byte // full region name: table,startkey,id.encoded.
	StartKey    []byte
	EndKey      []byte
	Server      int    // index of the region server hosting it; -1 when unassigned
	Addr        string // host:port of that server; "" when unassigned
	StartCode   int64
}

// Replica is one replica of a region (Cluster.Replicas), seen three ways: where hbase:meta
// says it is, which is what clients read; the master's assignment state of it; and the region
// server that has it open. The three differ while a replica moves: hbase:meta names the old
// server until the new one has opened it.
type Replica struct {
	// Region is the replica as hbase:meta records it: its own encoded name and region name
	// ("table,start,regionid_000N.encoded." for replica N; the primary's for replica 0), the
	// region's keys, and the server of its info:server column (info:server_000N for replica
	// N, in the primary's row); Server -1 and Addr "" when the column is empty.
	Region
	ReplicaID int // 0 for the primary
	// State is the master's assignment state of the replica ("OPEN", "OPENING", "CLOSING",
	// "CLOSED", "OFFLINE"...; "" when the master knows none), and StateServer the index of the
	// region server that state names (-1 for none).
	State       string
	StateServer int
	// Serving is the index of the live region server on which the replica is open and takes
	// requests, -1 when none. ReadsEnabled says whether it serves reads there: a secondary
	// refuses them ("The region's reads are disabled") from its opening until it has seen a
	// flush of its primary (hbase.region.replica.wait.for.primary.flush).
	Serving      int
	ReadsEnabled bool
}

// TableOptions shapes a table made by CreateTableWith beyond its families and split keys.
type TableOptions struct {
	// RegionReplication is the table's REGION_REPLICATION: how many replicas each region has,
	// the primary and RegionReplication-1 read-only secondaries, each open on a server of its
	// own when there are enough; 0 means 1.
	RegionReplication int
}

// Reopen is how a region move or split went as the servers saw it: the launcher watches the
// region servers' online regions and the hbase:meta region in its own JVM every millisecond,
// without RPCs. Times are wall-clock (the launcher runs on this machine); a zero Time was not
// seen within 2 s of the command's end.
type Reopen struct {
	EncodedName string    // the region that opened (a daughter, for a split)
	Closed      time.Time // the region stopped taking requests on its old server (the parent, for a split)
	Opened      time.Time // it opened and took requests on its new server
	InMeta      time.Time // hbase:meta said it was open there
}

// Took is the server's own reopen time: from Closed to Opened (0 when either is unknown).
func (r Reopen) Took() time.Duration {
	if r.Closed.IsZero() || r.Opened.IsZero() {
		return 0
	}
	return r.Opened.Sub(r.Closed)
}

// Cell is one cell as the launcher's Java client read it.
type Cell struct {
	Row, Family, Qualifier []byte
	Timestamp              int64
	Value                  []byte
}
