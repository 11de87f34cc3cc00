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
