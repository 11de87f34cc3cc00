// Package parallelscan reads the rows of a scan with several scanners at once, one per key
// range (the scan's range cut at the table's region boundaries), through a client of package
// hbase: for batch jobs that read a whole table or a large part of it. Rows come in any order,
// or in key order (WithOrder); a Scanner's Token says what is left at any point, and
// WithResume starts a new scan there.
//
//	for row, err := range parallelscan.Scan(ctx, client, scan, parallelscan.WithConcurrency(8)) {
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// # Stability
//
// This package is part of go-hbase's API from v0.1.0. Before v1.0.0 a minor version may
// change it; CHANGELOG.md lists every change with what to use instead, and a patch version
// never changes it.
package parallelscan
