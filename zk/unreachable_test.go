package zk

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// A quorum that cannot be connected to fails a lookup at go-zookeeper's first failed round,
// naming the servers and why (the dial's error, or a server that is no ZooKeeper), instead of
// retrying until the caller's deadline with only ErrNoServer to show.
func TestUnreachableQuorumSaysWhy(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	// notZK answers a ZooKeeper connect request with bytes that are no connect response.
	nz, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer nz.Close()
	go func() {
		for {
			c, err := nz.Accept()
			if err != nil {
				return
			}
			c.SetDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 64)
			c.Read(buf)                         //nolint:errcheck
			c.Write([]byte("\x00\x00\x00\x02")) //nolint:errcheck // a 2-byte "response"
			c.Write([]byte("hi"))               //nolint:errcheck
			c.Close()
		}
	}()
	for _, tc := range []struct {
		quorum, want string
	}{
		{dead, "zk: ZooKeeper unreachable (" + dead + "): dial tcp " + dead + ": connect: connection refused"},
		{nz.Addr().String(), "zk: ZooKeeper unreachable (" + nz.Addr().String() + "): no ZooKeeper handshake: "},
	} {
		c := mustNew(t, tc.quorum)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		_, err := c.LocateMeta(ctx)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, ErrUnreachable) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: LocateMeta = %v; want ErrUnreachable, %q", tc.quorum, err, tc.want)
		}
		if took > 1500*time.Millisecond {
			t.Errorf("%s: LocateMeta took %v; want the first failed round (go-zookeeper pauses 1 s between rounds)", tc.quorum, took)
		}
		t.Logf("%s: %v after %v", tc.quorum, err, took)
		c.Close()
	}
}
