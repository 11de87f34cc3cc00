package hbase

import (
	"context"
	"iter"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
)

// Scanner returns the rows of a Scan one at a time, region after region (in reverse order for
// a reversed scan), in the style of database/sql's Rows:
//
//	sc := client.NewScanner(ctx, scan)
//	defer sc.Close()
//	for sc.Next() {
//		row := sc.Result()
//		...
//	}
//	if err := sc.Err(); err != nil {
//		...
//	}
//
// Client.Scan wraps it as an iterator. A Scanner is not safe for concurrent use, except for
// Close.
//
// Rows are whole: pieces of a wide row the server sends separately are reassembled, unless
// the Scan allows partial results (pieces are returned as they come) or sets a batch size
// (a row is returned in results of exactly that many cells, its last one smaller, as the Java
// client's Scan.setBatch does, however the server cut the row). When a region moves or splits, or the
// server-side scanner expires, the Scanner reopens the scan just after the last row it
// returned, so no row is returned twice or skipped; reopened in the same region, or in the
// daughter of a split that holds its position, it reads at the MVCC read point it got there
// first, so rows written there after the scan reached the region stay unseen, as with the
// Java client (docs/scans.md).
type Scanner struct {
	s engine.Scanner
}

// Scan returns the rows of s as an iterator, for use with range:
//
//	for row, err := range client.Scan(ctx, scan) {
//		if err != nil {
//			return err // the scan ended with err; it is the last value
//		}
//		...
//	}
//
// ctx bounds the whole scan. Breaking out of the loop closes the server-side scanner, and so
// does the end of ctx: at once during an RPC, otherwise once the loop has taken the rows
// already received; the last value is then ctx's error. Use NewScanner for the explicit Next
// form.
func (c *Client) Scan(ctx context.Context, s *hrpc.Scan) iter.Seq2[*hrpc.Result, error] {
	return c.e.Scan(ctx, s)
}

// NewScanner starts scan s. Nothing is sent until the first Next. ctx bounds the whole scan:
// when it ends, Next returns false and Err says why. The server-side scanner is closed when
// the scan ends, when Close is called, and when ctx ends.
func (c *Client) NewScanner(ctx context.Context, s *hrpc.Scan) *Scanner {
	sc := new(Scanner)
	c.e.StartScanner(&sc.s, ctx, s)
	return sc
}

// Next moves to the next row and reports whether there is one. It returns false at the end
// of the scan, after an error (see Err) and after Close.
func (s *Scanner) Next() bool { return s.s.Next() }

// Result is the row the last successful Next moved to. Its cells alias the response buffer
// (see hrpc.Cell).
func (s *Scanner) Result() *hrpc.Result { return s.s.Result() }

// Err is the error that ended the scan, or nil when it ran to its end or was closed. A Scan
// whose context ends (or that Close interrupts during Next) ends with the context's error.
func (s *Scanner) Err() error { return s.s.Err() }

// Close stops the scan and closes the server-side scanner. It is safe to call more than once
// and from another goroutine than Next's.
func (s *Scanner) Close() error { return s.s.Close() }

// Metrics returns the scan's metrics so far (after the scan ended: its totals). The server's
// metrics are there only when the Scan was built with hrpc.TrackScanMetrics.
func (s *Scanner) Metrics() hbasetrace.ScanMetrics { return s.s.Metrics() }
