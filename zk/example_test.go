package zk_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-hbase/hbase/zk"
)

// Finding hbase:meta and the master. One Client (one ZooKeeper session) serves every lookup;
// each lookup is bounded by its context. Not run: it needs a ZooKeeper at localhost:2181.
func ExampleClient_LocateMeta() {
	c, err := zk.New("localhost:2181", zk.WithZNodeParent("/hbase"), zk.WithLogger(slog.Default()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	meta, err := c.LocateMeta(ctx)
	switch {
	case errors.Is(err, zk.ErrNoNode):
		fmt.Println("hbase:meta is not assigned yet; try again later")
		return
	case err != nil:
		fmt.Println("lookup failed:", err)
		return
	}
	master, err := c.LocateMaster(ctx)
	if err != nil {
		fmt.Println("lookup failed:", err)
		return
	}
	fmt.Println("meta on", meta, "master at", master)
}
