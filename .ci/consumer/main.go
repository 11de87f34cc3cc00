// Command svc is the consumer module of .ci/modules consumer: a service outside the tree that
// uses the release the way the README tells a user to (client, request, Prometheus metrics and
// OpenTelemetry tracing on one client). It is built, not run: it only has to compile against
// the modules as `go get` fetches them. Keep it to the documented API; when that API changes,
// change this file with it.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/go-hbase/hbase"
	hbaseotel "github.com/go-hbase/hbase/contrib/otel"
	hbaseprom "github.com/go-hbase/hbase/contrib/prometheus"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/prometheus/client_golang/prometheus"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}

func run(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: svc zk-quorum")
	}
	metrics, err := hbaseprom.New()
	if err != nil {
		return err
	}
	tracing, err := hbaseotel.NewHooks()
	if err != nil {
		return err
	}
	client, err := hbase.NewClient(args[0], hbase.WithHooks(metrics.Hooks()), hbase.WithHooks(tracing))
	if err != nil {
		return err
	}
	defer client.Close()
	metrics.Watch(client)
	reg := prometheus.NewRegistry()
	if err := reg.Register(metrics); err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	get, err := hrpc.NewGet("users", []byte("alice"), hrpc.Families([]byte("info")))
	if err != nil {
		return err
	}
	res, err := client.Get(ctx, get)
	if hberr.IsNotFound(err) {
		return fmt.Errorf("no table users: %w", err)
	}
	if err != nil {
		return err
	}
	for _, c := range res.Cells {
		fmt.Printf("%s:%s=%s\n", c.Family, c.Qualifier, c.Value)
	}
	return nil
}
