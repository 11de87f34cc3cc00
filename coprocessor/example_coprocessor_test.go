package coprocessor_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase/coprocessor"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Calling an endpoint the region does not have: fakehbase loads no coprocessor, so it answers
// as HBase does for a service that is not loaded, with an error matching
// hberr.ErrNotSupported. The messages here stand for your own generated request and
// response types.
func ExampleCall() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	m := coprocessor.Method{Service: "example.RowCountService", Name: "getRowCount"}
	var count wrapperspb.Int64Value
	err = coprocessor.Call(ctx, client, "t", []byte("row1"), m, wrapperspb.String("f"), &count)
	switch {
	case errors.Is(err, hberr.ErrNotSupported):
		fmt.Println("endpoint not loaded:", err)
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Println("rows:", count.GetValue())
	}
	// Output:
	// endpoint not loaded: hbase: example.RowCountService.getRowCount "t"/"row1": java.lang.UnsupportedOperationException: fakehbase: coprocessor endpoint example.RowCountService.getRowCount (on the regions of t) is not supported
}

// Calling a method on every region of a table: one Result per region, each with its response or
// its error.
func ExampleCallRegions() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("t", []string{"f"}, []byte("m")); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	m := coprocessor.Method{Service: "example.RowCountService", Name: "getRowCount"}
	results, err := coprocessor.CallRegions[*wrapperspb.Int64Value](ctx, client, "t", nil, nil, m, wrapperspb.String("f"))
	var total int64
	for _, r := range results {
		if r.Err != nil {
			fmt.Printf("region starting at %q: not supported: %v\n", r.Start, errors.Is(r.Err, hberr.ErrNotSupported))
			continue
		}
		total += r.Response.GetValue()
	}
	var re *hberr.RegionsError
	if errors.As(err, &re) {
		fmt.Printf("%d of %d regions failed\n", len(re.Errs), re.Regions)
	}
	// Output:
	// region starting at "": not supported: true
	// region starting at "m": not supported: true
	// 2 of 2 regions failed
}
