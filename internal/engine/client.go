package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/zk"
)

// Client talks to one HBase cluster. It is safe for concurrent use; create one per cluster and
// share it. Close it when done: it owns connections and goroutines.
type Client struct {
	opts Config
	Log  *slog.Logger
	Reg  registry // finds hbase:meta: ZooKeeper, the bootstrap servers, or a test's function

	// lifetime ends when Close is called; background goroutines (dials, region lookups) run
	// under it, bounded per attempt by the region lookup timeout.
	lifetime context.Context
	stop     context.CancelFunc
	bgMu     sync.Mutex // serialises spawn against Close
	wg       sync.WaitGroup
	closeErr error
	closed   sync.Once

	cache *regionCache
	meta  *regionInfo // the one hbase:meta region, located through ZooKeeper
	pool  connPool
	gate  dialGate // pauses before dialling a server whose connections keep failing (dialgate.go)

	flightsMu sync.Mutex
	flights   map[string]*flight

	// scanners are Client.Scan's scanners, with their buffers, given back when their
	// iteration ends (scanner_pool.go).
	scanners sync.Pool
	// multiBufs holds the message and cellblock buffers of sent MultiRequests
	// (*multiBuffers), for the next batches: a flush's megabytes zeroed anew each time were
	// about 7% of a buffered writer's CPU.
	multiBufs sync.Pool
	// multiDecoders are the decoders of MultiResponses (*wire.MultiDecoder), with the blocks
	// of their results, for the next batches.
	multiDecoders sync.Pool

	Hooks *hbasetrace.Hooks // nil: no hooks (hooks.go)
	lat   *latencies        // nil: latency per server not kept (latency.go)
	stats counters          // Stats (stats.go)
	load  loadTracker       // servers' load statistics, for WithBackpressure (loadstats.go)
	hedge *hedger           // Timeline reads' hedging (hedge.go)
	// metaReps are hbase:meta's replicas for lookups (WithMetaReplicaLookups); nil: off.
	metaReps *metaReplicas

	// metaRPCs counts the hbase:meta scans sent (lookups and relocations); movedHints the
	// regions cached from a RegionMovedException without one; relocationRounds the rounds of
	// relocateRegions. Tests read them.
	suspects sync.Map // *region.Client → struct{}: connections being checked (suspect)
	// dropped holds why the client closed a connection itself (*region.Client → error): a
	// suspect server's silence, the cause its regions' callers are told (serverFailed).
	dropped          sync.Map
	metaRPCs         atomic.Int64
	metaReplicaRPCs  atomic.Int64 // lookups a replica of hbase:meta answered
	movedHints       atomic.Int64
	relocationRounds atomic.Int64
	suspectDrops     atomic.Int64 // connections closed because their server did not answer

	// closers are closed by Close after the client's goroutines ended: what packages built
	// on the client own (an Admin's connections).
	closersMu sync.Mutex
	closers   map[*func()]struct{}
}

// New returns the engine of a client of the cluster whose ZooKeeper quorum is zkQuorum, with
// the settings cfg (checked by cfg.Check before). It does not connect. On error it has released
// what cfg's handshaker holds.
func New(zkQuorum string, cfg Config) (*Client, error) {
	o := cfg
	c := &Client{
		opts:    o,
		Log:     o.Logger,
		cache:   newRegionCache(),
		meta:    &regionInfo{table: []byte(MetaTableName), name: metaRegionName},
		flights: make(map[string]*flight),
		Hooks:   combineHooks(o.Hooks),
		hedge:   newHedger(o.Hedge),
	}
	if o.ServerLatency {
		c.lat = newLatencies()
	}
	c.pool.conns = make(map[string]*poolEntry)
	c.lifetime, c.stop = context.WithCancel(context.Background())
	switch {
	case o.LocateMeta != nil:
		c.Reg = funcRegistry(o.LocateMeta)
	case len(o.Bootstrap) > 0:
		c.Reg = newBootstrapRegistry(c, o.Bootstrap)
	default:
		zc, err := zk.New(zkQuorum, zk.WithZNodeParent(o.ZKParent), zk.WithLogger(o.Logger),
			zk.WithSessionTimeout(o.ZKSessionTimeout))
		if err != nil {
			c.stop()
			o.CloseHandshaker()
			return nil, misconfigured{fmt.Errorf("hbase: %w", err)}
		}
		c.Reg = zc
	}
	var err error
	if c.metaReps, err = newMetaReplicas(o.MetaReplicaLookups, c.Reg); err != nil {
		c.stop()
		c.Reg.Close()
		o.CloseHandshaker()
		return nil, misconfigured{err}
	}
	return c, nil
}

// Close fails every call in progress and every later call with hberr.ErrClosed, closes the
// connections to the region servers and the ZooKeeper session, and waits for the client's
// goroutines to end. It is safe to call more than once.
func (c *Client) Close() error {
	c.closed.Do(func() {
		c.bgMu.Lock()
		c.stop()
		c.bgMu.Unlock()
		c.pool.mu.Lock()
		var conns []*region.Client
		for _, e := range c.pool.conns {
			select {
			case <-e.ready:
				if e.conn != nil {
					conns = append(conns, e.conn)
				}
			default:
			}
		}
		c.pool.mu.Unlock()
		for _, conn := range conns {
			conn.Close()
		}
		c.wg.Wait()
		c.closersMu.Lock()
		closers := c.closers
		c.closers = nil
		c.closersMu.Unlock()
		for f := range closers {
			(*f)()
		}
		c.closeErr = c.Reg.Close()
		c.opts.CloseHandshaker()
	})
	return c.closeErr
}

// spawn runs fn in a goroutine Close waits for, unless the client is closed.
func (c *Client) spawn(fn func()) bool {
	c.bgMu.Lock()
	defer c.bgMu.Unlock()
	if c.lifetime.Err() != nil {
		return false
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		fn()
	}()
	return true
}

func (c *Client) IsClosed() bool { return c.lifetime.Err() != nil }

// OnClose runs f when the client is closed, after its goroutines ended (at once when it is
// closed already), unless the function it returns was called first.
func (c *Client) OnClose(f func()) (cancel func()) {
	c.closersMu.Lock()
	if c.lifetime.Err() == nil {
		if c.closers == nil {
			c.closers = make(map[*func()]struct{})
		}
		key := &f
		c.closers[key] = struct{}{}
		c.closersMu.Unlock()
		return func() {
			c.closersMu.Lock()
			delete(c.closers, key)
			c.closersMu.Unlock()
		}
	}
	c.closersMu.Unlock()
	f()
	return func() {}
}

func (c *Client) NewBackoff() Backoff {
	return Backoff{Min: c.opts.MinBackoff, Max: c.opts.MaxBackoff, hooks: c.Hooks,
		overloadMin: c.opts.OverloadPause, stats: &c.stats}
}

// relocationBackoffCap caps the pause between two attempts of the client's own goroutines to
// find a region again. It is lower than the calls' cap: callers wait for these attempts, and
// a region that reopens is found at most this long after hbase:meta says where.
const relocationBackoffCap = 100 * time.Millisecond

func (c *Client) newRelocationBackoff() Backoff {
	return Backoff{Min: c.opts.MinBackoff, Max: min(c.opts.MaxBackoff, relocationBackoffCap), hooks: c.Hooks}
}

// A region moved or split is back on the servers within about half a second
// (TestRecoveryTimesAgainstHBase measures it): while one is out of service for less than
// reopenWindow, reestablish pauses at most reopenBackoffCap between lookups, so it finds the
// region at most that long after it opens (issue 14's target: 50 ms). A region out longer
// waits on something slower (a dead server, an assignment stuck in the master) and is looked
// up as often as relocationBackoffCap allows, sparing hbase:meta.
const (
	reopenBackoffCap = 35 * time.Millisecond
	reopenWindow     = 2 * time.Second
)

// markUnavailable takes r out of service after a failure on conn (nil: whatever its
// connection) and starts the one goroutine that re-establishes it.
func (c *Client) markUnavailable(r *regionInfo, conn *region.Client) {
	if r.markUnavailable(conn) {
		if !c.spawn(func() { c.reestablish(r) }) {
			r.retire()
		}
	}
}

// reestablish looks r up again until it is served (or gone from hbase:meta, or the client is
// closed), pausing with backoff between attempts, then wakes the callers waiting on it.
func (c *Client) reestablish(r *regionInfo) {
	b := c.newRelocationBackoff()
	b.Max = min(b.Max, reopenBackoffCap)
	began := time.Now()
	for c.lifetime.Err() == nil {
		if _, _, gone := r.state(); gone {
			return
		}
		ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
		var err error
		if r == c.meta {
			err = c.establishMeta(ctx)
		} else {
			err = c.establishRegion(ctx, r)
		}
		cancel()
		if err == nil || c.failFast(r, err) {
			return
		}
		if r != c.meta && (errors.Is(err, hberr.ErrDoNotRetry) || errors.Is(err, hberr.ErrTableNotFound)) {
			// The table is gone or disabled: drop the region so callers look it up themselves
			// and get the error.
			c.Log.Debug("hbase: dropping region", "region", string(r.name), "err", err)
			c.cache.remove(r)
			return
		}
		c.Log.Debug("hbase: re-establishing region failed", "region", string(r.name), "err", err)
		if errors.Is(err, errUnreached) {
			r.setUnreached(err)
		} else {
			r.setFailure(err)
		}
		if opening(err) {
			// The new server is opening the region: it serves within moments, so look
			// again after the smallest pause instead of one grown while it was closed.
			b.attempt = 0
		}
		if time.Since(began) > reopenWindow {
			b.Max = min(c.opts.MaxBackoff, relocationBackoffCap)
		}
		if b.Sleep(c.lifetime) != nil {
			break
		}
	}
	r.retire()
}

func (c *Client) establishMeta(ctx context.Context) error {
	var addr string
	addr, err := c.Reg.LocateMeta(ctx)
	if err != nil {
		return unreached(c.configError(fmt.Errorf("locating hbase:meta: %w", err)))
	}
	conn, err := c.conn(ctx, addr)
	if err != nil {
		return unreached(c.configError(err))
	}
	if err := c.probe(ctx, c.meta, conn); err != nil {
		return unreached(c.configError(err))
	}
	c.meta.setAvailable(addr, conn)
	c.Log.Debug("hbase: hbase:meta located", "addr", addr)
	return nil
}

// establishRegion finds where the region holding r's start key is served now, checks that
// the server does serve it and replaces r (and every other overlapping region) in the cache.
func (c *Client) establishRegion(ctx context.Context, r *regionInfo) error {
	if c.metaReps != nil {
		// r failed where hbase:meta said it was: a replica of hbase:meta may lag behind.
		ctx = context.WithValue(ctx, primaryMetaKey{}, true)
	}
	nr, err := c.locate(ctx, r.table, r.start, false)
	if err != nil {
		return err
	}
	conn, err := c.conn(ctx, nr.addr)
	if err != nil {
		return err
	}
	nr.conn = conn
	if nr, err = c.probeFollowing(ctx, nr); err != nil {
		if err = c.checkDisabled(ctx, r.table, err); Classify(err) == Relocate {
			err = fmt.Errorf("%w (hbase:meta may not be updated yet)", err)
		}
		return err
	}
	c.cache.insert(nr)
	c.Log.Debug("hbase: region re-established", "region", string(nr.name), "addr", nr.addr)
	return nil
}

// flight is one cold lookup of a region, shared by every caller that missed the cache for
// the same key at the same time.
type flight struct {
	done chan struct{}
	r    *regionInfo
	err  error
	// dialling is the region's server while the flight waits for a connection to it, and
	// since when: a caller whose context ends meanwhile names it.
	dialling atomic.Pointer[dialNote]
}

type dialNote struct {
	addr  string
	since time.Time
}

// lookup locates the region of table holding key (before: holding the rows just below key)
// in hbase:meta, connects to its server and caches it. Concurrent lookups of one key share one
// goroutine; each caller waits for it only as long as its own ctx allows.
func (c *Client) lookup(ctx context.Context, table, key []byte, before bool) (*regionInfo, error) {
	k := make([]byte, 0, len(table)+len(key)+2)
	k = append(append(append(k, table...), 0, flightMode(before)), key...)
	c.flightsMu.Lock()
	f := c.flights[string(k)]
	if f == nil {
		f = &flight{done: make(chan struct{})}
		table, key := bytes.Clone(table), bytes.Clone(key)
		if !c.spawn(func() { c.fly(string(k), f, table, key, before) }) {
			c.flightsMu.Unlock()
			return nil, hberr.ErrClosed
		}
		c.flights[string(k)] = f
	}
	c.flightsMu.Unlock()
	select {
	case <-f.done:
		return f.r, f.err
	case <-ctx.Done():
		var stall error
		if conn, _, _ := c.meta.state(); conn == nil {
			stall = c.metaStall() // the lookup waits for hbase:meta: say why
		} else if d := f.dialling.Load(); d != nil {
			stall = fmt.Errorf("connecting to %s: no answer in %v", d.addr, time.Since(d.since).Round(time.Millisecond))
		}
		return nil, CtxErr(ctx, stall)
	case <-c.lifetime.Done():
		return nil, hberr.ErrClosed
	}
}

func flightMode(before bool) byte {
	if before {
		return 1
	}
	return 0
}

func (c *Client) fly(k string, f *flight, table, key []byte, before bool) {
	ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
	r, err := c.locate(ctx, table, key, before)
	if err == nil {
		var conn *region.Client
		f.dialling.Store(&dialNote{addr: r.addr, since: time.Now()})
		if conn, err = c.conn(ctx, r.addr); err == nil {
			r.conn = conn
			c.cache.insert(r)
		} else {
			err = unreached(c.configError(err)) // the region's server: retried after a pause
		}
	}
	if err != nil && ctx.Err() != nil && c.lifetime.Err() == nil {
		// Our own attempt timed out, not the callers' contexts: they may retry.
		err = lookupTimeoutError(c.opts.LookupTimeout, err)
	}
	cancel()
	if err != nil {
		r, err = nil, &lookupError{Table: table, Row: key, Err: err}
	}
	c.flightsMu.Lock()
	delete(c.flights, k)
	c.flightsMu.Unlock()
	f.r, f.err = r, err
	close(f.done)
}

// lookupTimeoutError says that a region lookup ran out of its own timeout. What the lookup was
// waiting for (for example a connection whose Kerberos handshake fails with
// hberr.ErrTicketExpired) stays in the error chain, so that a caller whose context ends while
// it retries can tell why. The lookup's own context error does not: the caller's retry loop
// would take it for its own context ending and give up.
func lookupTimeoutError(timeout time.Duration, err error) error {
	cause := err
	if re, ok := errors.AsType[*hberr.RetryError](err); ok {
		cause = re.Last
	}
	if errors.Is(cause, context.DeadlineExceeded) || errors.Is(cause, context.Canceled) {
		return fmt.Errorf("%w after %v: %v", errLookupTimeout, timeout, err)
	}
	return fmt.Errorf("%w after %v: %w", errLookupTimeout, timeout, cause)
}

// findMeta returns the hbase:meta region and its connection, waiting while it is located.
// When an attempt to locate it fails because the registry or hbase:meta's server cannot be
// reached, it returns that failure (wrapping errUnreached), so that the calls waiting count
// it as one of their attempts: with WithNoRetries an unreachable ZooKeeper fails a call at
// its first refusal. Waiting while hbase:meta moves (its server answers that it does not
// serve it yet) is not a failure.
func (c *Client) findMeta(ctx context.Context) (*regionInfo, *region.Client, error) {
	waited := false
	for {
		conn, avail, gone := c.meta.state()
		if conn != nil {
			return c.meta, conn, nil
		}
		if gone {
			// Retired when the client closed under a lookup: marking it unavailable again
			// would do nothing, and this loop would spin, holding up Close.
			return nil, nil, hberr.ErrClosed
		}
		if avail == nil {
			if err := c.meta.failure(); waited && errors.Is(err, hberr.ErrConfiguration) {
				return nil, nil, err // the lookup this call waited for failed for good (failFast)
			}
			c.markUnavailable(c.meta, nil)
			continue
		}
		select {
		case <-avail:
			waited = true
		case <-c.meta.unreachedChan():
			if err := c.meta.failure(); err != nil {
				return nil, nil, err
			}
		case <-ctx.Done():
			return nil, nil, CtxErr(ctx, c.metaStall())
		case <-c.lifetime.Done():
			return nil, nil, hberr.ErrClosed
		}
	}
}

// metaStall is what locating hbase:meta is held up by now: the latest failure, or the
// bootstrap servers a lookup is waiting for, or nil.
func (c *Client) metaStall() error {
	if err := c.meta.failure(); err != nil {
		return err
	}
	if p, ok := c.Reg.(interface{ pending() error }); ok {
		return p.pending()
	}
	return nil
}

// findRegion returns the region of table holding key (before: holding the rows just below
// key) and the connection to its server, from the cache or else from hbase:meta. While the
// region is out of service it waits for it, or for ctx.
func (c *Client) findRegion(ctx context.Context, table string, key []byte, before bool) (*regionInfo, *region.Client, error) {
	if table == MetaTableName {
		return c.findMeta(ctx)
	}
	tb := wire.TableBytes(table)
	var waitedFor *regionInfo
	for {
		if c.IsClosed() {
			return nil, nil, hberr.ErrClosed
		}
		var r *regionInfo
		if before {
			r = c.cache.getBefore(tb, key)
		} else {
			r = c.cache.get(tb, key)
		}
		if c.Hooks != nil || r == nil {
			c.cacheLooked(ctx, table, key, r != nil)
		}
		if r == nil {
			var err error
			if r, err = c.lookup(ctx, tb, key, before); err != nil {
				return nil, nil, err
			}
		}
		conn, avail, gone := r.state()
		switch {
		case conn != nil:
			return r, conn, nil
		case gone:
			continue
		case avail == nil:
			if err := r.failure(); r == waitedFor && errors.Is(err, hberr.ErrTableDisabled) {
				return nil, nil, err // the re-establishing this call waited for found the table disabled (failFast)
			}
			c.markUnavailable(r, nil)
			continue
		}
		select {
		case <-avail:
			waitedFor = r
		case <-ctx.Done():
			return nil, nil, CtxErr(ctx, r.failure())
		case <-c.lifetime.Done():
			return nil, nil, hberr.ErrClosed
		}
	}
}

// Config returns the client's settings.
func (c *Client) Config() *Config { return &c.opts }

// Lifetime ends when the client is closed.
func (c *Client) Lifetime() context.Context { return c.lifetime }
