package fakehbase

import (
	"bytes"
	"strings"
	"time"
)

// Match selects calls: those of an operation, on a table, on a row. A zero field matches
// anything.
type Match struct {
	// Op is the operation: "Get", "Put", "Delete", "Append", "Increment",
	// "CheckAndMutate", "MutateRow", "Scan" (each RPC of a scan), or the method of a master
	// call ("CreateTable", "DeleteTable", "EnableTable", "DisableTable", "GetTableDescriptors",
	// ...). The actions of a batch (Client.SendBatch) match one by one, as Get, Put...
	Op string
	// Table is the table as the client names it: "ns:t", or "t" in the default namespace.
	// The client's region lookups are scans and Gets of "hbase:meta".
	Table string
	// Row is the row of a Get or mutation; for a Scan, a row of the region scanned.
	Row []byte
}

func (m *Match) matches(op, table string, row []byte, r *region) bool {
	if m.Op != "" && m.Op != op {
		return false
	}
	if m.Table != "" && m.Table != table {
		return false
	}
	if m.Row == nil {
		return true
	}
	if op == "Scan" {
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
// until ClearFaults) fail with the Java exception class and message, as a region server
// would. The client decides what to do by the class's simple name, as it does with HBase's
// exceptions: for example "org.apache.hadoop.hbase.NotServingRegionException" (or
// "NotServingRegionException") is retried after a new region lookup,
// "org.apache.hadoop.hbase.RegionTooBusyException" after a pause,
// "org.apache.hadoop.hbase.DoNotRetryIOException" ends the call. Faults are checked in the
// order they were injected; the first error that matches is the call's.
func (s *Server) InjectError(m Match, class, message string, times int) {
	e := &javaError{class: class, msg: message}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{match: cloneMatch(m), err: e, left: times})
}

// InjectDelay makes the next times calls that match m (every matching call, when times <= 0,
// until ClearFaults) wait d before they are served. A delayed call still takes effect when
// its client stops waiting, unless the connection closes first.
func (s *Server) InjectDelay(m Match, d time.Duration, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{match: cloneMatch(m), delay: d, left: times})
}

// ClearFaults removes every fault injected.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

func cloneMatch(m Match) Match {
	m.Row = bytes.Clone(m.Row)
	return m
}

// Calls returns how many calls that match m the server has received (those that failed by an
// injected fault included). A batch counts once per action; a scan once per RPC.
func (s *Server) Calls(m Match) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if m.matches(c.op, c.table, c.row, c.region) {
			n++
		}
	}
	return n
}

// callRecord is a call the server received, for Calls.
type callRecord struct {
	op, table string
	row       []byte
	region    *region
}

// maxCallRecords bounds the calls remembered for Calls: the oldest go first.
const maxCallRecords = 1 << 16

// inject records a call and applies the faults that match it: it waits the delays (outside
// the lock, until the connection closes) and returns the first error. The caller must not
// hold s.mu.
func (c *call) inject(op, table string, row []byte, r *region) error {
	s := c.rs.s
	s.mu.Lock()
	if len(s.calls) >= maxCallRecords {
		s.calls = s.calls[:copy(s.calls, s.calls[len(s.calls)/2:])]
	}
	s.calls = append(s.calls, callRecord{op: op, table: table, row: bytes.Clone(row), region: r})
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

// doNotRetrySimple are simple class names of the DoNotRetryIOException family: an injected
// exception of one of them is flagged do-not-retry, as HBase flags it.
var doNotRetrySimple = map[string]bool{
	"DoNotRetryIOException": true, "TableNotFoundException": true, "NoSuchColumnFamilyException": true,
	"TableNotEnabledException": true, "TableExistsException": true, "TableNotDisabledException": true,
	"NamespaceNotFoundException": true, "NamespaceExistException": true, "ConstraintException": true,
	"UnknownScannerException": true, "OutOfOrderScannerNextException": true, "AccessDeniedException": true,
	"FailedSanityCheckException": true, "DoNotRetryRegionException": true, "ScannerResetException": true,
	"InvalidFamilyOperationException": true, "QuotaExceededException": true,
	"IncompatibleFilterException": true, "UnknownServiceException": true,
}

func simpleName(class string) string {
	return class[strings.LastIndexByte(class, '.')+1:]
}
