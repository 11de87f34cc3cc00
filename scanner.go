package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/pb"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// scannerCloseTimeout bounds the close_scanner RPC sent by Close or after a cancelled Next.
const scannerCloseTimeout = 5 * time.Second

// Scanner returns the rows of a Scan one at a time, region after region (in reverse order for
// a reversed scan). It is not safe for concurrent use, except for Close.
//
// Rows are whole: pieces of a wide row the server sends separately are reassembled (unless
// the Scan allows partial results or sets a batch size). When a region moves or splits, or the
// server-side scanner expires, the Scanner reopens the scan just after the last row it
// returned, so no row is returned twice or skipped.
type Scanner struct {
	c        *Client
	table    []byte
	spec     *pb.Scan // start_row/include_start_row advance as rows are returned
	reversed bool
	whole    bool   // reassemble partial results into whole rows
	limit    uint32 // rows still allowed; 0 means no limit
	hasLimit bool
	rows     uint32 // rows per RPC

	ctx    context.Context // ends when the Scan's context ends or Close is called
	cancel context.CancelFunc
	stopAF func() bool

	mu        sync.Mutex
	reg       *regionInfo
	conn      *region.Client
	id        uint64
	open      bool // a server-side scanner is open at (reg, conn, id)
	seq       uint64
	readPoint uint64 // mvcc read point of the open region, reused when reopening in it
	lastRPC   time.Time
	renew     *time.Timer

	buf     []*hrpc.Result
	partial *hrpc.Result // pieces of a row not complete yet
	lastRow []byte       // the last row returned
	done    bool
	err     error
	closed  bool
}

// Scan starts scan s. Nothing is sent until the first Next. The server-side scanner is closed
// when the scan ends, when Close is called, and when ctx ends.
func (c *Client) Scan(ctx context.Context, s *hrpc.Scan) *Scanner {
	sc := &Scanner{c: c}
	if s == nil {
		sc.err, sc.done = fmt.Errorf("%w: nil Scan", ErrBadRequest), true
		return sc
	}
	sc.table = s.Table()
	sc.spec = s.ScanProto()
	sc.reversed = s.Reversed()
	sc.whole = !s.AllowPartialResults() && s.BatchSize() == 0
	sc.limit, sc.hasLimit = s.Limit(), s.Limit() > 0
	sc.rows = s.NumberOfRows()
	if c.isClosed() {
		sc.err, sc.done = ErrClosed, true
		return sc
	}
	sc.ctx, sc.cancel = context.WithCancel(ctx)
	sc.stopAF = context.AfterFunc(sc.ctx, func() { sc.Close() })
	return sc
}

// Next returns the next row, or io.EOF after the last one and after Close (a Next that Close
// or the Scan's context interrupts returns context.Canceled). An error of the Next's own ctx
// leaves the scan usable: the next Next reopens it after the last row returned. Any other
// error ends the scan.
func (s *Scanner) Next(ctx context.Context) (*hrpc.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if len(s.buf) > 0 {
			r := s.buf[0]
			s.buf[0] = nil
			s.buf = s.buf[1:]
			return r, nil
		}
		if s.done || s.closed {
			if s.err != nil {
				return nil, s.err
			}
			return nil, io.EOF
		}
		if err := s.fetch(ctx); err != nil {
			return nil, err
		}
	}
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
	s.buf = nil
	if s.renew != nil {
		s.renew.Stop()
	}
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
	conn, id := s.conn, s.id
	s.c.spawn(func() {
		ctx, cancel := context.WithTimeout(s.c.lifetime, scannerCloseTimeout)
		defer cancel()
		req := &pb.ScanRequest{ScannerId: proto.Uint64(id), CloseScanner: proto.Bool(true),
			NumberOfRows: proto.Uint32(0)}
		if _, err := conn.Call(ctx, "Scan", req, nil, &pb.ScanResponse{}); err != nil {
			s.c.log.Debug("hbase: closing scanner failed", "addr", conn.Addr(), "err", err)
		}
	})
}

// fetch runs RPCs until it has rows to return or the scan is over.
func (s *Scanner) fetch(ctx context.Context) error {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	b := s.c.newBackoff()
	var last error
	expired, relocations := 0, 0
	for len(s.buf) == 0 && !s.done {
		if s.c.isClosed() {
			return s.fail(ErrClosed)
		}
		if err := rctx.Err(); err != nil {
			return s.stopped(ctx, last)
		}
		err := s.step(rctx)
		if err == nil {
			continue
		}
		if s.c.isClosed() {
			return s.fail(ErrClosed)
		}
		if rctx.Err() != nil {
			return s.stopped(ctx, last)
		}
		last = err
		if errors.Is(err, region.ErrScannerExpired) {
			// The server dropped the scanner (lease expired, reset, out of order): reopen
			// just after the last row returned.
			s.closeServerScanner()
			s.partial = nil
			if expired++; expired > 1 && b.sleep(rctx) != nil {
				return s.stopped(ctx, last)
			}
			continue
		}
		switch act := classify(err); act {
		case giveUp:
			if s.open {
				s.closeServerScanner()
			}
			return s.fail(err)
		case relocate, pauseAndRelocate:
			rpcFailed := s.conn != nil // else the region lookup itself failed
			if rpcFailed {
				s.c.markUnavailable(s.reg, s.conn)
			}
			s.open, s.partial, s.conn = false, nil, nil
			if relocations++; !rpcFailed || act == pauseAndRelocate || relocations > 1 {
				if b.sleep(rctx) != nil {
					return s.stopped(ctx, last)
				}
			}
		case pause:
			if b.sleep(rctx) != nil {
				return s.stopped(ctx, last)
			}
		}
	}
	s.armRenewal()
	return nil
}

// stopped handles a Next whose context (or the Scan's) ended: the server-side scanner is in
// an unknown state, so it is closed, and the scan ends if the Scan's context ended.
func (s *Scanner) stopped(ctx context.Context, last error) error {
	if s.open {
		s.closeServerScanner()
		s.partial = nil
	}
	if s.ctx.Err() != nil && ctx.Err() == nil {
		return s.fail(ctxErr(s.ctx, last))
	}
	return ctxErr(ctx, last)
}

func (s *Scanner) fail(err error) error {
	s.err, s.done = err, true
	if s.renew != nil {
		s.renew.Stop()
	}
	return err
}

// step sends one ScanRequest (opening a scanner in the right region if none is open) and
// files its results.
func (s *Scanner) step(ctx context.Context) error {
	var req *pb.ScanRequest
	if !s.open {
		before := s.reversed && (len(s.spec.StartRow) == 0 || !s.spec.GetIncludeStartRow())
		s.conn = nil
		r, conn, err := s.c.findRegion(ctx, s.table, s.spec.StartRow, before)
		if err != nil {
			return err
		}
		if s.reg == nil || !bytes.Equal(s.reg.name, r.name) {
			s.readPoint = 0
		}
		s.reg, s.conn = r, conn
		if s.readPoint != 0 {
			s.spec.MvccReadPoint = proto.Uint64(s.readPoint)
		} else {
			s.spec.MvccReadPoint = nil
		}
		req = &pb.ScanRequest{
			Region:                  &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: r.name},
			Scan:                    s.spec,
			NumberOfRows:            proto.Uint32(s.rows),
			ClientHandlesPartials:   proto.Bool(true),
			ClientHandlesHeartbeats: proto.Bool(true),
		}
	} else {
		req = &pb.ScanRequest{
			ScannerId:               proto.Uint64(s.id),
			NumberOfRows:            proto.Uint32(s.rows),
			NextCallSeq:             proto.Uint64(s.seq),
			ClientHandlesPartials:   proto.Bool(true),
			ClientHandlesHeartbeats: proto.Bool(true),
		}
	}
	if s.hasLimit {
		req.LimitOfRows = proto.Uint32(s.limit)
	}
	resp := &pb.ScanResponse{}
	cells, err := s.conn.Call(ctx, "Scan", req, nil, resp)
	s.lastRPC = time.Now()
	if err != nil {
		return err
	}
	if !s.open {
		if resp.ScannerId == nil && resp.GetMoreResultsInRegion() {
			return fmt.Errorf("%w: ScanResponse opening a scanner has no scanner id", hrpc.ErrBadResponse)
		}
		s.id, s.open, s.seq = resp.GetScannerId(), true, 0
		if resp.MvccReadPoint != nil && s.readPoint == 0 {
			s.readPoint = resp.GetMvccReadPoint()
		}
	} else {
		s.seq++
	}
	results, err := hrpc.ParseScanResponse(resp, cells)
	if err != nil {
		// The server moved on; the results are lost: reopen after the last row returned.
		s.closeServerScanner()
		return fmt.Errorf("%w: %w", region.ErrScannerExpired, err)
	}
	for _, r := range results {
		s.add(r)
	}
	switch {
	case resp.MoreResults != nil && !resp.GetMoreResults():
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

// add files one result of a response: whole rows go to the buffer, pieces of a row are
// gathered until the row is complete.
func (s *Scanner) add(r *hrpc.Result) {
	if len(r.Cells) == 0 {
		return
	}
	if !s.whole {
		s.emit(r)
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
		c := bytes.Compare(row, s.lastRow)
		if (!s.reversed && c <= 0) || (s.reversed && c >= 0) {
			return // already returned before a reopen
		}
	}
	if s.hasLimit {
		if s.limit == 0 {
			return
		}
		s.limit--
	}
	s.buf = append(s.buf, r)
	s.lastRow = row
	if s.whole || !r.Partial {
		s.spec.StartRow = row
		s.spec.IncludeStartRow = proto.Bool(false)
	}
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
		s.spec.IncludeStartRow = proto.Bool(false)
	}
	s.readPoint = 0
}

// armRenewal renews the server-side scanner's lease if the caller does not come back for the
// next rows in time (the server drops idle scanners after hbase.client.scanner.timeout.period).
func (s *Scanner) armRenewal() {
	if !s.open || s.done {
		return
	}
	if s.renew != nil {
		s.renew.Reset(s.c.opts.scanLeaseRenew)
		return
	}
	s.renew = time.AfterFunc(s.c.opts.scanLeaseRenew, s.renewLease)
}

func (s *Scanner) renewLease() {
	if !s.mu.TryLock() {
		return // Next is talking to the server: that renews the lease
	}
	defer s.mu.Unlock()
	if !s.open || s.closed || s.done || time.Since(s.lastRPC) < s.c.opts.scanLeaseRenew/2 {
		return
	}
	ctx, cancel := context.WithTimeout(s.c.lifetime, scannerCloseTimeout)
	defer cancel()
	req := &pb.ScanRequest{ScannerId: proto.Uint64(s.id), Renew: proto.Bool(true),
		NextCallSeq: proto.Uint64(s.seq), NumberOfRows: proto.Uint32(0)}
	_, err := s.conn.Call(ctx, "Scan", req, nil, &pb.ScanResponse{})
	s.lastRPC = time.Now()
	if err != nil {
		s.c.log.Debug("hbase: renewing scanner lease failed", "addr", s.conn.Addr(), "err", err)
		s.closeServerScanner()
		s.partial = nil
		return
	}
	s.seq++
	s.renew.Reset(s.c.opts.scanLeaseRenew)
}
