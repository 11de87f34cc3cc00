// Package bufwriter buffers the mutations of one table and sends them in batches through a
// client of package hbase, as Java's BufferedMutator does: a Writer accepts Puts, Deletes,
// Appends and Increments, flushes them by size, count or interval, holds a bounded number of
// bytes, and delivers exactly one Outcome per accepted mutation.
//
//	w, err := bufwriter.New(client, "events", bufwriter.WithOnOutcome(func(o bufwriter.Outcome) {
//		if !o.Applied() {
//			log.Printf("%v", o.Err) // an *hberr.OpError naming the row
//		}
//	}))
//	if err != nil {
//		return err
//	}
//	put, err := hrpc.NewPut(table, row, hrpc.Value(fam, []byte("n"), []byte("1")))
//	if err != nil {
//		return err
//	}
//	if err := w.Write(ctx, put); err != nil { // waits while the writer is full
//		return err
//	}
//	return w.Close(ctx) // sends the rest; every outcome is delivered before it returns
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package bufwriter
