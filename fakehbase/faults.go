package fakehbase

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Match selects calls: those of an operation, on a table, on a row. A zero field matches
// anything, except that the client's own calls on hbase:meta (its region lookups) match only
// when asked for: by Table "hbase:meta", by Meta, or by Op OpGetMetaRegionLocations.
type Match struct {
	// Op is the operation (OpGet, OpPut, OpScan, OpCreateTable...); "" matches every one.
	Op Op
	// Table is the table as the client names it: "ns:t", or "t" (or "default:t") in the
	// default namespace.
	Table string
	// Row is the row of a Get or mutation; for a Scan, a row of the region scanned.
	Row []byte
	// Meta makes a Match without a Table match the calls on hbase:meta too: the scans and
	// Gets of the client's region lookups and the connection registry's
	// GetMetaRegionLocations. Without it a fault on every Get leaves the lookups alone, so it
	// reaches the Get the test makes.
	Meta bool
}

// check refuses a Match that could never mean what it says: an unknown operation, Meta with
// another table than hbase:meta.
func (m *Match) check() error {
	if err := m.Op.check(); err != nil {
		return err
	}
	if m.Meta && m.Table != "" && m.Table != metaTable {
		return fmt.Errorf("Match{Meta: true, Table: %q}: Meta adds hbase:meta to a Match of every table; a Match of one table leaves it out", m.Table)
	}
	return nil
}

// normalized is m as the server compares it: the table without "default:", the row copied.
func (m Match) normalized() Match {
	m.Table = strings.TrimPrefix(m.Table, defaultNS+":")
	m.Row = bytes.Clone(m.Row)
	return m
}

func (m *Match) matches(op Op, table string, row []byte, r *region) bool {
	if m.Op != "" && m.Op != op {
		return false
	}
	if m.Table != "" && m.Table != table {
		return false
	}
	if table == metaTable && m.Table == "" && !m.Meta && m.Op != OpGetMetaRegionLocations {
		return false // the client's own lookups, not asked for
	}
	if m.Row == nil {
		return true
	}
	if op == OpScan {
		return r != nil && r.contains(m.Row)
	}
	return bytes.Equal(m.Row, row)
}

// fault is an injected error or delay.
type fault struct {
	match Match
	err   *javaError    // nil for a delay
	delay time.Duration // for a delay
	left  int           // calls left; <= 0: every call until ClearFaults
}

// InjectError makes the next times calls that match m (every matching call, when times <= 0,
// until ClearFaults) fail with exception ex and message, as a region server or the master
// would. The client reacts as it does to HBase's exception (see the Exception constants):
// NotServingRegion is retried after a new region lookup, RegionTooBusy after a pause,
// DoNotRetry ends the call. Faults are checked in the order they were injected; the first
// error that matches is the call's.
//
// It refuses (and injects nothing) an exception other than the constants and a Match with an
// unknown operation: the error says why, and on a server of NewServer it also fails the
// test, so that a fault that could never fire does not go unnoticed when the error is not
// checked.
func (s *Server) InjectError(m Match, ex Exception, message string, times int) error {
	if err := ex.check(); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: InjectError: %w", err))
	}
	if err := m.check(); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: InjectError: %w", err))
	}
	s.addFault(&fault{match: m.normalized(), err: &javaError{class: ex, msg: message}, left: times})
	return nil
}

// InjectDelay makes the next times calls that match m (every matching call, when times <= 0,
// until ClearFaults) wait d before they are served. A delayed call still takes effect when
// its client stops waiting, unless the connection closes first. It refuses a Match with an
// unknown operation or a negative d, as InjectError does.
func (s *Server) InjectDelay(m Match, d time.Duration, times int) error {
	if d < 0 {
		return s.misuse(fmt.Errorf("fakehbase: InjectDelay: negative delay %v", d))
	}
	if err := m.check(); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: InjectDelay: %w", err))
	}
	s.addFault(&fault{match: m.normalized(), delay: d, left: times})
	return nil
}

func (s *Server) addFault(f *fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f)
}

// ClearFaults removes every fault injected.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// misuse reports err, a call of the test kit that cannot mean what it says, to the test of
// NewServer too, and returns it.
func (s *Server) misuse(err error) error {
	if s.tb != nil {
		s.tb.Helper()
		s.tb.Error(err)
	}
	return err
}

// inject records a call and applies the faults that match it: it waits the delays (outside
// the lock, until the connection closes) and returns the first error. The caller must not
// hold s.mu.
func (c *call) inject(op Op, table string, row []byte, r *region) error {
	s := c.rs.s
	s.mu.Lock()
	var delay time.Duration
	var err *javaError
	kept := s.faults[:0]
	for _, f := range s.faults {
		hit := f.match.matches(op, table, row, r) && (f.err == nil || err == nil)
		if hit {
			if f.err != nil {
				err = f.err
			} else {
				delay += f.delay
			}
		}
		if hit && f.left > 0 {
			f.left--
			if f.left == 0 {
				continue
			}
		}
		kept = append(kept, f)
	}
	clear(s.faults[len(kept):])
	s.faults = kept
	rec := callRecord{Call: Call{Op: op, Table: table, Row: bytes.Clone(row), Delay: delay}, region: r}
	if err != nil {
		rec.Fault = err.class
	}
	s.record(rec)
	s.mu.Unlock()
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-c.req.Done():
			t.Stop()
		}
	}
	if err != nil {
		return err
	}
	return nil
}
