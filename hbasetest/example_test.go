package hbasetest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/go-hbase/hbase/hbasetest"
)

// Start a cluster with three region servers, split a table and kill the server that holds
// the new region. (Examples without output only compile; tests run real clusters.)
func ExampleStart() {
	ctx := context.Background()
	c, err := hbasetest.Start(ctx, hbasetest.Options{RegionServers: 3})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Stop()
	fmt.Println("ZooKeeper at", c.ZKQuorum, c.ZNodeParent)

	if err := c.CreateTable(ctx, "t", []string{"f"}, nil); err != nil {
		log.Fatal(err)
	}
	_, right, err := c.Split(ctx, "t", []byte("m"))
	if err != nil {
		log.Fatal(err)
	}
	regions, err := c.Regions(ctx, "t")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range regions {
		if r.EncodedName == right {
			if err := c.KillRS(ctx, r.Server); err != nil {
				log.Fatal(err)
			}
		}
	}
}

// Secure clusters hand out everything a Kerberos client needs.
func ExampleStart_secure() {
	c, err := hbasetest.Start(context.Background(), hbasetest.Options{Secure: true, Protection: hbasetest.ProtectionPrivacy, AES: true})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Stop()
	fmt.Println(c.KRB5Conf, c.ClientPrincipal, c.Keytab, c.ServerPrincipal)
}

// Command sends a raw protocol line; byte strings are hex.
func ExampleCluster_Command() {
	c, err := hbasetest.Start(context.Background(), hbasetest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Stop()
	ans, err := c.Command(context.Background(), "regions hbase:meta")
	fmt.Println(ans, err)
}

// The standard Java client as a reference: time 100 of its Gets from 4 threads, and the CPU
// its JVM used, beside whatever Go client the benchmark measures on the same cluster.
func ExampleCluster_StartJavaClient() {
	ctx := context.Background()
	c, err := hbasetest.Start(ctx, hbasetest.Options{FullJIT: true})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Stop()
	if err := c.CreateTable(ctx, "t", []string{"f"}, nil); err != nil {
		log.Fatal(err)
	}
	j, err := c.StartJavaClient(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer j.Close()
	latencies, err := j.Gets(ctx, "t", 0, 100, 4)
	if err != nil {
		log.Fatal(err)
	}
	cpu, err := j.CPUTime()
	fmt.Println(latencies[0], cpu, err)
}
