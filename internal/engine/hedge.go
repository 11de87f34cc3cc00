package engine

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/histogram"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// Hedged reads. A read of consistency Timeline goes to the region's primary replica; if no
// answer came within the hedge delay, it goes to every secondary replica as well, and the
// first answer wins (the others are cancelled through their context). This is what Java's
// RpcRetryingCallerWithReadReplicas and ConnectionUtils.timelineConsistentRead do, with
// hbase.client.primaryCallTimeout.get (10 ms) as the delay.
//
// Two things are this client's own:
//   - the delay may follow the primary server (WithAdaptiveHedging): the 95th percentile of
//     its recent Timeline Gets, between a floor and a ceiling;
//   - hedges are capped (WithHedgeBudget): at most a share of Timeline reads (10%) may send
//     hedges while their primary's server is answering, so that a cluster that is merely slow
//     is not sent twice the reads. A primary that is down (its region out of service in the
//     cache), silent (no answer to any Timeline read for silentAfter: twice the delay, at
//     least 5 ms and 3 times the server's recent 99th percentile) or that failed the read is
//     hedged whatever the budget: that is what replicas are for. A slow server under load
//     keeps answering (earlier reads), and one read at a time answers within its usual
//     latency, so its reads stay within the budget; a partitioned one answers nothing, so a
//     read refused by the budget is hedged once the server has been silent that long.
//   - a primary server that lags its peers is hedged whatever the budget too (lagging): its
//     recent 95th percentile is past the hedge delay and at least lagRatio times the middle
//     one of the other servers the client reads from (as primaries, or as secondaries that
//     answered hedges). Such hedges move reads from the one slow server to healthy ones
//     rather than doubling a slow cluster's load: when most servers are slow, none lags the
//     others, and the budget holds. With the adaptive delay, a lagging server's reads are
//     hedged after its peers' 95th percentile rather than its own: its own is the slowness.
//     It keeps lagging while at least lagLateShare of its reads are late (past the delay),
//     since a hedged read's latency is only known to be at least the time a secondary took.

const (
	// DefaultHedgeDelay is the fixed hedge delay: Java's hbase.client.primaryCallTimeout.get.
	DefaultHedgeDelay = 10 * time.Millisecond
	// DefaultHedgeBudget is the default share of Timeline reads that may send hedges.
	DefaultHedgeBudget = 0.1

	// hedgeBurst is how many hedges the budget lets through at once, after a quiet time.
	hedgeBurst = 10
	// hedgeWindow is how long the latency of a primary server counts for its adaptive delay:
	// the percentile is read from the samples of the last one to two windows.
	hedgeWindow = 5 * time.Second
	// hedgeMinSamples is how many answers of a server its adaptive delay needs; before, the
	// fixed delay applies.
	hedgeMinSamples = 50
	// hedgeQuantile is the percentile of the adaptive delay (see WithAdaptiveHedging).
	hedgeQuantile = 95.0
	// hedgeHistMax is the longest latency a primary window's histograms count, in µs: a
	// minute (longer answers count as a minute), at 2 significant digits (11 KB each).
	hedgeHistMax = int64(time.Minute / time.Microsecond)
	// silenceMinSamples is how many answers of a server its silence threshold needs.
	silenceMinSamples = 4
	// minSilentAfter is the least silence that makes a primary silent (silentAfter).
	minSilentAfter = 5 * time.Millisecond
	// lagRatio is how many times its peers' 95th percentile a primary server's must be for
	// the server to lag them (lagging).
	lagRatio = 4
	// lagLateShare is the share of its reads past the hedge delay that keeps a lagging server
	// lagging: 4 times the 5% the adaptive delay aims at.
	lagLateShare = 0.2
	// lagRecheck is how often a server's lag is judged again.
	lagRecheck = 250 * time.Millisecond
)

// HedgeConfig are the hedging settings of a client.
type HedgeConfig struct {
	Delay          time.Duration
	Adaptive       bool
	Floor, Ceiling time.Duration
	Budget         float64
}

func DefaultHedgeConfig() HedgeConfig {
	return HedgeConfig{Delay: DefaultHedgeDelay, Budget: DefaultHedgeBudget}
}

// hedger keeps what hedging needs across reads: the budget, the primary servers' recent
// latency and answers, the counters of Stats.
type hedger struct {
	opts    HedgeConfig
	credit  int64        // milli-hedges one Timeline read adds to the budget
	tokens  atomic.Int64 // milli-hedges available
	servers sync.Map     // host:port → *primaryWindow

	refreshing sync.Map // region name → *replicaRefresh: a re-read of its replicas under way

	// races are hedgeRaces whose read ended before their timer fired: nothing else refers
	// to them, and their timer is made already.
	races sync.Pool

	sent, won, stale atomic.Uint64
	staleScanRows    atomic.Uint64 // Stats.StaleScanRows
}

func newHedger(o HedgeConfig) *hedger {
	h := &hedger{opts: o, credit: int64(o.Budget * 1000)}
	h.tokens.Store(hedgeBurst * 1000)
	return h
}

// earn adds one Timeline read's share to the budget.
func (h *hedger) earn() {
	if h.credit == 0 {
		return
	}
	for {
		t := h.tokens.Load()
		if t >= hedgeBurst*1000 || h.tokens.CompareAndSwap(t, min(t+h.credit, hedgeBurst*1000)) {
			return
		}
	}
}

// spend takes one hedge from the budget, if there is one.
func (h *hedger) spend() bool {
	for {
		t := h.tokens.Load()
		if t < 1000 {
			return false
		}
		if h.tokens.CompareAndSwap(t, t-1000) {
			return true
		}
	}
}

// primaryWindow is what the client knows of one server as a primary of Timeline reads.
type primaryWindow struct {
	lastAnswer atomic.Int64 // unix nanoseconds of its last answer to a Timeline read
	delay      atomic.Int64 // nanoseconds: the adaptive delay's percentile; 0 until known
	p99        atomic.Int64 // nanoseconds: the recent 99th percentile; 0 until known
	lagJudged  atomic.Int64 // unix nanoseconds of the last judgement of lag
	lags       atomic.Bool  // it lagged its peers at that judgement
	peerDelay  atomic.Int64 // nanoseconds: the middle 95th percentile of its peers then

	mu        sync.Mutex
	cur, prev *histogram.Histogram // µs
	since     time.Time            // when cur started
	n         int
	// Reads sampled and reads late (past their hedge delay) in cur and prev.
	reads, late, prevReads, prevLate int
	unsampled                        atomic.Int64 // reads not sampled (sample), not yet in reads
}

func (h *hedger) window(addr string) *primaryWindow {
	v, ok := h.servers.Load(addr)
	if !ok {
		v, _ = h.servers.LoadOrStore(addr, &primaryWindow{})
	}
	return v.(*primaryWindow)
}

// answered records an answer of the server after d. The latency is kept whether or not the
// delay is adaptive: the silence that lifts the budget is measured against it too.
func (w *primaryWindow) answered(now time.Time, d time.Duration) {
	w.lastAnswer.Store(now.UnixNano())
	w.sample(now, d)
}

// sample records a latency of the server: an answer's, or at least d for a read whose
// primary leg was cancelled when a secondary answered first. Without the latter only the
// reads that were not hedged would count, and a server slow for some reads would seem
// faster (and sooner silent) the more of them are hedged.
func (w *primaryWindow) sample(now time.Time, d time.Duration) {
	// A sample is a statistic: while another reader records one, this one is only counted,
	// rather than made to wait for the lock.
	if !w.mu.TryLock() {
		w.unsampled.Add(1)
		return
	}
	defer w.mu.Unlock()
	w.rotate(now)
	w.reads += 1 + int(w.unsampled.Swap(0))
	w.cur.Record(max(int64(d/time.Microsecond), 1)) // clamped to hedgeHistMax
	// The percentiles are read every 16 answers (reading them walks the histogram), and at
	// every answer while they are not known.
	if w.n++; w.n%16 != 0 && w.delay.Load() != 0 {
		return
	}
	src := w.cur
	if w.prev != nil && src.Count() < hedgeMinSamples {
		src = w.prev
	}
	// The silence threshold wants the server's slowness as soon as a few answers show it;
	// the adaptive delay, a percentile that means something.
	if n := src.Count(); n >= silenceMinSamples {
		w.p99.Store(src.Percentile(99) * int64(time.Microsecond))
	}
	if src.Count() >= hedgeMinSamples {
		w.delay.Store(src.Percentile(hedgeQuantile) * int64(time.Microsecond))
	}
}

// rotate starts the window's histograms and counts, or a new window when the current one is
// hedgeWindow old (the oldest goes; its histogram is reused). w.mu is held.
func (w *primaryWindow) rotate(now time.Time) {
	if w.cur == nil {
		w.cur = histogram.New(hedgeHistMax, 2)
		w.since = now
	}
	if now.Sub(w.since) > hedgeWindow {
		if w.prev == nil {
			w.prev = histogram.New(hedgeHistMax, 2)
		}
		w.prev, w.cur = w.cur, w.prev
		w.cur.Reset()
		w.since, w.n = now, 0
		w.prevReads, w.prevLate, w.reads, w.late = w.reads, w.late, 0, 0
	}
}

// noteLate counts a read of the server past its hedge delay.
func (w *primaryWindow) noteLate(now time.Time) {
	w.mu.Lock()
	w.rotate(now)
	w.late++
	w.mu.Unlock()
}

// lateShare is the share of the server's recent reads that were late, or 0 before
// hedgeMinSamples reads.
func (w *primaryWindow) lateShare() float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := w.reads + w.prevReads
	if n < hedgeMinSamples {
		return 0
	}
	return float64(w.late+w.prevLate) / float64(n)
}

// silentAfter is how long a primary server must have answered no Timeline read to be
// silent, for a read of hedge delay d: twice the delay, at least minSilentAfter, and at
// least 3 times the server's recent 99th percentile, so that a server slow for every read
// (each answer later than the delay, one read at a time) is not taken for a silent one.
func (w *primaryWindow) silentAfter(d time.Duration) time.Duration {
	return max(2*d, minSilentAfter, 3*time.Duration(w.p99.Load()))
}

// silentIn returns 0 when the server has answered no Timeline read for silentAfter(d), else
// how long until it will have (unless it answers meanwhile).
func (w *primaryWindow) silentIn(now time.Time, d time.Duration) time.Duration {
	quiet := time.Duration(now.UnixNano() - w.lastAnswer.Load())
	return max(w.silentAfter(d)-quiet, 0)
}

// lagging reports whether w's server lags the other servers the client reads from, for a
// read of hedge delay d (its own, delayFor's): its recent 95th percentile is past d and at
// least lagRatio times the middle one of its peers' (the upper middle of an even count: of
// three servers, two slow ones lag neither the other nor the cluster); or it lagged at the
// last judgement and lagLateShare of its reads are still late. A server with no known peer
// does not lag. The verdict is kept for lagRecheck.
func (h *hedger) lagging(w *primaryWindow, now time.Time, d time.Duration) bool {
	if judged := w.lagJudged.Load(); now.UnixNano()-judged < int64(lagRecheck) {
		return w.lags.Load()
	}
	w.lagJudged.Store(now.UnixNano())
	var peers []time.Duration
	h.servers.Range(func(_, v any) bool {
		if o := v.(*primaryWindow); o != w {
			if q := time.Duration(o.delay.Load()); q > 0 {
				peers = append(peers, q)
			}
		}
		return true
	})
	lags := false
	if len(peers) > 0 {
		slices.Sort(peers)
		mid := peers[len(peers)/2]
		p := time.Duration(w.delay.Load())
		lags = (p > d && p >= lagRatio*mid) || (w.lags.Load() && w.lateShare() >= lagLateShare)
		w.peerDelay.Store(int64(mid))
	}
	w.lags.Store(lags)
	return lags
}

// lagDelay is the hedge delay of a read whose primary server lags: with the adaptive delay,
// its peers' middle 95th percentile within the floor and the ceiling; else the fixed delay.
func (h *hedger) lagDelay(w *primaryWindow) time.Duration {
	if !h.opts.Adaptive {
		return h.opts.Delay
	}
	return min(max(time.Duration(w.peerDelay.Load()), h.opts.Floor), h.opts.Ceiling)
}

// delayFor is the hedge delay of a read whose primary is w's server.
func (h *hedger) delayFor(w *primaryWindow) time.Duration {
	if !h.opts.Adaptive {
		return h.opts.Delay
	}
	d := time.Duration(w.delay.Load())
	if d == 0 {
		return h.opts.Delay
	}
	return min(max(d, h.opts.Floor), h.opts.Ceiling)
}

// hedgeRace is one hedged read: the primary's leg runs in the caller's goroutine, each
// secondary's in a goroutine of its own, started when the delay passed.
type hedgeRace struct {
	mu     sync.Mutex
	done   chan struct{} // closed once a secondary won or every leg failed
	closed bool
	winner int // replica id that answered, -1 while none did
	// winnerRegion and winnerAddr are the secondary that answered, for the hooks' CallDone.
	winnerRegion []byte
	winnerAddr   string
	resp         proto.Message
	cells        []byte
	launched     int // secondary legs started
	failed       int // secondary legs that failed
	lastErr      error
	primaryDone  bool
	settled      bool               // the primary's leg ended: no hedge may go out any more unless forced
	timer        *time.Timer        // the pending decision to hedge; made once per hedgeRace (arm)
	armed        bool               // the timer was started for this read
	cancel       context.CancelFunc // ends the secondaries' legs; nil until they start

	// What the legs need, set once before the race starts: kept here rather than in
	// closures, so that a read the primary answers in time allocates less.
	c       *Client
	ctx     context.Context // the read's
	primary *regionInfo
	reps    []*regionInfo
	call    wire.Call
	w       *primaryWindow
	delay   time.Duration
	lag     bool // the primary's server lags its peers: hedged outside the budget
	// abort ends the primary's leg when closed (abortPrimary): a channel kept with the race
	// while never closed, where a cancellable context would be made for every read.
	abort       chan struct{}
	abortClosed bool

	late        bool      // the delay passed without the primary's answer (counted once)
	start       time.Time // when the read began
	hedgedAt    time.Time // when the secondaries were asked
	primaryAddr string    // the primary's server when the read began
}

func (r *hedgeRace) finish() {
	if !r.closed {
		r.closed = true
		if r.done != nil {
			close(r.done)
		}
	}
}

// newRace returns a hedgeRace ready for a read: a recycled one (whose timer is made once and
// re-armed) or a new one.
func (h *hedger) newRace() *hedgeRace {
	if r, ok := h.races.Get().(*hedgeRace); ok && !r.abortClosed {
		t, abort := r.timer, r.abort
		*r = hedgeRace{winner: -1, timer: t, abort: abort}
		return r
	}
	return &hedgeRace{winner: -1, abort: make(chan struct{})}
}

// abortPrimary ends the primary's leg (a secondary answered). r.mu is held.
func (r *hedgeRace) abortPrimary() {
	if !r.abortClosed {
		r.abortClosed = true
		close(r.abort)
	}
}

// arm starts (or restarts) the race's timer to run onTimer after d. r.mu is held.
func (r *hedgeRace) arm(d time.Duration) {
	if r.timer == nil {
		r.timer = time.AfterFunc(d, r.onTimer)
	} else {
		r.timer.Reset(d)
	}
	r.armed = true
}

// onTimer is the hedge delay (or a budget's refusal) running out.
func (r *hedgeRace) onTimer() { r.c.hedgeOut(r, false) }

// stopLegs cancels the secondaries' legs, if they started.
func (r *hedgeRace) stopLegs() {
	r.mu.Lock()
	cancel := r.cancel
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// TimelineAnswer says which replica answered a Timeline read and whether the read asked the
// secondaries (hrpc.Result's ReplicaID and Hedged).
type TimelineAnswer struct {
	Replica int  // the replica id: 0 for the primary
	Hedged  bool // requests went to the secondaries
}

// SendTimeline sends a Timeline read (a Get): to the primary, then after the hedge delay to
// the secondaries, the first answer winning. A region without secondaries (a table without
// region replication) takes the ordinary path.
func (c *Client) SendTimeline(ctx context.Context, call wire.Call, op string) (proto.Message, []byte, TimelineAnswer, error) {
	h := c.hedge
	r := c.cache.get(call.Table(), call.Key())
	if r == nil {
		// Not cached: look it up first (the lookup reads the replicas' locations too).
		var err error
		if r, _, err = c.findRegion(ctx, call.TableName(), call.Key(), false); err != nil {
			return c.sendPrimary(ctx, call) // the ordinary path retries as it does
		}
	}
	reps := r.secondaryReplicas()
	if len(reps) == 0 {
		return c.sendPrimary(ctx, call)
	}
	h.earn()
	conn, _, _ := r.state() // nil: out of service, the secondaries are asked at once
	if c.observing() {
		// One call for the hooks, whichever replica answers: the primary's leg reports its
		// attempts, the call ends with the read's outcome.
		o := NewCallObs(c, call.Op(), call.TableName(), call.Key())
		ctx = o.Begin(ctx)
		resp, cells, ans, err := c.hedged(ctx, call, op, r, reps, conn, &o)
		o.End(ctx, err)
		return resp, cells, ans, err
	}
	return c.hedged(ctx, call, op, r, reps, conn, nil)
}

// sendPrimary sends a Timeline read the ordinary way, to the primary alone.
func (c *Client) sendPrimary(ctx context.Context, call wire.Call) (proto.Message, []byte, TimelineAnswer, error) {
	resp, cells, err := c.Send(ctx, call)
	return resp, cells, TimelineAnswer{}, err
}

// newHedgeRace prepares the hedged read of call in region r, whose secondaries are reps.
func (c *Client) newHedgeRace(ctx context.Context, call wire.Call, r *regionInfo, reps []*regionInfo) *hedgeRace {
	h := c.hedge
	primary := r.location()
	w := h.window(primary)
	start := time.Now()
	delay := h.delayFor(w)
	lag := h.lagging(w, start, delay)
	if lag {
		delay = h.lagDelay(w)
	}
	race := h.newRace()
	race.c, race.ctx, race.primary, race.reps, race.call = c, ctx, r, reps, call
	race.w, race.delay, race.lag, race.start, race.primaryAddr = w, delay, lag, start, primary
	return race
}

// hedged is sendTimeline's hedged read of region r; o follows the call when observed.
func (c *Client) hedged(ctx context.Context, call wire.Call, op string, r *regionInfo, reps []*regionInfo,
	conn *region.Client, o *CallObs) (proto.Message, []byte, TimelineAnswer, error) {
	h := c.hedge
	race := c.newHedgeRace(ctx, call, r, reps)
	reuse := false
	defer func() {
		if reuse {
			h.races.Put(race)
		}
	}()
	defer race.stopLegs()
	if conn == nil {
		c.hedgeOut(race, true)
	} else {
		race.mu.Lock()
		race.arm(race.delay)
		race.mu.Unlock()
	}
	hint := conn
	if c.Hooks != nil && c.Hooks.RegionCache != nil {
		hint = nil // the hook sees the region cache's lookup
	}
	resp, cells, err := c.run(ctx, &callRun{call: call, first: r, firstConn: hint, stop: race.abort}, o)
	now := time.Now()
	if err == nil {
		race.w.answered(now, now.Sub(race.start))
	}
	race.mu.Lock()
	race.settled = true
	stopped := race.armed && race.timer.Stop()
	launched := race.launched
	race.mu.Unlock()
	if launched == 0 {
		// No hedge went out (the primary answered before the delay, or the budget refused).
		if err == nil || !hedgeAfterFailure(ctx, err) {
			// Nothing else holds the race when its timer never fired: it serves again.
			reuse = stopped
			return resp, cells, TimelineAnswer{}, err
		}
		c.hedgeOut(race, true) // the primary failed: ask the secondaries now, as Java does
	}
	return c.raceOutcome(ctx, race, op, now, o, resp, cells, err)
}

// raceOutcome ends a read that asked the secondaries, given the primary's outcome (resp,
// cells and err, at now): a secondary's answer, the primary's, or, when the primary failed,
// whatever the secondaries still answer within ctx.
func (c *Client) raceOutcome(ctx context.Context, race *hedgeRace, op string, now time.Time, o *CallObs,
	resp proto.Message, cells []byte, err error) (proto.Message, []byte, TimelineAnswer, error) {
	ans := TimelineAnswer{Hedged: true}
	race.mu.Lock()
	switch {
	case race.winner > 0:
		race.w.sample(now, now.Sub(race.start))
		resp, cells = race.resp, race.cells
		ans.Replica = race.winnerOf(o)
		race.mu.Unlock()
		c.hedgeEvent(ctx, op, race)
		return resp, cells, ans, nil
	case err == nil:
		race.winner = 0
		race.finish()
		race.mu.Unlock()
		race.stopLegs()
		c.hedgeEvent(ctx, op, race)
		return resp, cells, ans, nil
	}
	race.primaryDone = true
	if race.launched == 0 || race.failed == race.launched || ctx.Err() != nil {
		race.finish()
		race.mu.Unlock()
		c.hedgeEvent(ctx, op, race)
		return nil, nil, ans, err
	}
	race.mu.Unlock()
	select {
	case <-race.done:
	case <-ctx.Done():
	}
	race.mu.Lock()
	defer race.mu.Unlock()
	c.hedgeEvent(ctx, op, race)
	if race.winner > 0 {
		ans.Replica = race.winnerOf(o)
		return race.resp, race.cells, ans, nil
	}
	if ctx.Err() != nil {
		return nil, nil, ans, CtxErr(ctx, err)
	}
	return nil, nil, ans, err
}

// winnerOf returns the secondary that won, and names it to o (the hooks' CallDone) when the
// call is observed. r.mu is held.
func (r *hedgeRace) winnerOf(o *CallObs) int {
	if o != nil {
		o.region, o.server = r.winnerRegion, r.winnerAddr
	}
	return r.winner
}

// hedgeAfterFailure reports whether a primary's failure should send the read to the
// secondaries: not when the caller's context ended, nor when the request itself is bad
// (the secondaries would refuse it the same way).
func hedgeAfterFailure(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	if errors.Is(err, hberr.ErrBadRequest) || hberr.IsNotFound(err) || errors.Is(err, hberr.ErrTableDisabled) {
		return false
	}
	return true
}

// hedgeOut sends the read to the secondaries, if the budget allows (force: the primary is
// down or failed; or its server is silent). Refused, it looks again when the server would
// become silent.
func (c *Client) hedgeOut(race *hedgeRace, force bool) {
	h := c.hedge
	race.mu.Lock()
	if race.launched > 0 || race.winner >= 0 || (race.settled && !force) {
		race.mu.Unlock()
		return
	}
	now := time.Now()
	if !force {
		if !race.late {
			race.late = true
			race.w.noteLate(now)
		}
		if wait := race.w.silentIn(now, race.delay); wait > 0 && !race.lag && !h.spend() {
			race.arm(wait)
			race.mu.Unlock()
			return // over budget while the primary's server answers
		}
	}
	race.launched = len(race.reps)
	race.hedgedAt = now
	race.done = make(chan struct{})
	sctx, cancel := context.WithCancel(race.ctx)
	race.cancel = cancel
	race.mu.Unlock()
	h.sent.Add(uint64(len(race.reps)))
	for _, rep := range race.reps {
		if !c.spawn(func() { c.secondaryLeg(sctx, race, rep) }) {
			race.mu.Lock()
			race.failed++
			race.lastErr = hberr.ErrClosed
			if race.failed == race.launched && race.primaryDone {
				race.finish()
			}
			race.mu.Unlock()
		}
	}
}

// secondaryLeg asks one secondary replica and files its answer in the race.
func (c *Client) secondaryLeg(ctx context.Context, race *hedgeRace, rep *regionInfo) {
	resp, cells, rep, err := c.askReplica(ctx, race.primary, rep, race.call)
	if err == nil {
		// The secondary's server is a peer of the primary's: its latency tells what a
		// server not lagging answers in (lagging).
		now := time.Now()
		c.hedge.window(rep.addr).answered(now, now.Sub(race.hedgedAt))
	}
	race.mu.Lock()
	defer race.mu.Unlock()
	if err == nil && race.winner < 0 {
		race.winner, race.resp, race.cells = rep.replicaID, resp, cells
		race.winnerRegion, race.winnerAddr = rep.name, rep.addr
		c.hedge.won.Add(1)
		race.abortPrimary()
		race.cancel()
		race.finish()
		return
	}
	if err != nil {
		race.failed++
		race.lastErr = err
		if race.failed == race.launched && race.primaryDone {
			race.finish()
		}
	}
}

// replicaAttempts bounds the attempts of one secondary leg: a secondary that keeps failing
// is left to the primary and the other secondaries.
const replicaAttempts = 3

// askReplica sends call to secondary replica rep of the region primary, and returns the
// answer and the replica that gave it: a replica found elsewhere than the client cached it is
// asked where it is now (nextReplica). A failure is otherwise ignored while another leg may
// still answer (as Java's pollForFirstSuccessfullyCompletedTask does).
func (c *Client) askReplica(ctx context.Context, primary, rep *regionInfo, call wire.Call) (proto.Message, []byte, *regionInfo, error) {
	// Observed, each attempt of the leg is an Attempt event (numbered within the leg, naming
	// the secondary) and a latency sample of its server; the read's CallDone counts the
	// primary's attempts.
	var lo *CallObs
	if c.observing() {
		o := NewCallObs(c, call.Op(), call.TableName(), call.Key())
		lo = &o
	}
	var resp proto.Message
	var cells []byte
	rep, err := c.onReplica(ctx, primary, rep, func(rep *regionInfo) (err error) {
		resp, cells, err = c.askOnce(ctx, rep, call, lo)
		return err
	})
	if err != nil {
		return nil, nil, rep, err
	}
	return resp, cells, rep, nil
}

// onReplica runs ask on secondary rep of the region primary until it succeeds, at most
// replicaAttempts times, asking the replica where it is now after each failure
// (nextReplica), and returns the replica last asked and ask's last error.
func (c *Client) onReplica(ctx context.Context, primary, rep *regionInfo, ask func(*regionInfo) error) (*regionInfo, error) {
	b := c.NewBackoff()
	var err error
	for range replicaAttempts {
		if err = ask(rep); err == nil {
			return rep, nil
		}
		if ctx.Err() != nil {
			break
		}
		next := c.nextReplica(ctx, primary, rep, err, &b)
		if next == nil {
			break
		}
		rep = next
	}
	return rep, err
}

// askOnce sends call to secondary rep once, on the connection it was last reached on or a
// new one.
func (c *Client) askOnce(ctx context.Context, rep *regionInfo, call wire.Call, lo *CallObs) (proto.Message, []byte, error) {
	conn := rep.cachedConn()
	if conn == nil || IsDead(conn) {
		var err error
		if conn, err = c.conn(ctx, rep.addr); err != nil {
			return nil, nil, replicaDialError{err}
		}
		rep.setConn(conn)
	}
	return c.attempt(ctx, &callRun{call: call}, lo, rep, conn)
}

// cachedConn is the connection a secondary replica was last reached on.
func (r *regionInfo) cachedConn() *region.Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conn
}

func (r *regionInfo) setConn(conn *region.Client) {
	r.mu.Lock()
	r.conn = conn
	r.mu.Unlock()
}

// hedgeEvent reports a hedged read to the hooks.
func (c *Client) hedgeEvent(ctx context.Context, op string, race *hedgeRace) {
	if c.Hooks == nil || c.Hooks.Hedge == nil || race.launched == 0 {
		return
	}
	c.Hooks.Hedge(ctx, hbasetrace.HedgeInfo{Op: op, Table: race.call.TableName(), Region: race.primary.name,
		Primary: race.primaryAddr, Delay: race.delay, Sent: race.launched, Winner: race.winner})
}

// CountStale counts a Timeline result a secondary replica answered (Stats.StaleResults).
func (c *Client) CountStale() { c.hedge.stale.Add(1) }
