package hrpc_test

import (
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
)

func ExampleNewGet() {
	get, err := hrpc.NewGet([]byte("users"), []byte("row-1"),
		hrpc.Columns([]byte("info"), []byte("name"), []byte("email")),
		hrpc.MaxVersions(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	g := get.Proto()
	fmt.Printf("%s %s %q max_versions=%d\n", get.Method(), g.Row, g.Column[0].Qualifier, g.GetMaxVersions())

	// Bad input is refused before anything is sent.
	_, err = hrpc.NewGet([]byte("users"), nil)
	fmt.Println(err)
	// Output:
	// Get row-1 ["name" "email"] max_versions=3
	// hrpc: bad request: nil or empty row
}

func ExampleNewPut() {
	put, err := hrpc.NewPut([]byte("users"), []byte("row-1"),
		hrpc.Value([]byte("info"), []byte("name"), []byte("Ada")),
		hrpc.Value([]byte("info"), []byte("email"), []byte("ada@example.com")),
		hrpc.Timestamp(1700000000000))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range put.Cells() {
		fmt.Printf("%s/%s:%s@%d=%s\n", c.Row, c.Family, c.Qualifier, c.Timestamp, c.Value)
	}

	// An option that does not fit the request type does not compile
	// (hrpc.NewPut(table, row, hrpc.MaxVersions(2))); a bad argument is an error.
	_, err = hrpc.NewPut([]byte("users"), []byte("row-1"), hrpc.Value(nil, []byte("q"), nil))
	fmt.Println(err)
	// Output:
	// row-1/info:name@1700000000000=Ada
	// row-1/info:email@1700000000000=ada@example.com
	// hrpc: bad request: empty column family
}

func ExampleNewScan() {
	filter := hrpc.NewFilterList(hrpc.MustPassAll,
		hrpc.SingleColumnValueFilter{
			Family: []byte("info"), Qualifier: []byte("country"),
			Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: []byte("NZ")},
			FilterIfMissing: true,
		},
		hrpc.KeyOnlyFilter{})
	scan, err := hrpc.NewScan([]byte("users"),
		hrpc.Prefix([]byte("user-")),
		hrpc.WithFilter(filter),
		hrpc.NumberOfRows(500),
		hrpc.Limit(10))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := scan.ScanProto()
	fmt.Printf("[%s, %s) caching=%d limit=%d\n", p.StartRow, p.StopRow, p.GetCaching(), scan.Limit())
	fmt.Println(p.Filter.GetName())
	// Output:
	// [user-, user.) caching=500 limit=10
	// org.apache.hadoop.hbase.filter.FilterList
}
