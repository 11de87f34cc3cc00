package admin_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
)

// Grants name a user (or "@group"), a scope and actions. This runs on fakehbase, which has no
// AccessController, so the grant is refused as not supported; on a cluster that loads it the
// guest may read family o of shop:orders afterwards (internal/securitytest shows each scope
// by its effect).
func ExampleAdmin_Grant() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateNamespace("shop"); err != nil {
		log.Fatal(err)
	}
	if err := srv.CreateTable("shop:orders", []string{"o"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	read := admin.Permission{
		Scope:   admin.Scope{Table: "shop:orders", Family: "o"},
		Actions: []admin.Action{admin.ActionRead},
	}
	err = adm.Grant(ctx, "guest", read)
	fmt.Println("no AccessController:", errors.Is(err, hberr.ErrNotSupported))

	// Bad input is refused before anything is sent, naming what was wrong.
	err = adm.Grant(ctx, "@", read)
	fmt.Println(err)
	err = adm.Grant(ctx, "guest", admin.Permission{Actions: []admin.Action{"READX"}})
	fmt.Println(err)
	// Output:
	// no AccessController: true
	// hbase: Grant "@ on table shop:orders family o": hrpc: bad request: empty group name (a group is "@name")
	// hbase: Grant "guest on global": hrpc: bad request: unknown action "READX" (want READ, WRITE, EXEC, CREATE or ADMIN)
}

// A user's permissions at a scope: a table's include those on its families and columns. A
// refusal names the user, scope and action the server refused (hberr.Denied).
func ExampleAdmin_UserPermissions() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateNamespace("shop"); err != nil {
		log.Fatal(err)
	}
	if err := srv.CreateTable("shop:orders", []string{"o"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	perms, err := adm.UserPermissions(ctx, admin.Scope{Namespace: "shop"}, "guest")
	if d, ok := hberr.Denied(err); ok {
		fmt.Printf("%s may not %s on %s\n", d.User, d.Action, d.Scope)
	}
	for _, p := range perms {
		fmt.Println(p.User, p.Scope, p.Actions)
	}
	fmt.Println("no AccessController:", errors.Is(err, hberr.ErrNotSupported))
	// Output:
	// no AccessController: true
}
