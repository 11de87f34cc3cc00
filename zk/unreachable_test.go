package zk

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/go-hbase/hbase/hberr"
)

// A quorum that cannot be connected to fails a lookup at go-zookeeper's first failed round,
// naming the servers and why (the dial's error; servers of the wrong kind are
// TestServerOfTheWrongKind's), instead of retrying until the caller's deadline with only
// ErrNoServer to show.
func TestUnreachableQuorumSaysWhy(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		quorum, want string
	}{
		{dead, "zk: ZooKeeper unreachable (" + dead + "): dial tcp " + dead + ": connect: connection refused"},
	} {
		c := mustNew(t, tc.quorum)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		_, err := c.LocateMeta(ctx)
		took := time.Since(start)
		if !errors.Is(err, ErrUnreachable) || !errors.Is(err, hberr.ErrConnection) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: LocateMeta = %v; want ErrUnreachable and hberr.ErrConnection, %q", tc.quorum, err, tc.want)
		}
		if ctx.Err() != nil {
			t.Errorf("%s: LocateMeta took %v, until its context ended; want the verdict of the first failed round", tc.quorum, took)
		}
		t.Logf("%s: %v after %v", tc.quorum, err, took)
		cancel()
		c.Close()
	}
}
