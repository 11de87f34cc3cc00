// Package hbase is a pure Go client for Apache HBase 2.x.
//
// The API is synchronous and driven by contexts: every call blocks until it has a result or
// its context ends, whichever comes first, and a call whose context ends returns at once (its
// late response is dropped). Underneath, the client is asynchronous: it keeps one connection
// per region server, multiplexes every call on it, and reads each connection with one
// goroutine at a time.
//
// The client finds hbase:meta through ZooKeeper (one session, reused) or, with
// WithBootstrapServers, through the servers' own connection registry, caches region
// locations in a B-tree keyed by table and start key, and re-looks up a region as soon as a
// server says it moved. While a region is being re-established, new calls for it wait on the
// region (or on their context) instead of hammering the cluster; exactly one goroutine does
// the lookup. Retries are bounded by the caller's context (and, optionally, a number of
// attempts): exponential backoff with full jitter for transient errors, an immediate
// re-lookup for moved regions, no retry at all for errors the server marks as final.
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
// Every error of a call is an *hberr.OpError that names the operation, then what failed; a
// Get from a table that does not exist prints as
//
//	hbase: Get "users"/"alice": table not found
//
// Error names live in package hberr only: decide with
// hberr.IsRetryable, hberr.IsNotFound and hberr.IsTimeout, test the sentinels
// (hberr.ErrTableNotFound, hberr.ErrNoSuchFamily, hberr.ErrDoNotRetry, hberr.ErrClosed...)
// with errors.Is, and read a server exception with errors.As into a *hberr.RemoteError.
//
// # The API by concern
//
//   - The client (client.go, options.go, security_options.go): NewClient with a ZooKeeper
//     quorum or WithBootstrapServers, its options (retries: WithMaxAttempts, WithNoRetries,
//     WithMaxBackoff; security: WithTLS, WithKerberosKeytab, WithProtection, WithAES...;
//     WithDialer, WithLogger), Close.
//   - Site files (siteconfig*.go): LoadSiteConfig reads hbase-site.xml and core-site.xml;
//     NewClientFromConfig connects with them.
//   - Data calls (ops.go): Get, Put, Delete, Append, Increment, CheckAndMutate, MutateRow.
//   - Scans (scanner.go): Scan, NewScanner and Scanner.
//   - Batches (batch.go): SendBatch, one BatchResult per call.
//   - Admin (admin*.go): Client.Admin, the master's and region servers' admin calls (tables,
//     families, namespaces, regions, snapshots, balancer, cluster status).
//   - Observing (hooks.go, stats.go, latency.go): WithHooks with package hbasetrace's Hooks,
//     Client.Stats, Client.ServerLatency, Scanner.Metrics.
//
// # Stability
//
// This package is part of go-hbase's stable API from v0.1.0, with hrpc, hberr, hbasetrace,
// hbasetest, hbasetest/faultnet and fakehbase: a later v0 minor version does not break a
// program that uses them. The lower layers region, zk, sasl and cipher are usable on their own
// (as pgx's pgconn and pgproto3 are below pgx) but are not part of it: they may change in any
// minor version, and nothing a program needs from the client makes it import them.
//
//snippets:text hbase: Get
package hbase
