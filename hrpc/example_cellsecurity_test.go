package hrpc_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func ExampleCellVisibility() {
	// Cells only readers authorized for "secret", or for "ops" but not "intern", see.
	put, err := hrpc.NewPut("orders", []byte("o-1"),
		hrpc.Value([]byte("o"), []byte("card"), []byte("4111...")),
		hrpc.CellVisibility("secret | (ops & !intern)"))
	fmt.Println(put != nil, err)

	// A label of other characters is quoted.
	expr := hrpc.QuoteLabel("team:payments eu") + " & ops"
	_, err = hrpc.NewPut("orders", []byte("o-1"), hrpc.Value([]byte("o"), []byte("q"), nil), hrpc.CellVisibility(expr))
	fmt.Println(expr, err)

	// An expression HBase's grammar refuses fails here, before anything is sent.
	_, err = hrpc.NewPut("orders", []byte("o-1"), hrpc.Value([]byte("o"), []byte("q"), nil), hrpc.CellVisibility("secret &"))
	fmt.Println(errors.Is(err, hberr.ErrVisibilityExpression))
	fmt.Println(err)

	// A read with the labels it asks for (of those the user was given).
	get, err := hrpc.NewGet("orders", []byte("o-1"), hrpc.Authorizations("secret"))
	fmt.Println(get != nil, err)
	// Output:
	// true <nil>
	// "team:payments eu" & ops <nil>
	// true
	// hrpc: bad request: invalid visibility expression: "secret &" at column 8: an operator without its operand
	// true <nil>
}

func ExampleCellACL() {
	// The guest and the ops group may read this cell, ops may overwrite it, whatever their
	// table permissions (on tables whose regions read cell ACLs).
	put, err := hrpc.NewPut("orders", []byte("o-1"),
		hrpc.Value([]byte("o"), []byte("status"), []byte("paid")),
		hrpc.CellACL("guest", hrpc.CellRead),
		hrpc.CellACL("@ops", hrpc.CellRead|hrpc.CellWrite))
	fmt.Println(put != nil, err)

	_, err = hrpc.NewPut("orders", []byte("o-1"), hrpc.Value([]byte("o"), []byte("q"), nil), hrpc.CellACL("", hrpc.CellRead))
	fmt.Println(err)
	// Output:
	// true <nil>
	// hrpc: bad request: empty user name
}

func ExampleCellTTL() {
	// The session cell expires 30 minutes after its timestamp; the family's TTL still bounds
	// the others.
	put, err := hrpc.NewPut("sessions", []byte("user-1"),
		hrpc.Value([]byte("s"), []byte("token"), []byte("abc")),
		hrpc.CellTTL(30*time.Minute))
	fmt.Println(put != nil, err)

	_, err = hrpc.NewPut("sessions", []byte("user-1"), hrpc.Value([]byte("s"), []byte("q"), nil), hrpc.CellTTL(time.Microsecond))
	fmt.Println(err)
	// Output:
	// true <nil>
	// hrpc: bad request: CellTTL(1µs): want at least 1ms
}
