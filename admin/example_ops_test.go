package admin_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
)

// The calls fakehbase serves, TableDisabled among them, run in a unit test; those it does not
// (the switches, procedures, compaction state...) say so.
func ExampleAdmin_TableDisabled() {
	srv, err := fakehbase.Start() // in a test: fakehbase.NewServer(t)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("orders", []string{"o"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx := context.Background()

	disabled, err := adm.TableDisabled(ctx, "orders")
	fmt.Println("disabled:", disabled, err)
	if err := adm.DisableTable(ctx, "orders"); err != nil {
		log.Fatal(err)
	}
	disabled, err = adm.TableDisabled(ctx, "orders")
	fmt.Println("disabled:", disabled, err)

	_, err = adm.Procedures(ctx)
	fmt.Println("procedures on fakehbase:", errors.Is(err, hberr.ErrNotSupported))
	// Output:
	// disabled: false <nil>
	// disabled: true <nil>
	// procedures on fakehbase: true
}
