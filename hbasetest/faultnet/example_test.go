package faultnet_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/go-hbase/hbase/hbasetest/faultnet"
)

// A partition between a client and an echo server: the client's read ends at its deadline,
// nothing is lost, and the echo arrives once the partition heals. With go-hbase, pass
// fn.DialContext to hbase.WithDialer and black-hole a region server's address.
func Example() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	addr := ln.Addr().String()

	fn := faultnet.New()
	conn, err := fn.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		panic(err)
	}
	defer conn.Close()

	fn.BlackHole(addr)
	go conn.Write([]byte("ping")) // hangs until the partition heals
	conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	buf := make([]byte, 4)
	_, err = conn.Read(buf)
	fmt.Println("during the partition:", errors.Is(err, os.ErrDeadlineExceeded))

	fn.Heal(addr)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = io.ReadFull(conn, buf)
	fmt.Println("after healing:", string(buf), err)
	// Output:
	// during the partition: true
	// after healing: ping <nil>
}
