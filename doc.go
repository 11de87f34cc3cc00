// Package hbase is a pure Go client for Apache HBase 2.x.
//
// The API is synchronous and driven by contexts: every call blocks until it has a result or
// its context ends, whichever comes first, and a call whose context ends returns at once (its
// late response is dropped). Underneath, the client is asynchronous: it keeps one connection
// per region server, multiplexes every call on it, and reads each connection with exactly one
// goroutine.
//
// The client finds hbase:meta through ZooKeeper (one session, reused) or, with
// WithBootstrapServers, through the servers' own connection registry, caches region
// locations in a B-tree keyed by table and start key, and re-looks up a region as soon as a
// server says it moved. While a region is being re-established, new calls for it wait on the
// region (or on their context) instead of hammering the cluster; exactly one goroutine does
// the lookup. Retries are bounded by the caller's context only: exponential backoff with full
// jitter for transient errors, an immediate re-lookup for moved regions, no retry at all for
// errors the server marks as final.
//
// Requests are built and validated by package hrpc before anything is sent; each operation
// has its own type, and options are typed by the request they apply to:
//
//	get, err := hrpc.NewGet(table, row, hrpc.Families(fam))
//	res, err := client.Get(ctx, get)
//
// Scans are iterators bounded by one context (NewScanner gives the explicit Next form):
//
//	for row, err := range client.Scan(ctx, scan) { ... }
//
// Every error is an *hberr.OpError that prints as the operation ("hbase: Get "users"/"alice": table
// not found"). Decide with hberr.IsRetryable, hberr.IsNotFound and hberr.IsTimeout, test the sentinels
// (hberr.ErrTableNotFound, hberr.ErrNoSuchFamily, hberr.ErrDoNotRetry, hberr.ErrClosed ...) with errors.Is, and read a
// server exception with errors.As into a *hberr.RemoteError.
package hbase
