// Package bufwriter buffers the mutations of one table and sends them in batches through a
// client of package hbase, as Java's BufferedMutator does: a Writer accepts Puts, Deletes,
// Appends and Increments, flushes them by size, count or interval, holds a bounded number of
// bytes, and delivers exactly one Outcome per accepted mutation.
//
//	w, err := bufwriter.New(client, "events", bufwriter.WithOnOutcome(func(o bufwriter.Outcome) {
//		if !o.Applied() {
//			// o.Err is an *hberr.OpError naming the row; o.Tag is what WriteTagged was given.
//			log.Printf("event %v: %v of %q: %v", o.Tag, o.Kind(), o.Row(), o.Err)
//		}
//	}))
//	if err != nil {
//		return err
//	}
//	put, err := hrpc.NewPut("events", row, hrpc.Value(fam, []byte("n"), []byte("1")))
//	if err != nil {
//		return err
//	}
//	if err := w.WriteTagged(ctx, put, "event-42"); err != nil { // waits while the writer is full
//		return err
//	}
//	return w.Close(ctx) // sends the rest; every outcome is delivered before it returns
//
// # Tying an outcome to the caller's data
//
// An Outcome names its mutation's table, row and kind (Table, Row, Kind) and carries the tag
// it was written with: WriteTagged(ctx, m, tag) and WriteBatchTagged(ctx, ms, tags) take any
// value of the caller's (an order, an event, a channel to answer on) and hand it back
// untouched in Outcome.Tag; Write and WriteBatch leave it nil. The tag is an argument, not a
// context value: the outcome comes after Write returned, on the writer's goroutines, and a
// context kept past its call for one value would keep everything it holds.
//
// # Time to an outcome
//
// WithFlushTimeout bounds the time from a flush's start to its mutations' outcomes, the wait
// for a flush slot (WithMaxFlushes) included; a flush starts at the latest WithFlushInterval
// after its buffer's first mutation. So with both on, a mutation's outcome comes at most the
// interval plus the timeout after Write accepted it (plus the time the WithOnOutcome callback
// spends on the outcomes delivered before it).
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package bufwriter
