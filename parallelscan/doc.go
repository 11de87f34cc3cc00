// Package parallelscan reads the rows of a scan with several scanners at once, one per key
// range (the scan's range cut at the table's region boundaries), through a client of package
// hbase: for batch jobs that read a whole table or a large part of it. Rows come in any order,
// or in key order (WithOrder); a Scanner's Token says what is left at any point, also after
// a loop over its All that failed or broke, and WithResume starts a new scan there.
//
//	for row, err := range parallelscan.Scan(ctx, client, scan, parallelscan.WithConcurrency(8)) {
//		if err != nil {
//			return err
//		}
//		fmt.Printf("%s\n", row.Cells[0].Row) // rows of all ranges, interleaved
//	}
//
// A job that resumes makes the Scanner itself and ranges over its All:
//
//	ps := parallelscan.New(ctx, client, scan, parallelscan.WithConcurrency(8))
//	for row, err := range ps.All() {
//		if err != nil {
//			return fmt.Errorf("resume from %x: %w", ps.Token(), err)
//		}
//		fmt.Printf("%s\n", row.Cells[0].Row)
//	}
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package parallelscan
