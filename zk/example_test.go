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

// A quorum as ZooKeeper reads it: servers with the default port filled in, and the chroot.
// What cannot work is refused with what to write instead.
func ExampleParseQuorum() {
	servers, chroot, err := zk.ParseQuorum("zk1,zk2:2182,[::1]/apps")
	fmt.Println(servers, chroot, err)

	_, _, err = zk.ParseQuorum("http://zk1:2181")
	fmt.Println(err)
	_, _, err = zk.ParseQuorum("zk1:")
	fmt.Println(err)
	// Output:
	// [zk1:2181 zk2:2182 [::1]:2181] /apps <nil>
	// zk: ZooKeeper quorum "http://zk1:2181": "http://" is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here "zk1:2181"
	// zk: ZooKeeper quorum "zk1:": server "zk1:" has an empty port: write the port after ':' ("zk1:2181") or leave out the ':' for ZooKeeper's default 2181
}
