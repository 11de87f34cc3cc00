package engine

// Client.Scan's scanners are reused: a scanner, its ScanResponse with its repeated fields, its
// buffers of results and the messages it builds in place are most of what a short scan would
// otherwise allocate (issue 15). Only Client.Scan's scanners are: its iterator is the only
// user of its scanner, on one goroutine, and gives it back once it has closed it, so nothing
// else can use a scanner given back. NewScanner's are the caller's, who may keep one after
// Close and call it from other goroutines; they are left to the GC.
//
// What the caller keeps never points into a scanner: results and their cells are allocated
// for every response (hrpcwire.AppendScanResults) and alias the response's frame, which is never
// reused; rows put together from pieces are copies (Scanner.add, scanBatches). The buffers
// kept hold pointers to the caller's results only until they are handed out, and are emptied
// before a scanner is given back.

// maxPooledResults bounds the results a pooled scanner keeps room for: the room a scan of
// huge responses made is not kept for the small ones that follow.
const maxPooledResults = 4096

// pooledScanner takes a scanner from the pool, empty but with its buffers, or makes one.
func (c *Client) pooledScanner() *Scanner {
	if sc, ok := c.scanners.Get().(*Scanner); ok {
		return sc
	}
	return &Scanner{pooled: true}
}

// releaseScanner closes sc, the scanner of one Client.Scan iteration, and gives it back to
// the pool unless something may still use it.
func (c *Client) releaseScanner(sc *Scanner) {
	buf := sc.buf // Close drops it
	sc.Close()
	if !sc.pooled || sc.renewRuns.Load() != 0 {
		// The lease renewal's timer fired: its function may still be about to look at the
		// scanner. Leave the scanner to the GC.
		return
	}
	buf, spare := buf[:0], sc.check.spare[:0]
	cpr, pf := sc.resp.CellsPerResult[:0], sc.resp.PartialFlagPerResult[:0]
	if cap(buf) > maxPooledResults {
		buf = nil
	}
	if cap(spare) > maxPooledResults {
		spare = nil
	}
	if cap(cpr) > maxPooledResults {
		cpr, pf = nil, nil
	}
	// Emptied to their capacity: they pointed to results that are the caller's now.
	clear(buf[:cap(buf)])
	clear(spare[:cap(spare)])
	// Everything else goes: the scan's table, rows, spec (which points into the caller's
	// Scan), region, connection, errors and counts.
	// The renewal's timer is stopped, and its function has ended (renewRuns): it is kept.
	*sc = Scanner{pooled: true, buf: buf, check: scanCheck{spare: spare}, renew: sc.renew}
	sc.resp.CellsPerResult, sc.resp.PartialFlagPerResult = cpr, pf
	c.scanners.Put(sc)
}
