package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/testkit"
	"github.com/go-hbase/hbase/zk"
)

// Ping answers nil when the registry, hbase:meta's server and its read of hbase:meta answer,
// and otherwise says which step failed, at once when the failure is certain.
func TestPing(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	c := fc.client(t)
	if err := c.Ping(testContext(t, 5*time.Second)); err != nil {
		t.Fatalf("Ping = %v", err)
	}

	dead := testkit.DeadAddr(t)
	zc, err := NewClient(dead)
	if err != nil {
		t.Fatal(err)
	}
	defer zc.Close()
	start := time.Now()
	err = zc.Ping(testContext(t, 10*time.Second))
	want := "hbase: Ping: locating hbase:meta: zk: ZooKeeper unreachable (" + dead + "): dial tcp " + dead + ": connect: connection refused"
	if err == nil || err.Error() != want || !errors.Is(err, zk.ErrUnreachable) {
		t.Errorf("Ping with ZooKeeper down = %v; want %q", err, want)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Ping with ZooKeeper down took %v; want it to fail at the refusal", took)
	}

	silent := testkit.SilentListener(t)
	bc, err := NewClient("", WithBootstrapServers(silent))
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	err = bc.Ping(testContext(t, 300*time.Millisecond))
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, hberr.ErrBootstrapUnreachable) ||
		!strings.HasPrefix(err.Error(), "hbase: Ping: locating hbase:meta: context deadline exceeded (last: no bootstrap server answered ("+silent+"): "+silent+": no answer in ") {
		t.Errorf("Ping with a silent bootstrap server = %v; want the deadline naming the server", err)
	}

	c.Close()
	if err := c.Ping(context.Background()); !errors.Is(err, hberr.ErrClosed) || err.Error() != "hbase: Ping: client closed" {
		t.Errorf("Ping after Close = %v; want %q", err, "hbase: Ping: client closed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := zc.Ping(ctx); !errors.Is(err, context.Canceled) || err.Error() != "hbase: Ping: context canceled" {
		t.Errorf("Ping with a cancelled context = %v", err)
	}
}
