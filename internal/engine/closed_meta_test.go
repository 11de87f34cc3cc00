package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// A lookup that finds hbase:meta retired (the client closed while it ran, so its
// re-establishment could not start) ends with hberr.ErrClosed. It used to spin, marking meta
// unavailable again in vain, and Close waited for it forever.
func TestFindMetaAfterClose(t *testing.T) {
	fc := newFakeCluster(t)
	c := fc.client(t)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c.markUnavailable(c.meta, nil) // the client is closed: meta is retired, not looked up
	done := make(chan error, 1)
	go func() {
		_, _, err := c.findMeta(context.Background())
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, hberr.ErrClosed) {
			t.Fatalf("findMeta on a closed client: %v, want hberr.ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("findMeta on a closed client with hbase:meta retired did not return")
	}
}
