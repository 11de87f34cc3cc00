package doc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/doc"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
)

// setup starts a fakehbase server with the tables of the examples and returns a client of it.
func setup() (*fakehbase.Server, *hbase.Client) {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	for _, table := range []string{"users", "users_index"} {
		if err := srv.CreateTable(table, []string{"d"}); err != nil {
			log.Fatal(err)
		}
	}
	client, err := hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
	if err != nil {
		log.Fatal(err)
	}
	return srv, client
}

// A collection of JSON documents: insert, partial updates in one atomic row mutation, whole
// and projected reads.
func Example() {
	srv, client := setup()
	defer srv.Close()
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	users, err := doc.Open(client, "users", "d")
	if err != nil {
		log.Fatal(err)
	}
	_, err = users.Insert(ctx, "alice", json.RawMessage(`{
		"name": "Alice",
		"address": {"city": "Paris", "geo": [48.8566, 2.3522]},
		"tags": ["admin"],
		"logins": 41
	}`))
	if err != nil {
		log.Fatal(err)
	}
	// All or nothing, in one CheckAndMutate; only the cells the ops touch are read.
	version, err := users.Update(ctx, "alice", []doc.Op{
		doc.Set(".address.zip", "75001"),
		doc.Append(".tags", "ops"),
		doc.Increment(".logins", 1),
		doc.Remove(".address.geo"),
	})
	if err != nil {
		log.Fatal(err)
	}
	d, err := users.Get(ctx, "alice")
	if err != nil {
		log.Fatal(err)
	}
	out, _ := d.JSON()
	fmt.Printf("v%d %s\n", version, out)

	// A projection reads the cells of those paths only.
	p, err := users.Get(ctx, "alice", doc.Project(".name", ".tags[1]"))
	if err != nil {
		log.Fatal(err)
	}
	out, _ = p.JSON()
	fmt.Println(string(out))

	// An update that cannot apply writes nothing.
	_, err = users.Update(ctx, "alice", []doc.Op{doc.Set(".name.first", "A")})
	fmt.Println(errors.Is(err, hberr.ErrInvalidUpdate))
	// Output:
	// v2 {"address":{"city":"Paris","zip":"75001"},"logins":42,"name":"Alice","tags":["admin","ops"]}
	// {"name":"Alice","tags":[null,"ops"]}
	// true
}

// User is a Go struct stored as a document: fields named by their doc tags.
type User struct {
	Name    string            `doc:"name"`
	Email   string            `doc:"email,omitempty"`
	Age     int               `doc:"age"`
	Scores  []float64         `doc:"scores"`
	Labels  map[string]string `doc:"labels,omitempty"`
	Created time.Time         `doc:"created"`
	secret  string
}

// Structs go in and come out exactly; a conditional write refuses a document that changed
// since it was read.
func ExampleCollection_Insert_struct() {
	srv, client := setup()
	defer srv.Close()
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	users, err := doc.Open(client, "users", "d")
	if err != nil {
		log.Fatal(err)
	}
	in := User{Name: "Bob", Age: 37, Scores: []float64{1.5, 2}, Created: time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), secret: "x"}
	if _, err := users.Insert(ctx, "bob", &in); err != nil {
		log.Fatal(err)
	}
	d, err := users.Get(ctx, "bob")
	if err != nil {
		log.Fatal(err)
	}
	var out User
	if err := d.Decode(&out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %d %v %s\n", out.Name, out.Age, out.Scores, out.Created.Format(time.RFC3339))

	// Another writer changes the document meanwhile...
	if _, err := users.Update(ctx, "bob", []doc.Op{doc.Increment(".age", 1)}); err != nil {
		log.Fatal(err)
	}
	// ...so a write conditional on the version read is refused, and writes nothing.
	out.Email = "bob@example.com"
	_, err = users.Replace(ctx, "bob", &out, doc.IfVersion(d.Version))
	fmt.Println(errors.Is(err, hberr.ErrVersionConflict))
	// Output:
	// Bob 37 [1.5 2] 2026-03-01T09:30:00Z
	// true
}

// A secondary index: Find looks the values up in it instead of scanning the collection, and
// RepairIndex rebuilds it (here for documents written before the index was defined).
func ExampleCollection_Find() {
	srv, client := setup()
	defer srv.Close()
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	plain, err := doc.Open(client, "users", "d")
	if err != nil {
		log.Fatal(err)
	}
	for i, city := range []string{"Paris", "Lyon", "Paris", "Nice"} {
		if _, err := plain.Insert(ctx, fmt.Sprintf("u%d", i), map[string]any{"city": city, "age": 20 + 10*i}); err != nil {
			log.Fatal(err)
		}
	}
	users, err := doc.Open(client, "users", "d", doc.WithIndex("city", ".city"))
	if err != nil {
		log.Fatal(err)
	}
	report, err := users.RepairIndex(ctx, "city")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows added:", report.Added)

	cond := doc.And(doc.Eq(".city", "Paris"), doc.Gt(".age", 25))
	plan, _ := users.Explain(cond)
	fmt.Println(plan[:len("index city")])
	for d, err := range users.Find(ctx, cond, doc.Project(".age")) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(d.ID, d.Fields["age"])
	}
	// Without an index the condition is pushed down as HBase filters on a scan.
	for d, err := range users.Find(ctx, doc.HasPrefix(".city", "L")) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(d.ID, d.Fields["city"])
	}
	// Output:
	// rows added: 4
	// index city
	// u2 40
	// u1 Lyon
}
