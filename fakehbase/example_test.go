package fakehbase_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func Example() {
	// In a test, fakehbase.NewServer(t) starts the server and closes it when the test ends.
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient() // the real client, bootstrapping from srv.Addr()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	put, err := hrpc.NewPut("users", []byte("alice"),
		hrpc.Value([]byte("info"), []byte("email"), []byte("alice@example.com")))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Put(ctx, put); err != nil {
		log.Fatal(err)
	}
	get, err := hrpc.NewGet("users", []byte("alice"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Cells {
		fmt.Printf("%s:%s = %s\n", c.Family, c.Qualifier, c.Value)
	}
	// Output: info:email = alice@example.com
}

// saveEmail is the code under test of Example_unitTest: it stores a user's email address.
func saveEmail(ctx context.Context, c *hbase.Client, user, email string) error {
	put, err := hrpc.NewPut("users", []byte(user), hrpc.Value([]byte("info"), []byte("email"), []byte(email)))
	if err != nil {
		return err
	}
	_, err = c.Put(ctx, put)
	return err
}

// A unit test of code that uses the client: the server makes the failures a cluster has
// (a busy region, a missing table), and tells what the client sent.
func Example_unitTest() {
	srv, err := fakehbase.Start() // in a test: srv := fakehbase.NewServer(t)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	// The region is too busy twice: the client pauses and sends the Put again.
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Table: "users"}, fakehbase.RegionTooBusy, "busy", 2); err != nil {
		log.Fatal(err)
	}
	err = saveEmail(ctx, client, "alice", "alice@example.com")
	fmt.Println("saved:", err == nil, "- Puts sent:", srv.Calls(fakehbase.Match{Op: fakehbase.OpPut, Table: "users"}))

	// A failure no retry mends ends the call at once.
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Row: []byte("bob")}, fakehbase.DoNotRetry, "refused", 1); err != nil {
		log.Fatal(err)
	}
	err = saveEmail(ctx, client, "bob", "bob@example.com")
	fmt.Println("refused:", errors.Is(err, hberr.ErrDoNotRetry))
	// Output:
	// saved: true - Puts sent: 3
	// refused: true
}

// Timeouts: a slow server, and a caller's deadline.
func ExampleServer_InjectDelay() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	if err := srv.InjectDelay(fakehbase.Match{Op: fakehbase.OpGet, Table: "users"}, time.Second, 1); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	get, err := hrpc.NewGet("users", []byte("alice"))
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Get(ctx, get)
	fmt.Println("deadline:", errors.Is(err, context.DeadlineExceeded))
	// Output: deadline: true
}

// A region moving between servers, as a balancer moves it: the client follows it.
func ExampleServer_MoveRegion() {
	srv, err := fakehbase.Start(fakehbase.WithRegionServers(2))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}, []byte("m")); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	if err := saveEmail(ctx, client, "alice", "alice@example.com"); err != nil {
		log.Fatal(err)
	}
	if err := srv.MoveRegion("users", []byte("alice")); err != nil {
		log.Fatal(err)
	}
	// The old server answers RegionMovedException; the client goes to the new one.
	err = saveEmail(ctx, client, "alice", "alice@example.org")
	fmt.Println("saved after the move:", err == nil, "- Puts sent:", srv.Calls(fakehbase.Match{Op: fakehbase.OpPut, Table: "users"}))
	// Output: saved after the move: true - Puts sent: 3
}

// Timestamps from a clock of the test's own.
func ExampleWithClock() {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv, err := fakehbase.Start(fakehbase.WithClock(func() time.Time { return at }))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := saveEmail(ctx, client, "alice", "alice@example.com"); err != nil {
		log.Fatal(err)
	}
	get, err := hrpc.NewGet("users", []byte("alice"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(time.UnixMilli(int64(res.Cells[0].Timestamp)).UTC())
	// Output: 2026-01-02 03:04:05 +0000 UTC
}

// Seeding the rows the code under test reads, and checking the rows it wrote, on the server
// side: no client, no request of the test's own in the call log.
func ExampleServer_Put() {
	srv, err := fakehbase.Start() // in a test: srv := fakehbase.NewServer(t)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	if err := srv.Put("users", "alice", "info", "email", "alice@example.com"); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	// The code under test reads the seeded row and writes another.
	get, err := hrpc.NewGet("users", []byte("alice"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.Get(ctx, get)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("client read %s\n", res.Cells[0].Value)
	if err := saveEmail(ctx, client, "bob", "bob@example.com"); err != nil {
		log.Fatal(err)
	}

	// In a test: srv.CheckGet(t, "users", "bob", "info", "email", "bob@example.com").
	email, ok, err := srv.Get("users", "bob", "info", "email")
	fmt.Println("server has bob:", email, ok, err)
	rows, err := srv.Rows("users")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rows {
		fmt.Printf("row %s: %d cell(s)\n", r.Cells[0].Row, len(r.Cells))
	}
	// Output:
	// client read alice@example.com
	// server has bob: bob@example.com true <nil>
	// row alice: 1 cell(s)
	// row bob: 1 cell(s)
}

// The calls a test's client made, in order: the Put a fault refused, the Put sent again. The
// log also holds the client's own lookups, on hbase:meta, left out here.
func ExampleServer_CallLog() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut}, fakehbase.RegionTooBusy, "busy", 1); err != nil {
		log.Fatal(err)
	}
	if err := saveEmail(ctx, client, "alice", "alice@example.com"); err != nil {
		log.Fatal(err)
	}
	for _, c := range srv.CallLog() {
		if c.Table != "hbase:meta" {
			fmt.Println(c)
		}
	}
	// Output:
	// Put "users" "alice" -> RegionTooBusy
	// Put "users" "alice"
}

// A misspelt exception or operation is refused, never a fault that cannot fire.
func ExampleServer_InjectError_refused() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	fmt.Println(srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet}, "org.apache.hadoop.hbase.RegionTooBusyExcepton", "busy", 1))
	fmt.Println(srv.InjectError(fakehbase.Match{Op: "Gett"}, fakehbase.RegionTooBusy, "busy", 1))
	// Output:
	// fakehbase: InjectError: exception "org.apache.hadoop.hbase.RegionTooBusyExcepton" is not one fakehbase raises: did you mean fakehbase.RegionTooBusy (org.apache.hadoop.hbase.RegionTooBusyException)?
	// fakehbase: InjectError: unknown operation "Gett": did you mean "Get" (fakehbase.OpGet)?
}
