package zk

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/go-hbase/hbase/hbasetest"
)

// The integration tests share one real cluster with two region servers (so that meta can
// move), started by the first test that needs it and stopped by TestMain; the parser and
// fake-server tests run without Java.
var shared = hbasetest.NewShared(hbasetest.Options{RegionServers: 2})

func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }

// realCluster returns the shared cluster; it skips the test under -short.
func realCluster(t *testing.T) *hbasetest.Cluster {
	t.Helper()
	return shared.Cluster(t)
}

func metaAddr(t *testing.T, hc *hbasetest.Cluster) string {
	t.Helper()
	regions, err := hc.Regions(t.Context(), "hbase:meta")
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 1 || regions[0].Addr == "" {
		t.Fatalf("hbase:meta regions = %+v; want one assigned region", regions)
	}
	return regions[0].Addr
}

func sessionID(c *Client) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil {
		return 0
	}
	return c.sess.conn.SessionID()
}

func TestLocateMetaAndMasterOnRealCluster(t *testing.T) {
	hc := realCluster(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := mustNew(t, hc.ZKQuorum, WithZNodeParent(hc.ZNodeParent))
	defer c.Close()

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	meta, err := c.LocateMeta(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := metaAddr(t, hc); meta != want {
		t.Errorf("LocateMeta = %q; the cluster says hbase:meta is on %q", meta, want)
	}
	first := sessionID(c)

	master, err := c.LocateMaster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := hc.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if master != st.Master.Addr {
		t.Errorf("LocateMaster = %q; the cluster says the master is %q", master, st.Master.Addr)
	}
	if first == 0 || sessionID(c) != first {
		t.Errorf("session ids %x then %x; want one session reused", first, sessionID(c))
	}

	// Concurrent lookups share the session too.
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			if got, err := c.LocateMeta(ctx); err != nil || got != meta {
				t.Errorf("concurrent LocateMeta = %q, %v; want %q", got, err, meta)
			}
		})
	}
	wg.Wait()
	if sessionID(c) != first {
		t.Errorf("session id %x after concurrent lookups, was %x", sessionID(c), first)
	}

	// A parent that holds no HBase: the caller must be told the node is missing.
	other := mustNew(t, hc.ZKQuorum, WithZNodeParent("/no-such-hbase"))
	defer other.Close()
	if _, err := other.LocateMeta(ctx); !errors.Is(err, ErrNoNode) {
		t.Errorf("LocateMeta under a missing parent: %v; want ErrNoNode", err)
	}

	// The same parent reached through a chroot in the connect string.
	chrooted := mustNew(t, hc.ZKQuorum+hc.ZNodeParent, WithZNodeParent("/"))
	defer chrooted.Close()
	if got, err := chrooted.LocateMeta(ctx); err != nil || got != meta {
		t.Errorf("LocateMeta through chroot %q = %q, %v; want %q", hc.ZNodeParent, got, err, meta)
	}
}

func TestLocateMetaFollowsMoveMeta(t *testing.T) {
	hc := realCluster(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := mustNew(t, hc.ZKQuorum, WithZNodeParent(hc.ZNodeParent))
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	before, err := c.LocateMeta(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := hc.MoveMeta(ctx, -1); err != nil {
		t.Fatal(err)
	}
	want := metaAddr(t, hc)
	if want == before {
		t.Fatalf("MoveMeta left hbase:meta on %s", before)
	}
	// MoveMeta returns once the master has the region open, which is when it rewrites the
	// znode; allow a short delay all the same.
	var after string
	for deadline := time.Now().Add(10 * time.Second); ; {
		if after, err = c.LocateMeta(ctx); err != nil {
			t.Fatal(err)
		}
		if after == want || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if after != want {
		t.Fatalf("after MoveMeta: LocateMeta = %q, was %q; the cluster says %q", after, before, want)
	}
}

func TestLookupHonoursContextWhenZooKeeperIsUnreachable(t *testing.T) {
	hc := realCluster(t)
	proxy := startProxy(t, hc.ZKQuorum)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := mustNew(t, proxy.addr(), WithZNodeParent(hc.ZNodeParent), WithSessionTimeout(4*time.Second))
	defer c.Close()
	if _, err := c.LocateMeta(t.Context()); err != nil {
		t.Fatal(err)
	}

	proxy.cut()
	defer proxy.heal()
	for _, timeout := range []time.Duration{50 * time.Millisecond, 300 * time.Millisecond, 1500 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(t.Context(), timeout)
		start := time.Now()
		_, err := c.LocateMeta(ctx)
		took := time.Since(start)
		cancel()
		// go-zookeeper may give up on the quorum (ErrNoServer) before the deadline; what
		// must never happen is a lookup that outlives its context.
		if err == nil {
			t.Fatalf("LocateMeta succeeded through a cut connection")
		}
		// The margin is for a loaded machine's scheduling; a lookup that outlived its
		// context would wait for go-zookeeper's session timeout, far longer.
		if took > timeout+2*time.Second {
			t.Errorf("LocateMeta with a %v timeout returned after %v: %v", timeout, took, err)
		}
		t.Logf("timeout %v: returned after %v: %v", timeout, took, err)
	}
}

func TestNewSessionAfterExpiry(t *testing.T) {
	hc := realCluster(t)
	proxy := startProxy(t, hc.ZKQuorum)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	const timeout = 4 * time.Second // the mini cluster's ZooKeeper minimum (2 ticks of 2s)
	c := mustNew(t, proxy.addr(), WithZNodeParent(hc.ZNodeParent), WithSessionTimeout(timeout), WithLogger(logger))
	defer c.Close()

	want := metaAddr(t, hc)
	if got, err := c.LocateMeta(t.Context()); err != nil || got != want {
		t.Fatalf("LocateMeta = %q, %v; want %q", got, err, want)
	}
	old := sessionID(c)

	// Keep the client away from ZooKeeper well past the session timeout (ZooKeeper checks
	// expiry once per tick), so the server expires the session.
	proxy.cut()
	time.Sleep(timeout + 6*time.Second)
	proxy.heal()

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	got, err := c.LocateMeta(ctx)
	if err != nil || got != want {
		t.Fatalf("LocateMeta after expiry = %q, %v; want %q\nlog:\n%s", got, err, want, logs.String())
	}
	if now := sessionID(c); now == old || now == 0 {
		t.Errorf("session id %x before the expiry, %x after; want a new session", old, now)
	}
	if !bytes.Contains(logs.Bytes(), []byte("zk: session expired")) {
		t.Errorf("no expiry was logged; log:\n%s", logs.String())
	}
	t.Logf("session %x expired, lookups continue on session %x", old, sessionID(c))
}

// syncBuffer is a bytes.Buffer safe for a logger writing from go-zookeeper's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func (b *syncBuffer) String() string { return string(b.Bytes()) }
