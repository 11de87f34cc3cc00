package engine

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// Scans of consistency Timeline. The first page of the scan in each region is a hedged read,
// as a Get is (hedge.go): the open request goes to the primary, and to the secondaries when
// the primary has not answered within the hedge delay. The scan then stays on the replica
// that answered, for the rest of the region and for any reopen in it, as Java's
// AsyncClientScanner does: rows of one replica are not mixed with rows of another, which may
// be at another point of the region's history.

// findTimeline is findRegion for a Timeline scan: a cached region with secondaries is
// returned even while it is out of service (conn nil), so that the scan goes to a
// secondary instead of waiting for the primary to come back.
func (c *Client) findTimeline(ctx context.Context, table string, key []byte, before bool) (*regionInfo, *region.Client, error) {
	var r *regionInfo
	if before {
		r = c.cache.getBefore(wire.TableBytes(table), key)
	} else {
		r = c.cache.get(wire.TableBytes(table), key)
	}
	if r != nil && len(r.secondaryReplicas()) > 0 {
		if conn, _, gone := r.state(); !gone {
			return r, conn, nil
		}
	}
	return c.findRegion(ctx, table, key, before)
}

// replicaOf reports whether rep is a secondary replica of the region primary.
func replicaOf(rep, primary *regionInfo) bool {
	return rep != nil && rep.replicaID > 0 && rep.id == primary.id &&
		bytes.Equal(rep.table, primary.table) && bytes.Equal(rep.start, primary.start) && bytes.Equal(rep.end, primary.end)
}

// sameRegion reports whether the scanner's region a and the region b found for its next
// open are the same region (a may be a secondary replica of b).
func sameRegion(a, b *regionInfo) bool {
	return a != nil && (bytes.Equal(a.name, b.name) || replicaOf(a, b))
}

// scanRace is the hedged open of one Timeline scan in one region.
type scanRace struct {
	s *Scanner
	// c and extras are the scanner's, taken when the race starts: the hedge timer's launch
	// may run after openTimeline returned and the Scanner went back to the pool (zeroed),
	// so it must not read them through s.
	c        *Client
	extras   region.Extras
	primary  *regionInfo
	reps     []*regionInfo
	w        *primaryWindow // the primary server's latency (hedge.go)
	delay    time.Duration
	down     bool // the primary is out of service: the secondaries are asked at once
	start    time.Time
	open     wire.ReplicaOpen
	chk      scanCheck          // the legs' checks start as copies of it
	pcancel  context.CancelFunc // ends the primary's open once a secondary won
	legsCtx  context.Context    // the secondaries' legs run under it
	legsDone context.CancelFunc

	mu          sync.Mutex
	won         *scanLeg // the secondary that answered first
	primaryWon  bool
	primaryDone bool
	launched    int
	pending     int
	lastErr     error
	done        chan struct{} // closed once a secondary won, or every leg ended after the primary's
	closed      bool
	settled     bool        // the primary's leg ended: no hedge unless forced
	timer       *time.Timer // the pending decision to hedge
}

func (r *scanRace) finish() {
	if !r.closed {
		r.closed = true
		close(r.done)
	}
}

// scanLeg is the answer of one secondary replica to a Timeline scan's open request.
type scanLeg struct {
	rep   *regionInfo
	conn  *region.Client
	resp  *pb.ScanResponse
	check *scanCheck
}

// fromReplica marks r, a row of a Timeline scan about to be returned, with the replica that
// read it and whether the region's first page was hedged, and counts it when it is stale
// (Stats.StaleScanRows: a row counts once, whatever the pieces it is returned in).
func (s *Scanner) fromReplica(r *hrpc.Result) {
	r.ReplicaID, r.Hedged = uint16(s.reg.replicaID), s.hedged
	if r.Stale && (s.lastCell == nil || !bytes.Equal(r.Cells[0].Row, s.lastCell.Row)) {
		s.c.hedge.staleScanRows.Add(1)
	}
}

// openTimeline sends the open request req, built for the primary s.reg, as a hedged read.
// On success s.reg and s.conn are the replica that answered (and s.sticky, when it is a
// secondary), resp holds its answer and s.check its results, as after s.call.
func (s *Scanner) openTimeline(ctx context.Context, req *pb.ScanRequest, resp *pb.ScanResponse) error {
	primary := s.reg
	reps := primary.secondaryReplicas()
	if rep := s.stickyReplica(primary, reps); rep != nil {
		return s.openOn(ctx, rep, req, resp) // reopening in the region: the same secondary
	}
	s.hedged = false
	if len(reps) == 0 {
		if s.conn == nil {
			return fmt.Errorf("%w: region %s is out of service and has no replica", hberr.ErrRegionUnavailable, quoteBytes(primary.name))
		}
		return s.call(ctx, req, resp)
	}
	race := s.newScanRace(ctx, primary, reps, req)
	defer race.legsDone()
	pctx, pcancel := context.WithCancel(ctx)
	defer pcancel()
	race.pcancel = pcancel
	hedged, err := race.openOnPrimary(ctx, pctx, req, resp)
	s.hedged = hedged
	if !hedged {
		return err // no hedge went out: the primary's answer (or failure) is the scan's
	}
	won, done := race.settle(ctx, err)
	if done {
		return nil // the primary won
	}
	if won == nil {
		return race.noWinner(ctx, err)
	}
	race.adoptWinner(ctx, won, err, resp)
	return nil
}

// stickyReplica returns the secondary of primary the scan stays on, where it is now; nil when
// the scan is not on one (a replica it stayed on that is gone loses its read point, which
// means nothing elsewhere).
func (s *Scanner) stickyReplica(primary *regionInfo, reps []*regionInfo) *regionInfo {
	if s.sticky != nil && replicaOf(s.sticky, primary) {
		for _, rep := range reps {
			if rep.replicaID == s.sticky.replicaID {
				return rep
			}
		}
	}
	if s.sticky != nil {
		s.readPoint, s.spec.MvccReadPoint = 0, nil
	}
	s.sticky = nil
	return nil
}

// newScanRace prepares the hedged open of req on primary and its secondaries reps.
func (s *Scanner) newScanRace(ctx context.Context, primary *regionInfo, reps []*regionInfo, req *pb.ScanRequest) *scanRace {
	h := s.c.hedge
	h.earn()
	w := h.window(primary.location())
	race := &scanRace{s: s, c: s.c, extras: s.extras, primary: primary, reps: reps, w: w, delay: h.delayFor(w), down: s.conn == nil,
		start: time.Now(), open: wire.NewReplicaOpen(req), done: make(chan struct{}),
		chk: scanCheck{reversed: s.check.reversed, meta: s.check.meta}}
	race.legsCtx, race.legsDone = context.WithCancel(ctx)
	return race
}

// openOnPrimary sends the open request to the primary (pctx: ended once a secondary won),
// with the hedge timer running, and launches the secondaries when it is down or failed. It
// returns whether any secondary was asked, and the primary's error.
func (r *scanRace) openOnPrimary(ctx, pctx context.Context, req *pb.ScanRequest, resp *pb.ScanResponse) (hedged bool, _ error) {
	if r.down {
		r.launch(true)
		return true, fmt.Errorf("%w: region %s is out of service", hberr.ErrRegionUnavailable, quoteBytes(r.primary.name))
	}
	r.mu.Lock()
	r.timer = time.AfterFunc(r.delay, func() { r.launch(false) })
	r.mu.Unlock()
	err := r.s.call(pctx, req, resp)
	if err == nil {
		r.w.answered(time.Now(), time.Since(r.start))
	}
	r.mu.Lock()
	r.settled = true
	r.timer.Stop()
	launched := r.launched
	r.mu.Unlock()
	if launched == 0 && (err == nil || !hedgeAfterFailure(ctx, err)) {
		return false, err
	}
	if err != nil && hedgeAfterFailure(ctx, err) {
		r.launch(true)
	}
	return true, err
}

// launch sends the open request to every secondary, unless one went out already, the primary
// won, or (not forced) the primary's leg ended or the hedge budget refuses it while the
// primary's server answers (then it looks again when the server would be silent: hedge.go).
func (r *scanRace) launch(force bool) {
	h := r.c.hedge
	r.mu.Lock()
	if r.launched > 0 || r.primaryWon || (r.settled && !force) {
		r.mu.Unlock()
		return
	}
	if !force {
		if wait := r.w.silentIn(time.Now(), r.delay); wait > 0 && !h.spend() {
			r.timer = time.AfterFunc(wait, func() { r.launch(false) })
			r.mu.Unlock()
			return
		}
	}
	r.launched, r.pending = len(r.reps), len(r.reps)
	r.mu.Unlock()
	h.sent.Add(uint64(len(r.reps)))
	for _, rep := range r.reps {
		chk := r.chk
		req := r.open.Request(rep.name)
		if !r.c.spawn(func() { r.c.runScanLeg(r.legsCtx, r, rep, req, &chk, r.extras) }) {
			r.mu.Lock()
			r.pending--
			r.lastErr = hberr.ErrClosed
			if r.pending == 0 && r.primaryDone {
				r.finish()
			}
			r.mu.Unlock()
		}
	}
}

// settle ends the race for the primary's outcome err: done when the primary won; otherwise
// it waits for the secondaries and returns the one that won (nil: none).
func (r *scanRace) settle(ctx context.Context, err error) (won *scanLeg, done bool) {
	r.mu.Lock()
	if r.won == nil && err == nil {
		r.primaryWon = true // the legs close whatever they open from now on
		r.finish()
		launched := r.launched
		r.mu.Unlock()
		r.legsDone()
		r.s.c.hedgeScanEvent(ctx, r.s.table, r.primary, r.delay, launched, 0)
		return nil, true
	}
	r.primaryDone = true
	if r.won == nil && (r.pending == 0 || ctx.Err() != nil) {
		r.finish()
	}
	r.mu.Unlock()
	select {
	case <-r.done:
	case <-ctx.Done():
	}
	r.mu.Lock()
	won = r.won
	r.primaryWon = won == nil // nothing may win any more: the legs close what they open
	r.mu.Unlock()
	return won, false
}

// noWinner is the error of an open nothing answered: the primary's, or the last leg's.
func (r *scanRace) noWinner(ctx context.Context, err error) error {
	r.mu.Lock()
	launched, lastErr := r.launched, r.lastErr
	r.mu.Unlock()
	if err == nil {
		err = lastErr
	}
	if ctx.Err() != nil {
		return CtxErr(ctx, err)
	}
	r.s.c.hedgeScanEvent(ctx, r.s.table, r.primary, r.delay, launched, -1)
	return err
}

// adoptWinner continues the scan on the secondary that won; err is the primary's outcome:
// a scanner the primary opened as well is closed.
func (r *scanRace) adoptWinner(ctx context.Context, won *scanLeg, err error, resp *pb.ScanResponse) {
	s := r.s
	if err == nil {
		s.open = true
		s.id = s.flags.scannerID
		if s.id != noScannerID && resp.GetMoreResultsInRegion() {
			s.closeServerScanner()
		}
		s.open = false
	}
	if !r.down {
		r.w.sample(time.Now(), time.Since(r.start)) // at least: see primaryWindow.sample
	}
	r.mu.Lock()
	launched := r.launched
	r.mu.Unlock()
	s.c.hedgeScanEvent(ctx, s.table, r.primary, r.delay, launched, won.rep.replicaID)
	s.adopt(won)
}

// adopt makes the scanner continue on the secondary leg that won: its region and
// connection, its response merged into the scanner's own (reset first: the primary's leg
// may have filled some of it), its results.
func (s *Scanner) adopt(leg *scanLeg) {
	s.reg, s.conn, s.sticky = leg.rep, leg.conn, leg.rep
	s.readPoint = 0 // the step takes the secondary's, which its answer carries
	resp := s.nextResponse()
	if b, err := proto.Marshal(leg.resp); err == nil {
		_ = proto.UnmarshalOptions{Merge: true}.Unmarshal(b, resp) // a message just encoded
	}
	s.check.results = leg.check.results
	s.c.hedge.won.Add(1)
}

// openOn opens the scan on secondary rep directly (the replica the scan stays on).
func (s *Scanner) openOn(ctx context.Context, rep *regionInfo, req *pb.ScanRequest, resp *pb.ScanResponse) error {
	conn, err := s.c.conn(ctx, rep.addr)
	if err != nil {
		return err
	}
	s.reg, s.conn = rep, conn
	req.Region = wire.RegionSpecifier(rep.name)
	return s.call(ctx, req, resp)
}

// runScanLeg sends a Timeline scan's open request to secondary rep and files the answer.
func (c *Client) runScanLeg(ctx context.Context, race *scanRace, rep *regionInfo, req *pb.ScanRequest,
	chk *scanCheck, x region.Extras) {
	rep, conn, resp, err := c.openOnReplica(ctx, race.primary, rep, req, chk, x)
	race.mu.Lock()
	defer race.mu.Unlock()
	race.pending--
	switch {
	case err == nil && race.won == nil && !race.primaryWon:
		race.won = &scanLeg{rep: rep, conn: conn, resp: resp, check: chk}
		race.pcancel()
		race.finish()
		return
	case err == nil:
		// Lost: close the scanner this replica opened, if it keeps one.
		if id := resp.GetScannerId(); resp.ScannerId != nil && resp.GetMoreResultsInRegion() {
			c.spawn(func() {
				cctx, cancel := context.WithTimeout(c.lifetime, scannerCloseTimeout)
				defer cancel()
				_, _ = conn.CallExtras(cctx, x, "Scan", wire.ScanCloseRequest(id), nil, &pb.ScanResponse{}, nil)
			})
		}
	default:
		race.lastErr = err
	}
	if race.pending == 0 && race.primaryDone {
		race.finish()
	}
}

// openOnReplica sends a Timeline scan's open request req (which names the replica's region)
// to secondary rep of the region primary, following the replica where it went as a Get's
// leg does (nextReplica), and returns the replica that answered, its connection and answer.
func (c *Client) openOnReplica(ctx context.Context, primary, rep *regionInfo, req *pb.ScanRequest, chk *scanCheck,
	x region.Extras) (*regionInfo, *region.Client, *pb.ScanResponse, error) {
	fresh := *chk // each attempt checks its answer from the start
	var conn *region.Client
	var resp *pb.ScanResponse
	rep, err := c.onReplica(ctx, primary, rep, func(rep *regionInfo) error {
		*chk = fresh
		var err error
		if conn, err = c.conn(ctx, rep.addr); err != nil {
			return replicaDialError{err}
		}
		resp = &pb.ScanResponse{}
		_, err = conn.CallExtras(ctx, x, "Scan", req, nil, resp, chk)
		return err
	})
	if err != nil {
		return rep, nil, nil, err
	}
	return rep, conn, resp, nil
}

// hedgeScanEvent reports a Timeline scan's hedged open to the hooks.
func (c *Client) hedgeScanEvent(ctx context.Context, table string, r *regionInfo, delay time.Duration, sent, winner int) {
	if c.Hooks == nil || c.Hooks.Hedge == nil || sent == 0 {
		return
	}
	c.Hooks.Hedge(ctx, hbasetrace.HedgeInfo{Op: "Scan", Table: table, Region: r.name, Primary: r.location(),
		Delay: delay, Sent: sent, Winner: winner})
}
