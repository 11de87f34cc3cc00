package region_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

// A Get through one region connection. The address and the region name come from hbase:meta
// (the root package's region cache finds them; hbasetest.Cluster.Regions lists them for a
// local cluster). Not run: it needs a region server at localhost:16020.
func ExampleClient_Call() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := region.Dial(ctx, "localhost:16020", region.WithService("ClientService"), region.WithUser("example"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	req := &pb.GetRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("t,,1700000000000.0123456789abcdef0123456789abcdef.")},
		Get:    &pb.Get{Row: []byte("row1")},
	}
	var resp pb.GetResponse
	_, err = c.Call(ctx, "Get", req, nil, &resp)
	switch {
	case errors.Is(err, hberr.ErrRegionUnavailable):
		fmt.Println("the region moved or split; look it up again:", err)
	case err != nil:
		fmt.Println(err)
	default:
		for _, cell := range resp.GetResult().GetCell() {
			fmt.Printf("%s = %s\n", cell.GetRow(), cell.GetValue())
		}
	}
}
