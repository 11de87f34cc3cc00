package bufwriter_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// A BufferedWriter for ingest: mutations are buffered and sent in batches; each accepted
// mutation gets exactly one Outcome, here counted by a callback; Close sends the rest and waits
// for every outcome.
func ExampleNew() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("events", []string{"d"}, []byte("m")); err != nil {
		log.Fatal(err)
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	var mu sync.Mutex
	applied, failed, indeterminate := 0, 0, 0
	w, err := bufwriter.New(client, "events",
		bufwriter.WithWriteBuffer(1<<20),                  // at most 1 MiB held, buffered and being sent
		bufwriter.WithFlushInterval(100*time.Millisecond), // a lone mutation waits at most this long
		bufwriter.WithOnOutcome(func(o bufwriter.Outcome) { // from the writer's goroutines, one at a time
			mu.Lock()
			defer mu.Unlock()
			switch {
			case o.Applied():
				applied++
			case o.Indeterminate(): // may or may not have been applied: read the row to know
				indeterminate++
			default: // not applied; o.Err is an *hberr.OpError naming the row
				failed++
			}
		}))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 100 {
		put, err := hrpc.NewPut("events", fmt.Appendf(nil, "%c-%03d", 'a'+i%26, i),
			hrpc.Value([]byte("d"), []byte("n"), fmt.Append(nil, i)))
		if err != nil {
			log.Fatal(err)
		}
		// Blocks while the writer is full, until ctx ends (bufwriter.WithFailFast refuses instead).
		if err := w.Write(ctx, put); err != nil {
			log.Fatal(err) // refused: hberr.ErrWriterFull, hberr.ErrClosed or a bad mutation
		}
	}
	// An Increment carries a nonce: a resend after a lost connection is applied once.
	inc, err := hrpc.NewIncrement("events", []byte("count"), hrpc.Amount([]byte("d"), []byte("n"), 100))
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(ctx, inc); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		log.Fatal(err)
	}
	if err := w.Write(ctx, inc); errors.Is(err, hberr.ErrClosed) {
		fmt.Println("closed: write refused")
	}
	fmt.Printf("applied %d, failed %d, indeterminate %d\n", applied, failed, indeterminate)

	get, err := hrpc.NewGet("events", []byte("count"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("count:", binary.BigEndian.Uint64(res.Cells[0].Value))
	// Output:
	// closed: write refused
	// applied 101, failed 0, indeterminate 0
	// count: 100
}

// Outcomes tied to the caller's data: each mutation is written with a tag (here the order it
// stores), handed back in its Outcome beside the mutation's table, row and kind, so the
// callback knows which order to retry or report without a map of its own.
func ExampleWriter_WriteTagged() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("orders", []string{"o"}); err != nil {
		log.Fatal(err)
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	type order struct {
		ID     int
		Amount int64
	}
	var mu sync.Mutex
	var failed []string
	w, err := bufwriter.New(client, "orders", bufwriter.WithOnOutcome(func(o bufwriter.Outcome) {
		if o.Applied() {
			return
		}
		ord := o.Tag.(*order) // the tag given to WriteTagged
		mu.Lock()
		defer mu.Unlock()
		failed = append(failed, fmt.Sprintf("order %d: %v of %s/%s, no such family: %v",
			ord.ID, o.Kind(), o.Table(), o.Row(), errors.Is(o.Err, hberr.ErrNoSuchFamily)))
	}))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for id := range 5 {
		ord := &order{ID: id, Amount: int64(100 * id)}
		family := []byte("o")
		if id == 3 {
			family = []byte("x") // a bug: the table has no such family, the server refuses the Put
		}
		put, err := hrpc.NewPut("orders", fmt.Appendf(nil, "order-%d", id),
			hrpc.Value(family, []byte("amount"), fmt.Append(nil, ord.Amount)))
		if err != nil {
			log.Fatal(err)
		}
		if err := w.WriteTagged(ctx, put, ord); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		log.Fatal(err)
	}
	for _, f := range failed {
		fmt.Println(f)
	}
	// Output:
	// order 3: Put of orders/order-3, no such family: true
}
