package hrpc_test

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func ExampleNewGet() {
	// A Get of two columns, three versions each; hbase.Client.Get sends it.
	get, err := hrpc.NewGet("users", []byte("row-1"),
		hrpc.Columns([]byte("info"), []byte("name"), []byte("email")),
		hrpc.MaxVersions(3))
	fmt.Println(get != nil, err)

	// Bad input is refused before anything is sent.
	_, err = hrpc.NewGet("users", nil)
	fmt.Println(err)
	fmt.Println(errors.Is(err, hberr.ErrBadRequest))
	// Output:
	// true <nil>
	// hrpc: bad request: nil or empty row
	// true
}

func ExampleNewPut() {
	put, err := hrpc.NewPut("users", []byte("row-1"),
		hrpc.Value([]byte("info"), []byte("name"), []byte("Ada")),
		hrpc.Value([]byte("info"), []byte("email"), []byte("ada@example.com")),
		hrpc.Timestamp(1700000000000))
	fmt.Println(put != nil, err)

	// An option that does not fit the request type does not compile
	// (hrpc.NewPut(table, row, hrpc.MaxVersions(2))); a bad argument is an error.
	_, err = hrpc.NewPut("users", []byte("row-1"), hrpc.Value(nil, []byte("q"), nil))
	fmt.Println(err)
	// Output:
	// true <nil>
	// hrpc: bad request: empty column family
}

func ExampleNewScan() {
	// The rows of users starting with "user-" whose info:country is NZ, keys only, at most
	// 10 rows, 500 per RPC; hbase.Client.Scan runs it.
	filter := hrpc.NewFilterList(hrpc.MustPassAll,
		hrpc.SingleColumnValueFilter{
			Family: []byte("info"), Qualifier: []byte("country"),
			Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: []byte("NZ")},
			FilterIfMissing: true,
		},
		hrpc.KeyOnlyFilter{})
	scan, err := hrpc.NewScan("users",
		hrpc.Prefix([]byte("user-")),
		hrpc.WithFilter(filter),
		hrpc.NumberOfRows(500),
		hrpc.Limit(10))
	fmt.Println(scan != nil, err)

	// A filter's arguments are checked when the request is built.
	_, err = hrpc.NewScan("users", hrpc.WithFilter(hrpc.PageFilter{PageSize: -1}))
	fmt.Println(err)
	// Output:
	// true <nil>
	// hrpc: bad request: PageFilter: negative page size -1
}

func ExampleNewCheckAndMutate() {
	// Claim a username: write it only if no one holds it. Tried once (MaxAttempts(1)),
	// served from the region servers' priority handlers (a priority above 10), with a
	// request attribute that server-side code reads.
	put, err := hrpc.NewPut("names", []byte("ada"),
		hrpc.Value([]byte("info"), []byte("owner"), []byte("user-1")))
	if err != nil {
		fmt.Println(err)
		return
	}
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("info"), []byte("owner")), put,
		hrpc.MaxAttempts(1), hrpc.Priority(100), hrpc.RequestAttribute("tenant", []byte("acme")))
	fmt.Println(cam != nil, err)
	// Output:
	// true <nil>
}

func ExampleNewRowMutations() {
	// Move a value from one column to another of the same row, atomically. The options of
	// the RowMutations and the priorities and request attributes of its mutations go into
	// the one RPC's header: priority 5 here, the highest of them.
	put, _ := hrpc.NewPut("users", []byte("row-1"),
		hrpc.Value([]byte("info"), []byte("email"), []byte("ada@example.com")),
		hrpc.Priority(5))
	del, _ := hrpc.NewDelete("users", []byte("row-1"),
		hrpc.DeleteColumn([]byte("info"), []byte("mail")))
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{put, del},
		hrpc.Priority(2), hrpc.RequestAttribute("tenant", []byte("acme")))
	fmt.Println(rm != nil, err)

	// Every mutation is of one table and row.
	other, _ := hrpc.NewDelete("users", []byte("row-2"))
	_, err = hrpc.NewRowMutations([]hrpc.Mutation{put, other})
	fmt.Println(err)
	// Output:
	// true <nil>
	// hrpc: bad request: RowMutations: mutation 1 is for row "row-2", not "row-1"
}
