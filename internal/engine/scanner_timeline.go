package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
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
func (c *Client) findTimeline(ctx context.Context, table, key []byte, before bool) (*regionInfo, *region.Client, error) {
	var r *regionInfo
	if before {
		r = c.cache.getBefore(table, key)
	} else {
		r = c.cache.get(table, key)
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

// openTimeline sends the open request req, built for the primary s.reg, as a hedged read.
// On success s.reg and s.conn are the replica that answered (and s.sticky, when it is a
// secondary), resp holds its answer and s.check its results, as after s.call.
func (s *Scanner) openTimeline(ctx context.Context, req *pb.ScanRequest, resp *pb.ScanResponse) error {
	primary := s.reg
	reps := primary.secondaryReplicas()
	if s.sticky != nil && replicaOf(s.sticky, primary) {
		// Reopening in the region: the same secondary, where it is now.
		for _, rep := range reps {
			if rep.replicaID == s.sticky.replicaID {
				return s.openOn(ctx, rep, req, resp)
			}
		}
	}
	if s.sticky != nil {
		// The replica the scan stayed on is gone: its read point means nothing elsewhere.
		s.readPoint, s.spec.MvccReadPoint = 0, nil
	}
	s.sticky = nil
	if len(reps) == 0 {
		if s.conn == nil {
			return fmt.Errorf("%w: region %s is out of service and has no replica", hberr.ErrRegionUnavailable, quoteBytes(primary.name))
		}
		return s.call(ctx, req, resp)
	}
	h := s.c.hedge
	h.earn()
	w := h.window(primary.location())
	delay := h.delayFor(w)
	down := s.conn == nil

	// The secondaries' requests share a copy of the scan spec: the scanner changes its own
	// once this returns, while a losing leg may still be encoding.
	spec := proto.Clone(req.GetScan()).(*pb.Scan)
	// A read point is the primary's (a reopen in the region after its first page): a
	// secondary's reads are numbered its own way, so it opens without one and gives its own.
	spec.MvccReadPoint = nil
	// So do the request's own fields: pointers into the scanner's reused request.
	numRows, limit := copyOf(req.NumberOfRows), copyOf(req.LimitOfRows)
	partials, heartbeats, metrics := copyOf(req.ClientHandlesPartials), copyOf(req.ClientHandlesHeartbeats), copyOf(req.TrackScanMetrics)
	race := &scanRace{done: make(chan struct{})}
	pctx, pcancel := context.WithCancel(ctx)
	defer pcancel()
	sctx, scancel := context.WithCancel(ctx)
	defer scancel()
	chkTemplate := scanCheck{reversed: s.check.reversed, meta: s.check.meta}
	var launch func(force bool)
	launch = func(force bool) {
		race.mu.Lock()
		if race.launched > 0 || race.primaryWon || (race.settled && !force) {
			race.mu.Unlock()
			return
		}
		if !force {
			if wait := w.silentIn(time.Now(), delay); wait > 0 && !h.spend() {
				// Over budget while the primary's server answers: look again when it
				// would be silent (hedge.go).
				race.timer = time.AfterFunc(wait, func() { launch(false) })
				race.mu.Unlock()
				return
			}
		}
		race.launched, race.pending = len(reps), len(reps)
		race.mu.Unlock()
		h.sent.Add(uint64(len(reps)))
		for _, rep := range reps {
			sreq := &pb.ScanRequest{Region: wire.RegionSpecifier(rep.name), Scan: spec,
				NumberOfRows: numRows, LimitOfRows: limit,
				ClientHandlesPartials: partials, ClientHandlesHeartbeats: heartbeats,
				TrackScanMetrics: metrics}
			chk := chkTemplate
			x := s.extras
			if !s.c.spawn(func() { s.c.runScanLeg(sctx, race, primary, rep, sreq, &chk, x, pcancel) }) {
				race.mu.Lock()
				race.pending--
				race.lastErr = hberr.ErrClosed
				if race.pending == 0 && race.primaryDone {
					race.finish()
				}
				race.mu.Unlock()
			}
		}
	}
	var err error
	start := time.Now()
	if down {
		launch(true)
		err = fmt.Errorf("%w: region %s is out of service", hberr.ErrRegionUnavailable, quoteBytes(primary.name))
	} else {
		race.mu.Lock()
		race.timer = time.AfterFunc(delay, func() { launch(false) })
		race.mu.Unlock()
		err = s.call(pctx, req, resp)
		if err == nil {
			w.answered(time.Now(), time.Since(start))
		}
		race.mu.Lock()
		race.settled = true
		race.timer.Stop()
		launched := race.launched
		race.mu.Unlock()
		if launched == 0 && (err == nil || !hedgeAfterFailure(ctx, err)) {
			return err // no hedge went out: the primary's answer (or failure) is the scan's
		}
		if err != nil && hedgeAfterFailure(ctx, err) {
			launch(true)
		}
	}
	race.mu.Lock()
	if race.won == nil && err == nil {
		race.primaryWon = true // the legs close whatever they open from now on
		race.finish()
		launched := race.launched
		race.mu.Unlock()
		scancel()
		s.c.hedgeScanEvent(ctx, primary, delay, launched, 0)
		return nil
	}
	race.primaryDone = true
	if race.won == nil && (race.pending == 0 || ctx.Err() != nil) {
		race.finish()
	}
	race.mu.Unlock()
	select {
	case <-race.done:
	case <-ctx.Done():
	}
	race.mu.Lock()
	won, launched, lastErr := race.won, race.launched, race.lastErr
	race.primaryWon = won == nil // nothing may win any more: the legs close what they open
	race.mu.Unlock()
	if won == nil {
		if err == nil {
			err = lastErr
		}
		if ctx.Err() != nil {
			return CtxErr(ctx, err)
		}
		s.c.hedgeScanEvent(ctx, primary, delay, launched, -1)
		return err
	}
	if err == nil {
		// The primary answered too, as the secondary won: close the scanner it opened.
		s.open = true
		s.id = s.flags.scannerID
		if s.id != noScannerID && resp.GetMoreResultsInRegion() {
			s.closeServerScanner()
		}
		s.open = false
	}
	if !down {
		w.sample(time.Now(), time.Since(start)) // at least: see primaryWindow.sample
	}
	s.c.hedgeScanEvent(ctx, primary, delay, launched, won.rep.replicaID)
	s.adopt(won)
	return nil
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
func (c *Client) runScanLeg(ctx context.Context, race *scanRace, primary, rep *regionInfo, req *pb.ScanRequest,
	chk *scanCheck, x region.Extras, pcancel context.CancelFunc) {
	conn, err := c.conn(ctx, rep.addr)
	var resp *pb.ScanResponse
	if err == nil {
		resp = &pb.ScanResponse{}
		_, err = conn.CallExtras(ctx, x, "Scan", req, nil, resp, chk)
	}
	race.mu.Lock()
	defer race.mu.Unlock()
	race.pending--
	switch {
	case err == nil && race.won == nil && !race.primaryWon:
		race.won = &scanLeg{rep: rep, conn: conn, resp: resp, check: chk}
		pcancel()
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
		if errors.Is(err, hberr.ErrRegionUnavailable) || Classify(err) == Relocate || Classify(err) == PauseAndRelocate {
			c.refreshReplicas(primary)
		}
	}
	if race.pending == 0 && race.primaryDone {
		race.finish()
	}
}

// hedgeScanEvent reports a Timeline scan's hedged open to the hooks.
func (c *Client) hedgeScanEvent(ctx context.Context, r *regionInfo, delay time.Duration, sent, winner int) {
	if c.Hooks == nil || c.Hooks.Hedge == nil || sent == 0 {
		return
	}
	c.Hooks.Hedge(ctx, hbasetrace.HedgeInfo{Op: "Scan", Table: r.table, Region: r.name, Primary: r.location(),
		Delay: delay, Sent: sent, Winner: winner})
}

// copyOf returns a pointer to a copy of *p, or nil.
func copyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
