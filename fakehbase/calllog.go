package fakehbase

import (
	"bytes"
	"fmt"
	"time"
)

// Call is a call the server received, as CallLog lists it.
type Call struct {
	Op Op
	// Table is the table of the call ("ns:t", or "t" in the default namespace; "hbase:meta"
	// for the client's region lookups); "" for a master call about no table.
	Table string
	// Row is the row of a Get or mutation, or the start row of a scan's first RPC; nil when
	// the call has none.
	Row []byte
	// Fault is the exception an injected fault answered the call with; "" when it was served.
	Fault Exception
	// Delay is how long injected delays held the call before it was served or failed.
	Delay time.Duration
}

// String shows the call as a log line: `Get "t" "row"`, then the fault or delay.
func (c Call) String() string {
	s := string(c.Op)
	if c.Table != "" {
		s += fmt.Sprintf(" %q", c.Table)
	}
	if c.Row != nil {
		s += fmt.Sprintf(" %q", c.Row)
	}
	if c.Delay > 0 {
		s += fmt.Sprintf(" delayed %v", c.Delay)
	}
	if c.Fault != "" {
		s += " -> " + c.Fault.constName()
	}
	return s
}

// callRecord is a call and the region it named, for Calls' row matching of scans.
type callRecord struct {
	Call
	region *region
}

// maxCallRecords bounds the calls remembered: when full, the older half goes.
const maxCallRecords = 1 << 16

// record remembers a call. Callers hold s.mu.
func (s *Server) record(rec callRecord) {
	if len(s.calls) >= maxCallRecords {
		s.calls = s.calls[:copy(s.calls, s.calls[len(s.calls)/2:])]
	}
	s.calls = append(s.calls, rec)
}

// CallLog returns the calls the server received, in the order they came (the latest
// 32,768 to 65,536 of them), with those that an injected fault answered: the client's
// region lookups (on hbase:meta), each action of a batch, each RPC of a scan, the master's
// calls. It is a copy: the test may keep it while the server goes on.
func (s *Server) CallLog() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Call, len(s.calls))
	for i, c := range s.calls {
		out[i] = c.Call
		out[i].Row = bytes.Clone(c.Row)
	}
	return out
}

// Calls returns how many calls that match m the server has received (those an injected
// fault answered included), by the same rules as faults, so that a test can check that a
// fault fired. A batch counts once per action; a scan once per RPC. It returns -1, which no
// count a test expects equals, for a Match that InjectError would refuse (an unknown Op), and
// fails the test of NewServer.
func (s *Server) Calls(m Match) int {
	if err := m.check(); err != nil {
		_ = s.misuse(fmt.Errorf("fakehbase: Calls: %w", err))
		return -1
	}
	m = m.normalized()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if m.matches(c.Op, c.Table, c.Row, c.region) {
			n++
		}
	}
	return n
}
