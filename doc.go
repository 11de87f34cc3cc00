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
//	if err != nil {
//		return err // bad input: nothing was sent
//	}
//	res, err := client.Get(ctx, get)
//	if err != nil {
//		return err
//	}
//	for _, c := range res.Cells {
//		fmt.Printf("%s:%s = %s\n", c.Family, c.Qualifier, c.Value)
//	}
//
// Scans are iterators bounded by one context (NewScanner gives the explicit Next form):
//
//	for row, err := range client.Scan(ctx, scan) {
//		if err != nil {
//			return err
//		}
//		fmt.Printf("%s\n", row.Cells[0].Row)
//	}
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
//   - The client (client.go, options.go): NewClient with a ZooKeeper quorum or
//     WithBootstrapServers, its options (retries: WithMaxAttempts, WithNoRetries,
//     WithMaxBackoff; WithTLS, WithDialer, WithLogger...), Close; Ping (ping.go), a readiness
//     probe. Kerberos is package kerberos's options (kerberos.WithKeytab...), so that
//     a program without it does not build the Kerberos stack.
//   - Site files (siteconfig*.go): LoadSiteConfig reads hbase-site.xml and core-site.xml;
//     NewClientFromConfig connects with them.
//   - Data calls (ops.go): Get, Put, Delete, Append, Increment, CheckAndMutate, MutateRow.
//   - Scans (scanner.go): Scan, NewScanner and Scanner. Package parallelscan reads a scan's
//     key ranges in parallel.
//   - Batches (batch.go): SendBatch, one hrpc.BatchResult per call. Package bufwriter buffers
//     a table's mutations and sends them in batches.
//   - The region cache (regions.go): CacheRegions, ClearRegionCache.
//   - Observing (stats.go): WithHooks with package hbasetrace's Hooks, Stats and ServerLatency
//     (hbasetrace's types), Scanner.Metrics.
//   - Administration: package admin (admin.New(client)): tables, families, namespaces,
//     regions, snapshots, balancer, cluster status.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
//
//snippets:text hbase: Get
package hbase
