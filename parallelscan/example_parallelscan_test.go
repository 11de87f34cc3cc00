package parallelscan_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/parallelscan"
)

// exampleTable starts an in-process HBase with table "events" in four regions and ten rows,
// and a client of it.
func exampleTable() (*fakehbase.Server, *hbase.Client) {
	srv, err := fakehbase.Start(fakehbase.WithRegionServers(2))
	if err != nil {
		log.Fatal(err)
	}
	if err := srv.CreateTable("events", []string{"d"}, []byte("e3"), []byte("e5"), []byte("e8")); err != nil {
		log.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := range 10 {
		put, err := hrpc.NewPut("events", fmt.Appendf(nil, "e%d", i),
			hrpc.Value([]byte("d"), []byte("n"), fmt.Appendf(nil, "%d", i)))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := client.Put(ctx, put); err != nil {
			log.Fatal(err)
		}
	}
	return srv, client
}

func ExampleScan() {
	srv, client := exampleTable()
	defer srv.Close()
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	scan, err := hrpc.NewScan("events")
	if err != nil {
		log.Fatal(err)
	}
	// The four regions read three at a time, rows in key order (without Ordered they come as
	// they arrive).
	for row, err := range parallelscan.Scan(ctx, client, scan, parallelscan.WithConcurrency(3), parallelscan.WithOrder()) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s ", row.Cells[0].Row)
	}
	fmt.Println()
	// Output: e0 e1 e2 e3 e4 e5 e6 e7 e8 e9
}

func ExampleScanner_Token() {
	srv, client := exampleTable()
	defer srv.Close()
	defer client.Close()

	scan, err := hrpc.NewScan("events")
	if err != nil {
		log.Fatal(err)
	}
	// A batch job stops part way (here its context is cancelled after four rows) and keeps
	// the token.
	ctx, cancel := context.WithCancel(context.Background())
	ps := parallelscan.New(ctx, client, scan, parallelscan.WithConcurrency(2))
	done := 0
	for ps.Next() {
		if done++; done == 4 {
			cancel()
		}
	}
	fmt.Println("first run:", done, "rows, then", ps.Err())
	token := ps.Token() // a byte string to store
	ps.Close()

	// A later run resumes from it: only the rows not returned yet come.
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, err := range parallelscan.Scan(ctx, client, scan, parallelscan.WithResume(token)) {
		if err != nil {
			log.Fatal(err)
		}
		done++
	}
	fmt.Println("after resuming:", done, "rows")
	// Output:
	// first run: 4 rows, then hbase: ParallelScan "events"/"": context canceled
	// after resuming: 10 rows
}

// A batch job's loop over Scanner.All: when the work on a row fails, the loop breaks and the
// job keeps the Token, which leaves that row (and every row not returned yet) to the resumed
// scan.
func ExampleScanner_All() {
	srv, client := exampleTable()
	defer srv.Close()
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	scan, err := hrpc.NewScan("events")
	if err != nil {
		log.Fatal(err)
	}
	var done []string
	process := func(row *hrpc.Result) error { // the job's work on one row
		if string(row.Cells[0].Row) == "e6" {
			return errors.New("e6: downstream unavailable")
		}
		done = append(done, string(row.Cells[0].Row))
		return nil
	}
	var token []byte
	ps := parallelscan.New(ctx, client, scan, parallelscan.WithOrder())
	for row, err := range ps.All() {
		if err != nil { // the scan failed: the token says what is left
			token = ps.Token()
			break
		}
		if err := process(row); err != nil {
			fmt.Println("first run:", done, "then", err)
			token = ps.Token() // row is not counted as done
			break
		}
	}

	// A later run resumes from the token, beginning with the row the loop broke out on.
	done = nil
	ps = parallelscan.New(ctx, client, scan, parallelscan.WithOrder(), parallelscan.WithResume(token))
	for row, err := range ps.All() {
		if err != nil {
			log.Fatal(err)
		}
		done = append(done, string(row.Cells[0].Row))
	}
	fmt.Println("resumed:", done)
	// Output:
	// first run: [e0 e1 e2 e3 e4 e5] then e6: downstream unavailable
	// resumed: [e6 e7 e8 e9]
}

func ExampleClient_CacheRegions() {
	srv, client := exampleTable()
	defer srv.Close()
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	client.ClearRegionCache("events")
	fmt.Println("cached:", client.Stats().CachedRegions)
	// One scan of hbase:meta caches every region of the table, and connects to their servers.
	if err := client.CacheRegions(ctx, "events"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("cached:", client.Stats().CachedRegions)
	// Output:
	// cached: 0
	// cached: 4
}
