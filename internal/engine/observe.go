package engine

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
func (c *Client) observing() bool { return c.Hooks != nil || c.lat != nil }

// CallObs follows one call for the hooks and the latency histograms. It lives on the stack
// of sendObserved.
type CallObs struct {
	hooks     *hbasetrace.Hooks
	op        string
	opKind    opKind
	table     string
	row       []byte
	start     time.Time
	attempts  int
	retries   int
	region    []byte
	server    string
	reqBytes  int // of the attempt being sent (set by callRegion)
	reqTotal  int
	respTotal int
}

func NewCallObs(c *Client, op, table string, row []byte) CallObs {
	return CallObs{hooks: c.Hooks, op: op, opKind: kindOf(op), table: table, row: row, start: time.Now()}
}

// Begin runs the CallStart hooks and returns the call's context.
func (o *CallObs) Begin(ctx context.Context) context.Context {
	if o.hooks != nil && o.hooks.CallStart != nil {
		if nctx := o.hooks.CallStart(ctx, hbasetrace.CallStartInfo{Op: o.op, Table: o.table, Row: o.row}); nctx != nil {
			return nctx
		}
	}
	return ctx
}

// End runs the CallDone hooks.
func (o *CallObs) End(ctx context.Context, err error) {
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
func (o *CallObs) attempted(ctx context.Context, c *Client, regionName []byte, addr string,
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

// RequestSize is the size of a request's message (its size is cached by the marshalling
// region just did) and cellblock.
func RequestSize(req proto.Message, cells []byte) int {
	return proto.MarshalOptions{UseCachedSize: true}.Size(req) + len(cells)
}

// sendObserved is send with hooks or latency histograms.
func (c *Client) sendObserved(ctx context.Context, call wire.Call) (proto.Message, []byte, error) {
	o := NewCallObs(c, call.Op(), call.TableName(), call.Key())
	ctx = o.Begin(ctx)
	resp, cells, err := c.run(ctx, &callRun{call: call}, &o)
	o.End(ctx, err)
	return resp, cells, err
}

// retrying counts a retry and reports it. conn is nil when the region was not found.
func (c *Client) retrying(ctx context.Context, o *CallObs, conn *region.Client, err error, act RetryAction) {
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
		Relocate: act == Relocate || act == PauseAndRelocate})
}

// cacheLooked reports a look into the region cache.
func (c *Client) cacheLooked(ctx context.Context, table string, key []byte, hit bool) {
	if !hit {
		c.stats.cacheMisses.Add(1)
	}
	if c.Hooks != nil && c.Hooks.RegionCache != nil {
		c.Hooks.RegionCache(ctx, hbasetrace.RegionCacheInfo{Table: table, Row: key, Hit: hit})
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
	if c.Hooks != nil && c.Hooks.Lookup != nil {
		ev := hbasetrace.LookupInfo{Table: string(table), Row: key, Duration: time.Since(start), Err: err}
		if r != nil {
			ev.Region, ev.Server = r.name, r.addr
		}
		c.Hooks.Lookup(ev)
	}
	return r, err
}

// connected counts a finished connection setup and reports it.
func (c *Client) connected(addr string, start time.Time, err error) {
	c.stats.dials.Add(1)
	if err != nil {
		c.stats.dialErrors.Add(1)
	}
	if c.Hooks != nil && c.Hooks.Connect != nil {
		c.Hooks.Connect(hbasetrace.ConnectInfo{Addr: addr, Duration: time.Since(start), Err: err})
	}
}

// connClosed keeps the byte counts of a closed connection and reports it; cause is nil when
// the client closed it.
func (c *Client) connClosed(conn *region.Client, cause error) {
	st := conn.Stats()
	c.stats.closedWritten.Add(st.BytesWritten)
	c.stats.closedRead.Add(st.BytesRead)
	if c.Hooks != nil && c.Hooks.ConnClosed != nil {
		c.Hooks.ConnClosed(hbasetrace.ConnClosedInfo{Addr: conn.Addr(), Err: cause})
	}
}

// hookOptions are the region options the hooks need: the trace context in request headers,
// and a dialer that reports the TCP dial (WithDialer's dialer comes later and replaces it).
func (c *Client) hookOptions() []region.Option {
	if c.Hooks == nil {
		return nil
	}
	opts := []region.Option{region.WithTraceContext()}
	if c.Hooks.Dial != nil {
		opts = append(opts, region.WithDialer(&timedDialer{hook: c.Hooks.Dial}))
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

// ObservedRPC sends one RPC of a call of package admin on conn, reported as an Attempt when
// the call is observed (o not nil). regionName is nil for the master.
func ObservedRPC(ctx context.Context, o *CallObs, conn *region.Client, regionName []byte,
	method string, req, resp proto.Message) error {
	if o == nil {
		_, err := conn.Call(ctx, method, req, nil, resp)
		return err
	}
	start := time.Now()
	_, err := conn.Call(ctx, method, req, nil, resp)
	d := time.Since(start)
	o.attempts++
	o.region, o.server = regionName, conn.Addr()
	reqBytes, respBytes := RequestSize(req, nil), 0
	if err == nil {
		respBytes = proto.Size(resp)
	}
	o.reqTotal += reqBytes
	o.respTotal += respBytes
	if o.hooks.Attempt != nil {
		o.hooks.Attempt(ctx, hbasetrace.AttemptInfo{Op: o.op, Table: o.table, Region: regionName,
			Server: conn.Addr(), Attempt: o.attempts, Duration: d, RequestBytes: reqBytes,
			ResponseBytes: respBytes, Err: err, Class: hberr.Class(err)})
	}
	return err
}

// ReportRetry reports that a call of package admin will be tried again; conn is nil when the
// master or the region was not found. relocate: the master or the region is looked up again.
func ReportRetry(ctx context.Context, o *CallObs, conn *region.Client, err error, relocate bool) {
	if o == nil {
		return
	}
	o.retries++
	if o.hooks.Retry == nil {
		return
	}
	var addr string
	if conn != nil {
		addr = conn.Addr()
	}
	o.hooks.Retry(ctx, hbasetrace.RetryInfo{Op: o.op, Table: o.table, Server: addr,
		Attempt: o.attempts, Err: err, Class: hberr.Class(err), Relocate: relocate})
}
