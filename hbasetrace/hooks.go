// Package hbasetrace holds the events a go-hbase client (package hbase) reports to hooks, in the
// shape of net/http/httptrace: a Hooks struct of optional functions, given to the client with
// hbase.WithHooks, and one event type per hook (CallStartInfo, AttemptInfo, LookupInfo...).
// ContextWithTraceHeaders carries a caller's trace context to the servers. It also holds what
// hbase.Client.Stats and ServerLatency return (Stats, ServerStats, ServerLatency), so that the
// adapters in contrib/prometheus and contrib/otel are built on these types alone.
//
// Outcomes are classed by hberr.Class ("ok", "timeout", "not_found"...), short and stable label
// values.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package hbasetrace

import (
	"context"
	"time"

	"github.com/go-hbase/hbase/region"
)

// Hooks receive the events of an hbase.Client's work, for metrics and tracing (the adapters in
// contrib/prometheus and contrib/otel are built on them); give them to the client with
// hbase.WithHooks. Like net/http/httptrace's
// ClientTrace, every field is optional: a nil function is not called, and a client without
// hooks does no work for them at all. Hooks run on the goroutine that does the work (a
// caller's, or one of the client's own for lookups and connections), so they must be quick
// and safe for concurrent use. The byte slices in events (rows, region names) alias the
// client's or the request's memory: copy them to keep them. Table names are strings, which
// may be kept as they are.
type Hooks struct {
	// CallStart runs when a call starts: Get, Put, Delete, Append, Increment,
	// CheckAndMutate, MutateRow, SendBatch ("Batch"), a Scan when NewScanner (or
	// Client.Scan) starts it, and every call of hbase.Admin, named by its method
	// ("CreateTable", "ListTables", "FlushRegion"...). A Scan's CallDone runs when it ends or
	// is closed. The context it returns is the call's from then on, so a tracer can keep its
	// span there, and the trace context it sets with ContextWithTraceHeaders goes to the
	// servers with every RPC of the call. The reads of hbase:meta an Admin call makes
	// (Regions, Region, finding a region by name) are Get and Scan calls of their own, started
	// with the Admin call's context.
	CallStart func(ctx context.Context, ev CallStartInfo) context.Context
	// CallDone runs when the call ends, with the context CallStart returned.
	CallDone func(ctx context.Context, ev CallDoneInfo)
	// Attempt runs after each RPC of a call, successful or not: the place for latency per
	// server. A batch has one per MultiRequest (Op "Batch", one region server each, no Table);
	// an Admin call one per RPC to the master or to a region server's AdminService, the polls
	// of the procedure it waits for included.
	Attempt func(ctx context.Context, ev AttemptInfo)
	// Retry runs when an attempt failed and the call will be tried again; in a batch, once
	// for each action that will be sent again (with its Table and Row).
	Retry func(ctx context.Context, ev RetryInfo)
	// Backoff runs before each pause between two attempts (of a call, or of the client's
	// re-lookup of a region that is not served yet, whose context has no call's span).
	Backoff func(ctx context.Context, ev BackoffInfo)
	// RegionCache runs when a call looks for its region in the cache: hit or miss.
	RegionCache func(ctx context.Context, ev RegionCacheInfo)
	// Lookup runs after each lookup of a region in hbase:meta (on a cache miss, or to follow
	// a region that moved). It runs on a goroutine of the client, shared by the calls
	// waiting for the region, so it gets no call's context.
	Lookup func(ev LookupInfo)
	// Dial runs when the TCP connection to a server is made or failed; the security
	// handshake follows. It is not called when hbase.WithDialer gives the client a dialer of
	// its own.
	Dial func(ev DialInfo)
	// Connect runs when a connection is ready (dialled, TLS and SASL handshakes done,
	// connection header sent) or failed.
	Connect func(ev ConnectInfo)
	// ConnClosed runs when a connection the client used is closed: broken, or by Close.
	ConnClosed func(ev ConnClosedInfo)
	// ScanMetrics runs when a Scan made with hrpc.TrackScanMetrics ends, with the totals
	// of the server's scan metrics and the client's counts.
	ScanMetrics func(ctx context.Context, ev ScanMetricsInfo)
	// WriterFlush: a flush of a bufwriter.Writer ended, every outcome of its mutations
	// delivered. Its MultiRequests are also reported as a "Batch" call (CallStart, Attempt...).
	WriterFlush func(ctx context.Context, ev WriterFlushInfo)
	// Hedge: a Timeline read that asked secondary replicas (its primary was slow, down or
	// failed), when it ends.
	Hedge func(ctx context.Context, ev HedgeInfo)
}

// CallStartInfo describes a call that starts.
type CallStartInfo struct {
	// Op is the operation as the caller names it and its errors do, never the wire method:
	// "Get", "Put", "Scan", "Batch" (SendBatch), "CreateTable" (an Admin method)...
	Op    string
	Table string // empty for a batch and for Admin calls about no one table
	Row   []byte // the row (a Scan's start row; nil for a batch and Admin calls)
}

// CallDoneInfo describes a call that ended.
type CallDoneInfo struct {
	Op       string
	Table    string
	Row      []byte
	Region   []byte // the region of the last attempt; nil if none, or if it went to the master
	Server   string // host:port of the server (or master) of the last attempt; empty if none
	Attempts int    // RPCs sent: to region servers, and to the master for Admin calls
	Retries  int    // failed attempts (or region lookups) that were tried again
	Duration time.Duration
	// RequestBytes and ResponseBytes sum the protobuf messages and cellblocks of every
	// attempt (not the frame headers).
	RequestBytes, ResponseBytes int
	Err                         error  // nil on success
	Class                       string // hberr.Class(Err): "ok", "timeout", "not_found"...
}

// AttemptInfo describes one RPC of a call.
type AttemptInfo struct {
	Op       string
	Table    string
	Region   []byte
	Server   string
	Attempt  int // 1 for the first
	Duration time.Duration
	// RequestBytes and ResponseBytes are those of the protobuf messages and cellblocks
	// (ResponseBytes is 0 for a failed attempt).
	RequestBytes, ResponseBytes int
	Err                         error
	Class                       string
}

// RetryInfo describes a failed attempt that will be retried.
type RetryInfo struct {
	Op      string
	Table   string
	Row     []byte
	Server  string // the server of the failed attempt; empty when the region (or master) was not found
	Attempt int    // the attempt that failed
	Err     error
	Class   string
	// Relocate is true when the region (for an Admin call, the master or the region) will be
	// looked up again (it moved, its server failed), false when the same one is tried again
	// after a pause.
	Relocate bool
}

// BackoffInfo describes a pause before the next attempt.
type BackoffInfo struct {
	Pause time.Duration
	Count int // 1 for the first pause of this call or re-lookup
	// Overloaded is true when the pause follows a refusal by an overloaded server
	// (hberr.IsOverloaded): the longer pause of hbase.WithOverloadPause.
	Overloaded bool
	// Backpressure is true when the pause is the delay of a write to a server whose load
	// statistics ask for one (hbase.WithBackpressure); Server is then that server and Count 0.
	Backpressure bool
	Server       string
}

// RegionCacheInfo describes a look into the region cache.
type RegionCacheInfo struct {
	Table string
	Row   []byte
	Hit   bool
}

// LookupInfo describes one lookup of a region in hbase:meta.
type LookupInfo struct {
	Table    string
	Row      []byte
	Region   []byte // the region found; nil on error
	Server   string // where it is served; empty on error
	Duration time.Duration
	Err      error
}

// DialInfo describes one TCP dial to a server.
type DialInfo struct {
	Addr     string
	Duration time.Duration
	Err      error
}

// ConnectInfo describes one connection set up, from the dial to the connection header.
// Duration minus the DialInfo's is the time of the TLS and SASL handshakes.
type ConnectInfo struct {
	Addr     string
	Duration time.Duration
	Err      error
}

// ConnClosedInfo describes a connection that closed.
type ConnClosedInfo struct {
	Addr string
	Err  error // why it broke; nil when the client closed it
}

// ScanMetrics are the counts of one scan (hbase.Scanner.Metrics, and the ScanMetrics hook's
// event). RPCs, Regions, Retries and ResponseBytes are the client's; with
// hrpc.TrackScanMetrics the servers' scan metrics are added up too (RowsScanned, RowsFiltered
// and every metric by name in Server).
type ScanMetrics struct {
	RPCs          int64 // ScanRequests that got a response (opening and continuing scanners)
	Regions       int64 // regions scanned
	Retries       int64 // failed ScanRequests that were tried again (after a reopen if need be)
	ResponseBytes int64 // bytes of the ScanResponses' cellblocks

	// The servers' metrics, with hrpc.TrackScanMetrics only.
	RowsScanned  int64            // rows the servers read (ROWS_SCANNED)
	RowsFiltered int64            // rows the servers' filters dropped (ROWS_FILTERED)
	Server       map[string]int64 // every server metric by its HBase name
}

// ScanMetricsInfo is the ScanMetrics hook's event: the metrics of a scan that ended.
type ScanMetricsInfo struct {
	Table   string
	Metrics ScanMetrics
}

// ContextWithTraceHeaders returns a context whose RPCs carry headers (W3C trace context:
// "traceparent" and "tracestate") in their RequestHeader's trace_info, so that the spans of
// an HBase 2.5+ server with tracing on join the caller's trace. It is for a CallStart hook
// (contrib/otel uses it); the client sends it only when hooks are set.
func ContextWithTraceHeaders(ctx context.Context, headers map[string]string) (context.Context, error) {
	return region.ContextWithTraceInfo(ctx, headers)
}

// WriterFlushInfo describes one flush of a bufwriter.Writer: the mutations it sent and
// what became of them.
type WriterFlushInfo struct {
	Table     string
	Mutations int // mutations sent: Applied + Failed + Indeterminate
	Bytes     int64
	// Applied, Failed and Indeterminate count the outcomes (Indeterminate: may or may not
	// have been applied).
	Applied, Failed, Indeterminate int
	Duration                       time.Duration // from the flush's start, its wait for a slot included
	// HeldBytes is what the writer holds after this flush gave its bytes back: buffered and
	// being sent.
	HeldBytes int64
}

// HedgeInfo is a Timeline read whose primary replica did not answer within the hedge delay
// (or was down, or failed), so that the read went to the secondary replicas too.
type HedgeInfo struct {
	Op      string // "Get", or "Scan" for the first page of a scan in a region
	Table   string
	Region  []byte        // the primary replica's region name
	Primary string        // host:port of the primary's server
	Delay   time.Duration // how long the primary had alone
	Sent    int           // secondary replicas asked
	// Winner is the replica id that answered: 0 the primary, 1 and up a secondary (the
	// result is then Stale); -1 when none did.
	Winner int
}
