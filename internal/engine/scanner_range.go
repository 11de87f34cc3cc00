package engine

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
)

// OwnedScanner starts scan s on a scanner of the client's pool that only the caller drives,
// on one goroutine, and gives back with ReleaseScanner (Client.Scan's iterator, a parallel
// scan's workers): ctx bounds its Next directly.
func (c *Client) OwnedScanner(ctx context.Context, s *hrpc.Scan) *Scanner {
	return c.newScanner(ctx, s, true)
}

// ReleaseScanner ends sc, from OwnedScanner, and gives it back to the pool.
func (c *Client) ReleaseScanner(sc *Scanner) { c.releaseScanner(sc) }

// Restrict confines the scanner, before its first Next, to the rows from start (excluded when
// after) up to stop (empty: the table's end) of its Scan: a parallel scan's range.
func (s *Scanner) Restrict(start, stop []byte, after bool) {
	s.spec.StartRow, s.spec.StopRow = start, stop
	if len(stop) == 0 {
		s.spec.StopRow = nil
	}
	s.spec.IncludeStartRow = nil
	if after {
		s.spec.IncludeStartRow = &s.no
	}
	s.start = start
}

// Buffered reports whether Next has rows to return without asking the server.
func (s *Scanner) Buffered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next < len(s.buf)
}

// NewScanner is hbase.Client.NewScanner, for the engine's own tests and callers that keep the
// *Scanner.
func (c *Client) NewScanner(ctx context.Context, s *hrpc.Scan) *Scanner {
	return c.newScanner(ctx, s, false)
}
