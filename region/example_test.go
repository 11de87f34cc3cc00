package region_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/pb"
	"github.com/go-hbase/hbase/region"
)

// A Get through one region connection. The server here is the in-process fake; against HBase
// the address comes from the region cache (hbase:meta).
func ExampleClient_Call() {
	srv, _ := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		var get pb.GetRequest
		if err := r.Unmarshal(&get); err != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		if name := string(get.GetRegion().GetValue()); name != "t,,1.abc." {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", name+" is not online")}
		}
		return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: get.GetGet().GetRow(), Value: []byte("hello")}}}}}
	}})
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := region.Dial(ctx, srv.Addr(), region.Config{Service: "ClientService", User: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	for _, name := range []string{"t,,1.abc.", "gone,,1.def."} {
		req := &pb.GetRequest{
			Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte(name)},
			Get:    &pb.Get{Row: []byte("row1")},
		}
		var resp pb.GetResponse
		_, err := c.Call(ctx, "Get", req, nil, &resp)
		switch {
		case errors.Is(err, region.ErrRegionUnavailable):
			fmt.Println("look the region up again:", err)
		case err != nil:
			fmt.Println(err)
		default:
			fmt.Printf("%s = %s\n", resp.GetResult().GetCell()[0].GetRow(), resp.GetResult().GetCell()[0].GetValue())
		}
	}
	// Output:
	// row1 = hello
	// look the region up again: region: remote exception org.apache.hadoop.hbase.NotServingRegionException: gone,,1.def. is not online
}
