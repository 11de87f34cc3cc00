package engine

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"
)

func TestWithDialerMakesEveryConnection(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var mu sync.Mutex
	var dialled []string
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialled = append(dialled, addr)
		mu.Unlock()
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	c := fc.client(t, WithDialer(dial))
	if _, err := c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "row")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialled) != 1 || dialled[0] != fc.srv.Addr() {
		t.Errorf("dialled %v; want the one server %s through the dialer", dialled, fc.srv.Addr())
	}
}
