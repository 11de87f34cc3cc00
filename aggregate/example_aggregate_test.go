package aggregate_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase/aggregate"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// The sum of a column over a range of rows. fakehbase loads no coprocessor, so the call fails
// as on a table whose regions do not load AggregateImplementation; on such a table the same
// code prints the sum.
func ExampleSum() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("sales", []string{"m"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	scan, err := hrpc.NewScan("sales", hrpc.StartRow([]byte("2024")), hrpc.StopRow([]byte("2025")),
		hrpc.Columns([]byte("m"), []byte("amount")))
	if err != nil {
		log.Fatal(err)
	}
	sum, ok, err := aggregate.Sum(ctx, client, scan, aggregate.Long())
	switch {
	case errors.Is(err, hberr.ErrNotSupported):
		fmt.Println("no aggregation endpoint:", err)
	case err != nil:
		log.Fatal(err)
	case !ok:
		fmt.Println("no value in the range")
	default:
		fmt.Println("sum:", sum)
	}
	// Output:
	// no aggregation endpoint: hbase: AggregateService.GetSum "sales": 1 of 1 regions failed; first: hbase: AggregateService.GetSum "sales"/"2024": java.lang.UnsupportedOperationException: fakehbase: coprocessor endpoint AggregateService.GetSum (on the regions of sales) is not supported
}
