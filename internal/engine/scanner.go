package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// scannerCloseTimeout bounds the close_scanner RPC sent by Close or after a cancelled Next.
const scannerCloseTimeout = 5 * time.Second

// Scanner is the engine of a scan: the root package's Scanner, Client.Scan's iterator and a
// parallel scan's workers drive one each (the root's Scanner documents what it does).
type Scanner struct {
	// maxAttempts caps the failed attempts of one step of the scan (0: only the context);
	// tries counts them.
	maxAttempts int
	tries       attempts
	c           *Client
	table       string
	start       []byte   // the Scan's start row, for errors
	spec        *pb.Scan // start_row/include_start_row advance as rows are returned
	reversed    bool
	whole       bool   // reassemble partial results into whole rows
	meta        bool   // a scan of hbase:meta, whose rows are not in byte order (compareRows)
	limit       uint32 // rows still allowed; 0 means no limit
	hasLimit    bool
	rows        uint32 // rows per RPC
	// extras are the Scan's priority and request attributes, sent with each of its RPCs.
	extras region.Extras

	ctx    context.Context // ends when the Scan's context ends or Close is called (not owned: newScanner)
	cancel context.CancelFunc

	mu        sync.Mutex
	reg       *regionInfo
	conn      *region.Client
	id        uint64
	open      bool // a server-side scanner is open at (reg, conn, id)
	seq       uint64
	readPoint uint64 // mvcc read point of the scan in this part of the table (readpoint.go)
	lastRPC   time.Time
	renew     *time.Timer
	// renewRuns counts the runs of renewLease that renew has scheduled and that have not
	// ended: a scanner is reused only when none may still look at it (releaseScanner).
	renewRuns atomic.Int32

	// rpStart and rpEnd are the key range of the region that gave readPoint: a scanner
	// reopened on that range (the region moved, or split into daughters holding its rows)
	// reads at it too.
	rpStart, rpEnd []byte
	cursors        bool // the Scan asks for cursor results (hrpc.CursorResults)

	check   scanCheck
	batches scanBatches // regroups pieces of rows into full batches (BatchSize)
	buf     []*hrpc.Result
	next    int             // buf[next:] are still to return; reused from 0 when drained
	resp    pb.ScanResponse // reused: its repeated fields keep their capacity (nextResponse)
	flags   respFlags       // what resp's preset fields point to
	no, yes bool            // what spec's flags point to: moving past a row does not allocate
	// The scan's messages are built in place: specBuf holds spec, reqs the requests, and
	// specReadPoint is what spec's mvcc_read_point points to on a reopen.
	specBuf       wire.ScanProtoBuffer
	reqs          wire.ScanRequests
	specReadPoint uint64
	pooled        bool         // Client.Scan's: given back to the client's pool when the iteration ends
	cur           *hrpc.Result // what Result returns
	partial       *hrpc.Result // pieces of a row not complete yet
	lastRow       []byte       // the last row returned
	// lastCell is the last cell returned when that row may have more (pieces of rows are
	// passed on as they come: BatchSize or AllowPartialResults): a scan reopened in the
	// middle of the row starts again at the row, and its cells up to lastCell are dropped.
	lastCell *hrpc.Cell
	done     bool
	err      error
	closed   bool

	// timeline: the Scan's consistency is Timeline (scanner_timeline.go); sticky is the
	// secondary replica that answered its first page in the current region, which it stays on;
	// hedged: that first page was asked of the secondaries (hrpc.Result.Hedged).
	timeline bool
	sticky   *regionInfo
	hedged   bool

	obs     *CallObs               // the hooks' view of the scan; nil when the client has none (scanner_obs.go)
	track   bool                   // hrpc.TrackScanMetrics
	metrics hbasetrace.ScanMetrics // what Metrics returns
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
	return func(yield func(*hrpc.Result, error) bool) {
		sc := c.newScanner(ctx, s, true)
		defer c.releaseScanner(sc)
		for sc.Next() {
			if !yield(sc.Result(), nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// newScanner starts scan s. With owned, only the caller ever calls Next and Close, always on
// one goroutine and always ending with Close (Client.Scan's iterator): ctx then bounds Next
// directly. Otherwise the scanner runs under a context of its own, which Close cancels so that
// it ends a Next in flight on another goroutine, and which closes the scanner when ctx ends
// while nobody is in Next. That is 6 allocations per scan an owned scanner does without.
//
// An owned scanner comes from the client's pool and goes back to it (releaseScanner); nothing
// it gives the caller points into it.
func (c *Client) newScanner(ctx context.Context, s *hrpc.Scan, owned bool) *Scanner {
	var sc *Scanner
	if owned {
		sc = c.pooledScanner()
	} else {
		sc = new(Scanner)
	}
	c.startScanner(sc, ctx, s, owned)
	return sc
}

// StartScanner starts scan s on sc, a zero Scanner the caller allocated (the root package's
// Scanner holds one), as NewScanner does.
func (c *Client) StartScanner(sc *Scanner, ctx context.Context, s *hrpc.Scan) {
	c.startScanner(sc, ctx, s, false)
}

func (c *Client) startScanner(sc *Scanner, ctx context.Context, s *hrpc.Scan, owned bool) {
	sc.c = c
	if s == nil {
		sc.err, sc.done = NilRequest("Scan"), true
		return
	}
	w := hrpcwire.Scan(s)
	sc.table = w.TableName()
	sc.start = w.StartRow()
	sc.spec = w.ProtoInto(&sc.specBuf)
	sc.reversed = w.Reversed()
	sc.meta = sc.table == MetaTableName
	sc.whole = !w.AllowPartialResults() && w.BatchSize() == 0
	if !w.AllowPartialResults() {
		sc.batches.size = int(w.BatchSize())
	}
	sc.limit, sc.hasLimit = w.Limit(), w.Limit() > 0
	sc.rows = w.NumberOfRows()
	sc.cursors = sc.spec.GetNeedCursorResult()
	sc.maxAttempts = c.attemptCap(w)
	sc.extras = extrasOf(w)
	sc.timeline = s.Consistency() == hrpc.Timeline
	sc.yes = true
	if c.IsClosed() {
		sc.fail(hberr.ErrClosed)
		return
	}
	if owned {
		sc.ctx = ctx
	} else {
		sc.ctx, sc.cancel = context.WithCancel(ctx)
		context.AfterFunc(sc.ctx, func() { sc.Close() })
	}
	sc.startObs(w)
}

// Next moves to the next row and reports whether there is one. It returns false at the end
// of the scan, after an error (see Err) and after Close.
func (s *Scanner) Next() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur = nil
	for {
		if s.next < len(s.buf) {
			s.cur = s.buf[s.next]
			s.buf[s.next] = nil
			if s.next++; s.next == len(s.buf) {
				s.buf, s.next = s.buf[:0], 0
			}
			return true
		}
		if s.done || s.closed {
			s.endObs()
			return false
		}
		if s.fetch(s.ctx) != nil {
			return false
		}
	}
}

// Result is the row the last successful Next moved to. Its cells alias the response buffer
// (see hrpc.Cell).
func (s *Scanner) Result() *hrpc.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// Err is the error that ended the scan, or nil when it ran to its end or was closed. A Scan
// whose context ends (or that Close interrupts during Next) ends with the context's error.
func (s *Scanner) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close stops the scan and closes the server-side scanner. It is safe to call more than once
// and from another goroutine than Next's.
func (s *Scanner) Close() error {
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.endObs()
	s.buf, s.next = nil, 0
	s.stopRenewal()
	s.closeServerScanner()
	return nil
}

// closeServerScanner closes the open server-side scanner, if any, in the background (bounded
// by the client's lifetime) so that Close never blocks on a slow server.
func (s *Scanner) closeServerScanner() {
	if !s.open {
		return
	}
	s.open = false
	// The goroutine holds only what it needs, not the scanner, which may be reused for
	// another scan meanwhile (releaseScanner).
	c, conn, id, x := s.c, s.conn, s.id, s.extras
	c.spawn(func() {
		ctx, cancel := context.WithTimeout(c.lifetime, scannerCloseTimeout)
		defer cancel()
		req := wire.ScanCloseRequest(id)
		if _, err := conn.CallExtras(ctx, x, "Scan", req, nil, &pb.ScanResponse{}, nil); err != nil {
			c.Log.Debug("hbase: closing scanner failed", "addr", conn.Addr(), "err", err)
		}
	})
}

// fetch runs RPCs until it has rows to return or the scan is over.
func (s *Scanner) fetch(ctx context.Context) error {
	rctx := ctx
	b := s.c.NewBackoff()
	s.tries = attempts{max: s.maxAttempts}
	var last error
	expired, relocations := 0, 0
	for len(s.buf) == 0 && !s.done {
		if s.c.IsClosed() {
			return s.fail(hberr.ErrClosed)
		}
		if err := rctx.Err(); err != nil {
			return s.stopped(ctx, last)
		}
		err := s.step(rctx)
		if err == nil {
			continue
		}
		if s.c.IsClosed() {
			return s.fail(hberr.ErrClosed)
		}
		if rctx.Err() != nil {
			if s.conn != nil && errors.Is(err, rctx.Err()) {
				// The scan RPC got no answer in its time: check that the server still
				// answers, as after a single call (suspect).
				s.c.suspect(s.reg, s.conn)
			}
			return s.stopped(ctx, last)
		}
		last = err
		s.retrying(rctx, err)
		if errors.Is(err, hberr.ErrScannerExpired) {
			// The server dropped the scanner (lease expired, reset, out of order): reopen
			// just after the last row returned.
			s.closeServerScanner()
			s.partial = nil
			if expired++; expired > 1 && b.Sleep(rctx) != nil {
				return s.stopped(ctx, last)
			}
			continue
		}
		act := Classify(err)
		if act == GiveUp {
			if s.open {
				s.closeServerScanner()
			}
			return s.fail(err)
		}
		if end := s.tries.failed(err); end != nil {
			if (act == Relocate || act == PauseAndRelocate) && s.conn != nil {
				s.c.regionFailed(s.reg, s.conn, err)
			}
			if s.open {
				s.closeServerScanner()
			}
			return s.fail(end)
		}
		switch act {
		case Relocate, PauseAndRelocate:
			rpcFailed := s.conn != nil // else the region lookup itself failed
			if rpcFailed {
				s.c.regionFailed(s.reg, s.conn, err)
			}
			s.open, s.partial, s.conn = false, nil, nil
			if relocations++; !rpcFailed || act == PauseAndRelocate || relocations > 1 {
				if b.Sleep(rctx) != nil {
					return s.stopped(ctx, last)
				}
			}
		case Pause:
			if b.sleepRetry(rctx, err) != nil {
				return s.stopped(ctx, last)
			}
		}
	}
	s.armRenewal()
	return nil
}

// stopped ends a scan whose context ended (or that Close interrupted): the server-side
// scanner is in an unknown state, so it is closed.
func (s *Scanner) stopped(ctx context.Context, last error) error {
	if s.open {
		s.closeServerScanner()
		s.partial = nil
	}
	return s.fail(s.tries.withCount(CtxErr(ctx, last)))
}

// fail ends the scan with err, as an *hberr.OpError naming the scan.
func (s *Scanner) fail(err error) error {
	err = &hberr.OpError{Op: "Scan", Table: s.table, Row: s.start, Err: UserError(err)}
	s.err, s.done = err, true
	s.endObs()
	s.stopRenewal()
	return err
}

// step sends one ScanRequest (opening a scanner in the right region if none is open) and
// files its results.
func (s *Scanner) step(ctx context.Context) error {
	var req *pb.ScanRequest
	if !s.open {
		before := s.reversed && (len(s.spec.StartRow) == 0 || !s.spec.GetIncludeStartRow())
		s.conn = nil
		find := s.c.findRegion
		if s.timeline {
			find = s.c.findTimeline // conn is nil while the primary is out of service
		}
		r, conn, err := find(ctx, s.table, s.spec.StartRow, before)
		if err != nil {
			return err
		}
		if !sameRegion(s.reg, r) {
			s.metrics.Regions++
			// A Timeline scan keeps its read point only on the replica that gave it.
			if s.timeline || !s.readPointHolds(r) {
				s.readPoint = 0
			}
		}
		s.reg, s.conn = r, conn
		s.batches.reset() // cells not returned yet come again from the new scanner
		if s.readPoint != 0 {
			s.specReadPoint = s.readPoint
			s.spec.MvccReadPoint = &s.specReadPoint
		} else {
			s.spec.MvccReadPoint = nil
		}
		req = s.reqs.Open(r.name, s.spec, s.rows, s.limitLeft())
	} else {
		req = s.reqs.Next(s.id, s.seq, s.rows, s.limitLeft())
	}
	if s.track {
		wire.WithScanMetrics(req)
	}
	resp := s.nextResponse()
	s.check.reversed, s.check.meta = s.reversed, s.meta
	var err error
	if s.timeline && !s.open {
		err = s.openTimeline(ctx, req, resp)
	} else {
		err = s.call(ctx, req, resp)
	}
	if err != nil {
		return err
	}
	if !s.open {
		if s.flags.scannerID == noScannerID && resp.GetMoreResultsInRegion() {
			return fmt.Errorf("%w: ScanResponse opening a scanner has no scanner id", wire.ErrBadResponse)
		}
		s.id, s.open, s.seq = s.flags.scannerID, true, 0
		if s.readPoint == 0 {
			s.readPoint = s.flags.readPoint // 0, as the unset field, keeps the scan without one
			s.rpStart, s.rpEnd = s.reg.start, s.reg.end
		}
	} else {
		s.seq++
	}
	s.buf = slices.Grow(s.buf, len(s.check.results))
	for _, r := range s.check.results {
		s.add(r)
	}
	if len(s.check.results) == 0 && !resp.GetHeartbeatMessage() {
		s.batches.endRow(s.emit) // an empty answer that is not a heartbeat ends a row
	}
	if s.cursors && len(s.buf) == s.next && resp.GetHeartbeatMessage() {
		s.addCursor(resp)
	}
	clear(s.check.results) // they are the caller's now: the spare array does not hold them
	s.check.results = nil
	switch {
	case !s.flags.moreResults: // true when unset
		s.open = false // the server closed it
		s.flushPartial()
		s.done = true
	case !resp.GetMoreResultsInRegion():
		s.open = false // the server closed it
		s.flushPartial()
		s.nextRegion()
	}
	if s.hasLimit && s.limit == 0 && !s.done {
		s.done = true
		s.closeServerScanner()
	}
	return nil
}

// nextResponse empties the scanner's ScanResponse for the next RPC, which region merges into
// it. Nothing of the last response is kept (the results were built from it and alias only
// the cellblock); the repeated fields keep their capacity, so that a response of many rows
// does not grow them again.
func (s *Scanner) nextResponse() *pb.ScanResponse {
	cpr, pf := s.resp.CellsPerResult[:0], s.resp.PartialFlagPerResult[:0]
	// The server sends one entry per result, each its own field: room for the rows asked
	// for, so that a response does not grow them entry by entry.
	n := int(min(s.rows, maxResultsHint))
	if s.hasLimit {
		n = min(n, int(s.limit))
	}
	if cap(cpr) < n {
		cpr = make([]uint32, 0, n)
	}
	if cap(pf) < n {
		pf = make([]bool, 0, n)
	}
	s.resp.Reset()
	s.resp.CellsPerResult, s.resp.PartialFlagPerResult = cpr, pf
	// The scalars are merged in place, preset to what their absence means: protobuf would
	// otherwise allocate each. scanner_id, whose absence is an error when the region has
	// more rows, is preset to an id no server gives (noScannerID).
	s.flags = respFlags{scannerID: noScannerID, moreResults: true}
	s.resp.Ttl, s.resp.Stale = &s.flags.ttl, &s.flags.stale
	s.resp.MoreResultsInRegion, s.resp.HeartbeatMessage = &s.flags.moreInRegion, &s.flags.heartbeat
	s.resp.ScannerId, s.resp.MoreResults = &s.flags.scannerID, &s.flags.moreResults
	s.resp.MvccReadPoint = &s.flags.readPoint
	return &s.resp
}

// respFlags are the scalar fields of a ScanResponse, merged in place.
type respFlags struct {
	scannerID, readPoint                        uint64
	ttl                                         uint32
	stale, moreInRegion, heartbeat, moreResults bool
}

// noScannerID stands for a ScanResponse without scanner_id: -1 as a Java long, which is what
// the Java client's scanner callables hold before they have a scanner, and which HBase never
// gives one (its ids have bit 31 clear).
const noScannerID = ^uint64(0)

// maxResultsHint bounds the results per response a scanner makes room for in advance.
const maxResultsHint = 256

// limitLeft is how many rows the scan may still return; 0 means no limit.
func (s *Scanner) limitLeft() uint32 {
	if !s.hasLimit {
		return 0
	}
	return s.limit
}

// add files one result of a response: whole rows go to the buffer, pieces of a row are
// gathered until the row is complete.
func (s *Scanner) add(r *hrpc.Result) {
	if len(r.Cells) == 0 {
		return
	}
	if !s.whole {
		if r = s.dropReturned(r); r != nil {
			s.batches.add(r, s.emit)
		}
		return
	}
	if s.partial != nil && !bytes.Equal(s.partial.Cells[0].Row, r.Cells[0].Row) {
		// The server flagged the previous piece as possibly incomplete but the row ended
		// (its remaining cells were filtered out).
		s.flushPartial()
	}
	if s.partial != nil {
		s.partial.Cells = append(s.partial.Cells, r.Cells...)
		s.partial.Stale = s.partial.Stale || r.Stale
	} else if r.Partial {
		cp := *r
		cp.Cells = append([]hrpc.Cell(nil), r.Cells...)
		s.partial = &cp
	} else {
		s.emit(r)
		return
	}
	if !r.Partial {
		s.flushPartial()
	}
}

func (s *Scanner) flushPartial() {
	s.batches.endRow(s.emit)
	if p := s.partial; p != nil {
		s.partial = nil
		p.Partial = false
		s.emit(p)
	}
}

// emit hands a whole row to the caller, unless it was returned already or the limit is
// reached, and moves the scan's start past it.
func (s *Scanner) emit(r *hrpc.Result) {
	row := r.Cells[0].Row
	if s.lastRow != nil && s.whole {
		c := compareRows(s.meta, row, s.lastRow)
		if (!s.reversed && c <= 0) || (s.reversed && c >= 0) {
			return // already returned before a reopen
		}
	}
	if !s.withinLimit(r) {
		return
	}
	if s.timeline {
		s.fromReplica(r)
	}
	s.buf = append(s.buf, r)
	s.lastRow = row
	s.spec.StartRow = row
	s.spec.IncludeStartRow = &s.no
	s.lastCell = nil
	if !s.whole && r.Partial {
		// The server may send more of this row: a reopen starts at the row again.
		s.spec.IncludeStartRow = &s.yes
		last := r.Cells[len(r.Cells)-1]
		s.lastCell = &last
	}
}

// dropReturned drops the cells of r that were returned already: after a reopen in the
// middle of a row, the server starts the row again. It returns nil when nothing is left.
func (s *Scanner) dropReturned(r *hrpc.Result) *hrpc.Result {
	last := s.lastCell
	if last == nil || !bytes.Equal(r.Cells[0].Row, last.Row) {
		return r
	}
	i := 0
	for i < len(r.Cells) && !cellAfter(&r.Cells[i], last) {
		i++
	}
	if i == len(r.Cells) {
		return nil
	}
	cp := *r
	cp.Cells = r.Cells[i:]
	return &cp
}

// cellAfter reports whether a sorts after b in a row, in HBase's order: family, qualifier,
// newest timestamp first, then type (highest first).
func cellAfter(a, b *hrpc.Cell) bool {
	if c := bytes.Compare(a.Family, b.Family); c != 0 {
		return c > 0
	}
	if c := bytes.Compare(a.Qualifier, b.Qualifier); c != 0 {
		return c > 0
	}
	if a.Timestamp != b.Timestamp {
		return a.Timestamp < b.Timestamp
	}
	return a.Type < b.Type
}

// nextRegion moves the scan to the region after the current one (before it when reversed),
// or ends it when the current region reaches the stop row or the table's end.
func (s *Scanner) nextRegion() {
	r := s.reg
	stop := s.spec.StopRow
	if !s.reversed {
		if len(r.end) == 0 {
			s.done = true
			return
		}
		if len(stop) != 0 {
			c := bytes.Compare(r.end, stop)
			if c > 0 || (c == 0 && !s.spec.GetIncludeStopRow()) {
				s.done = true
				return
			}
		}
		s.spec.StartRow = r.end
		s.spec.IncludeStartRow = nil
	} else {
		if len(r.start) == 0 || (len(stop) != 0 && bytes.Compare(r.start, stop) <= 0) {
			s.done = true
			return
		}
		s.spec.StartRow = r.start
		s.spec.IncludeStartRow = &s.no
	}
	s.readPoint = 0 // the next region gets its own, as in Java (readpoint.go)
}

// armRenewal renews the server-side scanner's lease if the caller does not come back for the
// next rows in time (the server drops idle scanners after hbase.client.scanner.timeout.period).
func (s *Scanner) armRenewal() {
	if !s.open || s.done {
		return
	}
	s.resetRenewal()
}

// resetRenewal (re)schedules the lease renewal.
func (s *Scanner) resetRenewal() {
	if s.renew == nil {
		s.renewRuns.Add(1)
		s.renew = time.AfterFunc(s.c.opts.ScanLeaseRenew, s.renewLease)
		return
	}
	if !s.renew.Reset(s.c.opts.ScanLeaseRenew) {
		s.renewRuns.Add(1) // a new run, not the one pending moved
	}
}

// stopRenewal cancels the pending lease renewal, if it has not started.
func (s *Scanner) stopRenewal() {
	if s.renew != nil && s.renew.Stop() {
		s.renewRuns.Add(-1)
	}
}

func (s *Scanner) renewLease() {
	defer s.renewRuns.Add(-1) // last: nothing below touches s after it
	if !s.mu.TryLock() {
		return // Next is talking to the server: that renews the lease
	}
	defer s.mu.Unlock()
	if !s.open || s.closed || s.done || time.Since(s.lastRPC) < s.c.opts.ScanLeaseRenew/2 {
		return
	}
	ctx, cancel := context.WithTimeout(s.c.lifetime, scannerCloseTimeout)
	defer cancel()
	req := wire.ScanRenewRequest(s.id, s.seq)
	_, err := s.conn.CallExtras(ctx, s.extras, "Scan", req, nil, &pb.ScanResponse{}, nil)
	s.lastRPC = time.Now()
	if err != nil {
		s.c.Log.Debug("hbase: renewing scanner lease failed", "addr", s.conn.Addr(), "err", err)
		s.closeServerScanner()
		s.partial = nil
		return
	}
	s.seq++
	s.resetRenewal()
}

// scanCheck decodes a ScanResponse while the region connection still holds its frame
// (region.Checker): a response that does not decode, or whose results are not in scan order,
// resets the connection and is logged with its bytes, and the scan reopens after the last row
// it returned, so no row is skipped or repeated.
type scanCheck struct {
	reversed bool
	meta     bool           // rows in hbase:meta's order (compareRows)
	results  []*hrpc.Result // of the last response that passed
	spare    []*hrpc.Result // the backing array of results, reused from one response to the next
}

func (d *scanCheck) CheckResponse(resp proto.Message, cells []byte) error {
	d.results = nil
	r, ok := resp.(*pb.ScanResponse)
	if !ok {
		return fmt.Errorf("%w: %T for a Scan", wire.ErrBadResponse, resp)
	}
	results, err := hrpcwire.AppendScanResults(d.spare[:0], r, cells)
	if err != nil {
		return err
	}
	d.spare = results
	var prev []byte
	for i, res := range results {
		if len(res.Cells) == 0 {
			continue
		}
		row := res.Cells[0].Row
		if prev != nil {
			if c := compareRows(d.meta, prev, row); (c > 0 && !d.reversed) || (c < 0 && d.reversed) {
				return fmt.Errorf("%w: scan result %d is row %q, after row %q: out of scan order",
					wire.ErrBadResponse, i, row, prev)
			}
		}
		prev = row
	}
	d.results = results
	return nil
}

// compareRows compares two rows of one table in the order its server keeps them: byte order,
// but hbase:meta's own order for hbase:meta (internal/metarow), whose rows are region names
// compared part by part. A check in byte order takes hbase:meta's correct answers for corrupt
// ones (its first region "t,,id" sorts before "t,\x00,id"), and a scan reopened after such a
// row would drop the rows after it as returned already.
func compareRows(meta bool, a, b []byte) int {
	if meta {
		return metarow.Compare(a, b)
	}
	return bytes.Compare(a, b)
}
