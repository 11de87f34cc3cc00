// Command plain is a service of package hbase that gives no Kerberos option: the program the
// dependency test lists (TestPlainProgramBuildsNoKerberos).
package main

import (
	"context"
	"log"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
)

func main() {
	client, err := hbase.NewClient("zk1:2181")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	get, err := hrpc.NewGet("users", []byte("alice"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Get(ctx, get); err != nil {
		log.Fatal(err)
	}
}
