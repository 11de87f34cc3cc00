package hbase

import (
	"context"
	"net"
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// counters are the client-wide counts of Stats. They change off the hot path only: on cache
// misses, lookups, retries, dials and closed connections, never on a call that finds its
// region cached and succeeds.
type counters struct {
	cacheMisses, lookups, lookupErrors atomic.Uint64
	retries, dials, dialErrors         atomic.Uint64
	// overload refusals, the pauses after them and the writes delayed for load statistics
	// (overload.go, loadstats.go)
	overloadErrors, overloadPauses, overloadPauseNanos atomic.Uint64
	backpressureDelays, backpressureNanos              atomic.Uint64
	// bytes of connections that closed, so that totals do not drop when one does
	closedWritten, closedRead atomic.Uint64
	// the highest byte totals Stats returned (see Stats)
	seenWritten, seenRead highWater
}

// highWater is the highest value it was raised to.
type highWater struct{ v atomic.Uint64 }

// raise records v and returns the highest value recorded.
func (h *highWater) raise(v uint64) uint64 {
	for {
		old := h.v.Load()
		if v <= old {
			return old
		}
		if h.v.CompareAndSwap(old, v) {
			return v
		}
	}
}

// observing reports whether calls must be timed: hooks are set or latency is kept.
func (c *Client) observing() bool { return c.hooks != nil || c.lat != nil }

// callObs follows one call for the hooks and the latency histograms. It lives on the stack
// of sendObserved.
type callObs struct {
	hooks      *hbasetrace.Hooks
	op         string
	opKind     opKind
	table, row []byte
	start      time.Time
	attempts   int
	retries    int
	region     []byte
	server     string
	reqBytes   int // of the attempt being sent (set by callRegion)
	reqTotal   int
	respTotal  int
}

func newCallObs(c *Client, op string, table, row []byte) callObs {
	return callObs{hooks: c.hooks, op: op, opKind: kindOf(op), table: table, row: row, start: time.Now()}
}

// begin runs the CallStart hooks and returns the call's context.
func (o *callObs) begin(ctx context.Context) context.Context {
	if o.hooks != nil && o.hooks.CallStart != nil {
		if nctx := o.hooks.CallStart(ctx, hbasetrace.CallStartInfo{Op: o.op, Table: o.table, Row: o.row}); nctx != nil {
			return nctx
		}
	}
	return ctx
}

// end runs the CallDone hooks.
func (o *callObs) end(ctx context.Context, err error) {
	if o.hooks == nil || o.hooks.CallDone == nil {
		return
	}
	o.hooks.CallDone(ctx, hbasetrace.CallDoneInfo{
		Op: o.op, Table: o.table, Row: o.row, Region: o.region, Server: o.server,
		Attempts: o.attempts, Retries: o.retries, Duration: time.Since(o.start),
		RequestBytes: o.reqTotal, ResponseBytes: o.respTotal, Err: err, Class: hberr.Class(err),
	})
}

// attempted records one RPC of the call: latency per server and the Attempt hooks.
func (o *callObs) attempted(ctx context.Context, c *Client, regionName []byte, addr string,
	d time.Duration, resp proto.Message, cells []byte, err error) {
	o.attempts++
	o.region, o.server = regionName, addr
	if c.lat != nil {
		c.lat.record(addr, o.opKind, d)
	}
	if o.hooks == nil {
		return
	}
	respBytes := 0
	if err == nil && resp != nil {
		respBytes = proto.Size(resp) + len(cells)
	}
	o.reqTotal += o.reqBytes
	o.respTotal += respBytes
	if o.hooks.Attempt != nil {
		o.hooks.Attempt(ctx, hbasetrace.AttemptInfo{Op: o.op, Table: o.table, Region: regionName, Server: addr,
			Attempt: o.attempts, Duration: d, RequestBytes: o.reqBytes, ResponseBytes: respBytes,
			Err: err, Class: hberr.Class(err)})
	}
	o.reqBytes = 0
}

// requestSize is the size of a request's message (its size is cached by the marshalling
// region just did) and cellblock.
func requestSize(req proto.Message, cells []byte) int {
	return proto.MarshalOptions{UseCachedSize: true}.Size(req) + len(cells)
}

// sendObserved is send with hooks or latency histograms.
func (c *Client) sendObserved(ctx context.Context, call wire.Call) (proto.Message, []byte, error) {
	o := newCallObs(c, call.Op(), call.Table(), call.Key())
	ctx = o.begin(ctx)
	resp, cells, err := c.sendLoop(ctx, call, &o)
	o.end(ctx, err)
	return resp, cells, err
}

// attempt is callRegion, timed and reported when the call is observed.
func (c *Client) attempt(ctx context.Context, r *regionInfo, conn *region.Client, call wire.Call, o *callObs, abort <-chan struct{}) (proto.Message, []byte, error) {
	if o == nil {
		return c.callRegion(ctx, r, conn, call, nil, abort)
	}
	start := time.Now()
	resp, cells, err := c.callRegion(ctx, r, conn, call, o, abort)
	o.attempted(ctx, c, r.name, conn.Addr(), time.Since(start), resp, cells, err)
	return resp, cells, err
}

// retrying counts a retry and reports it. conn is nil when the region was not found.
func (c *Client) retrying(ctx context.Context, o *callObs, conn *region.Client, err error, act retryAction) {
	c.stats.retries.Add(1)
	if o == nil {
		return
	}
	o.retries++
	if o.hooks == nil || o.hooks.Retry == nil {
		return
	}
	var addr string
	if conn != nil {
		addr = conn.Addr()
	}
	o.hooks.Retry(ctx, hbasetrace.RetryInfo{Op: o.op, Table: o.table, Row: o.row, Server: addr,
		Attempt: o.attempts, Err: err, Class: hberr.Class(err),
		Relocate: act == relocate || act == pauseAndRelocate})
}

// cacheLooked reports a look into the region cache.
func (c *Client) cacheLooked(ctx context.Context, table, key []byte, hit bool) {
	if !hit {
		c.stats.cacheMisses.Add(1)
	}
	if c.hooks != nil && c.hooks.RegionCache != nil {
		c.hooks.RegionCache(ctx, hbasetrace.RegionCacheInfo{Table: table, Row: key, Hit: hit})
	}
}

// locate is locateInMeta, counted and reported.
func (c *Client) locate(ctx context.Context, table, key []byte, before bool) (*regionInfo, error) {
	start := time.Now()
	r, err := c.locateInMeta(ctx, table, key, before)
	c.stats.lookups.Add(1)
	if err != nil {
		c.stats.lookupErrors.Add(1)
	}
	if c.hooks != nil && c.hooks.Lookup != nil {
		ev := hbasetrace.LookupInfo{Table: table, Row: key, Duration: time.Since(start), Err: err}
		if r != nil {
			ev.Region, ev.Server = r.name, r.addr
		}
		c.hooks.Lookup(ev)
	}
	return r, err
}

// connected counts a finished connection setup and reports it.
func (c *Client) connected(addr string, start time.Time, err error) {
	c.stats.dials.Add(1)
	if err != nil {
		c.stats.dialErrors.Add(1)
	}
	if c.hooks != nil && c.hooks.Connect != nil {
		c.hooks.Connect(hbasetrace.ConnectInfo{Addr: addr, Duration: time.Since(start), Err: err})
	}
}

// connClosed keeps the byte counts of a closed connection and reports it; cause is nil when
// the client closed it.
func (c *Client) connClosed(conn *region.Client, cause error) {
	st := conn.Stats()
	c.stats.closedWritten.Add(st.BytesWritten)
	c.stats.closedRead.Add(st.BytesRead)
	if c.hooks != nil && c.hooks.ConnClosed != nil {
		c.hooks.ConnClosed(hbasetrace.ConnClosedInfo{Addr: conn.Addr(), Err: cause})
	}
}

// hookOptions are the region options the hooks need: the trace context in request headers,
// and a dialer that reports the TCP dial (WithDialer's dialer comes later and replaces it).
func (c *Client) hookOptions() []region.Option {
	if c.hooks == nil {
		return nil
	}
	opts := []region.Option{region.WithTraceContext()}
	if c.hooks.Dial != nil {
		opts = append(opts, region.WithDialer(&timedDialer{hook: c.hooks.Dial}))
	}
	return opts
}

// timedDialer is a net.Dialer that reports each dial to the Dial hook.
type timedDialer struct {
	d    net.Dialer
	hook func(hbasetrace.DialInfo)
}

func (t *timedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	start := time.Now()
	conn, err := t.d.DialContext(ctx, network, addr)
	t.hook(hbasetrace.DialInfo{Addr: addr, Duration: time.Since(start), Err: err})
	return conn, err
}
