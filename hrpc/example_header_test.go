package hrpc_test

import (
	"fmt"

	"github.com/go-hbase/hbase/hrpc"
)

func ExamplePriority() {
	// A Get served from the region servers' priority handlers (above HBase's QOS_THRESHOLD
	// of 10), with a request attribute that server-side code reads from the call.
	get, err := hrpc.NewGet("users", []byte("row-1"),
		hrpc.Priority(100), hrpc.RequestAttribute("tenant", []byte("acme")))
	fmt.Println(get != nil, err)

	_, err = hrpc.NewGet("users", []byte("row-1"), hrpc.Priority(-1))
	fmt.Println(err)
	// Output:
	// true <nil>
	// hrpc: bad request: Priority(-1) outside [0, 2147483647]
}
