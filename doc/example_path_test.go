package doc_test

import (
	"fmt"
	"log"

	"github.com/go-hbase/hbase/doc"
)

// Every path has one canonical text, the qualifier of its cell: the forms users may write
// come back in it, and keys that are not bare are quoted.
func ExampleParsePath() {
	for _, p := range []string{"address.city", `.["tags"][0]`, `.["a.b"]`, ".名前", `.["\u0001"]`, ".a[01]"} {
		c, err := doc.ParsePath(p)
		if err != nil {
			fmt.Println("refused:", p)
			continue
		}
		fmt.Println(c)
	}
	fmt.Println(doc.PathOf("orders", 0, "sku"), doc.PathOf("a.b", 2))
	// Output:
	// .address.city
	// .tags[0]
	// .["a.b"]
	// .名前
	// .["\u0001"]
	// refused: .a[01]
	// .orders[0].sku .["a.b"][2]
}

// JSON text is read into the canonical form that documents hold: integers as int64, other
// numbers as float64, and written back with the same values and types.
func ExampleParseJSON() {
	m, err := doc.ParseJSON([]byte(`{"n": 5, "x": 5.0, "big": 9007199254740993, "tags": ["a", null]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%T %T %v\n", m["n"], m["x"], m["big"])
	out, err := doc.MarshalJSON(m)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// int64 float64 9007199254740993
	// {"big":9007199254740993,"n":5,"tags":["a",null],"x":5.0}
}
