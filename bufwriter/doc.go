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
//	...
//	err = w.Write(ctx, put)
//	...
//	err = w.Close(ctx)
//
// # Stability
//
// This package is part of go-hbase's API from v0.1.0. Before v1.0.0 a minor version may
// change it; CHANGELOG.md lists every change with what to use instead, and a patch version
// never changes it.
package bufwriter
