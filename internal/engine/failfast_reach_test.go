package engine

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/testkit"
	"github.com/go-hbase/hbase/zk"
)

// An unreachable ZooKeeper fails a call with WithNoRetries at its first refusal, and a call
// that retries ends at its deadline naming the refusal, still errors.Is the deadline.
func TestUnreachableZooKeeperFailsFast(t *testing.T) {
	dead := testkit.DeadAddr(t)
	refusal := "zk: ZooKeeper unreachable (" + dead + "): dial tcp " + dead + ": connect: connection refused"

	c, err := NewClient(dead, WithNoRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "r"))
	took := time.Since(start)
	want := `hbase: Get "t"/"r": attempts exhausted after 1 attempt: locating hbase:meta: ` + refusal
	if err == nil || err.Error() != want || !errors.Is(err, hberr.ErrAttemptsExhausted) || !errors.Is(err, zk.ErrUnreachable) {
		t.Errorf("Get = %v; want %q", err, want)
	}
	if took > 2*time.Second {
		t.Errorf("Get took %v; want the first refusal to end it", took)
	}

	r, err := NewClient(dead)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Get(testContext(t, 1500*time.Millisecond), mustGetT(t, "t", "r"))
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, zk.ErrUnreachable) ||
		!strings.HasPrefix(err.Error(), `hbase: Get "t"/"r": context deadline exceeded after `) ||
		!strings.HasSuffix(err.Error(), " (last: locating hbase:meta: "+refusal+")") {
		t.Errorf("Get with retries = %v; want the deadline, naming the refusal", err)
	}
}

// A bootstrap server that refuses, or accepts and never answers, ends a call at any deadline
// under the lookup timeout with ErrBootstrapUnreachable and that server's error, not a bare
// deadline (WithBootstrapServers' promise).
func TestBootstrapDeadlineNamesServers(t *testing.T) {
	dead, silent := testkit.DeadAddr(t), testkit.SilentListener(t)
	for _, tc := range []struct {
		server, why string
	}{
		{dead, "region: dial " + dead + ": dial tcp " + dead + ": connect: connection refused"},
		{silent, "no answer in "},
	} {
		c, err := NewClient("", WithBootstrapServers(tc.server))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Get(testContext(t, 700*time.Millisecond), mustGetT(t, "t", "r"))
		c.Close()
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, hberr.ErrBootstrapUnreachable) ||
			!strings.Contains(err.Error(), "no bootstrap server answered ("+tc.server+"): "+tc.server+": "+tc.why) {
			t.Errorf("%s: Get = %v; want the deadline with ErrBootstrapUnreachable naming %q", tc.server, err, tc.why)
		}
	}
}

// A server that keeps closing new connections is not dialled more than a few times a second,
// however many calls need it: the bootstrap registry's server, and a region server the
// client found in hbase:meta.
func TestRedialBackoff(t *testing.T) {
	const span = 2 * time.Second
	hammer := func(c *Client) int {
		n := 0
		for end := time.Now().Add(span); time.Now().Before(end); n++ {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			c.Get(ctx, mustGetT(t, "t", "r")) //nolint:errcheck // failures are the point
			cancel()
		}
		return n
	}
	// Each dial that fails this way is followed by the client's TLS probe (region/firstanswer.go):
	// two connections. The pauses (50 ms doubling to 2 s, ±25 %) allow 7 dials in 2 s at most.
	const most = 2 * 8

	boot := testkit.ClosingListener(t)
	bc, err := NewClient("", WithBootstrapServers(boot.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	calls := hammer(bc)
	if n := boot.Accepted.Load(); n > most || n < 2 {
		t.Errorf("bootstrap server: %d connections for %d calls in %v; want 2 to %d", n, calls, span, most)
	}
	t.Logf("bootstrap server: %d connections for %d calls in %v", boot.Accepted.Load(), calls, span)

	rs := testkit.ClosingListener(t)
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, addr: rs.Addr})
	c := fc.client(t)
	calls = hammer(c)
	if n := rs.Accepted.Load(); n > most || n < 2 {
		t.Errorf("region server: %d connections for %d calls in %v; want 2 to %d", n, calls, span, most)
	}
	t.Logf("region server: %d connections for %d calls in %v", rs.Accepted.Load(), calls, span)
}

// The pause before a new connection to a failing server doubles from 50 ms to 2 s and ends
// with the first answer on a connection.
func TestDialGatePauses(t *testing.T) {
	var g dialGate
	now := time.Unix(1000, 0)
	refused := errors.New("connection refused")
	if err := g.admit("a:1", now); err != nil {
		t.Fatalf("first dial refused: %v", err)
	}
	var pauses []time.Duration
	for range 9 {
		g.dialed("a:1", nil, refused, false, now)
		err := g.admit("a:1", now)
		re, ok := errors.AsType[*redialError](err)
		if !ok || err.Error() != "connection refused" || !errors.Is(err, refused) {
			t.Fatalf("admit in the pause = %v; want the last failure", err)
		}
		pauses = append(pauses, re.wait)
		if g.admit("a:1", now.Add(re.wait)) != nil {
			t.Fatalf("admit after the pause of %v refused", re.wait)
		}
	}
	for i, p := range pauses {
		base := min(minRedialPause<<i, maxRedialPause)
		if p < base*3/4 || p > base*5/4 {
			t.Errorf("pause %d = %v; want %v ±25%%", i+1, p, base)
		}
	}
	// A dial cut short by the caller's context says nothing about the server.
	g2 := dialGate{}
	g2.dialed("b:1", nil, context.DeadlineExceeded, true, now)
	if err := g2.admit("b:1", now); err != nil {
		t.Errorf("admit after a dial the caller gave up = %v", err)
	}
}

// A call that ends at its deadline while its region's server does not answer says which
// server: the one whose connection a lookup waits for, or the one its request went to.
func TestDeadlineNamesSilentServer(t *testing.T) {
	silent := testkit.SilentListener(t)
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, addr: silent})
	// A plaintext connection is made without a word from the server; the request then waits.
	_, err := fc.client(t).Get(testContext(t, 300*time.Millisecond), mustGetT(t, "t", "r"))
	if want := `hbase: Get "t"/"r": context deadline exceeded (last: no answer from ` + silent + ")"; err == nil ||
		err.Error() != want || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get from a silent server = %v; want %q", err, want)
	}
	// A connection that is not made (a TCP connect that hangs, a TLS or Kerberos handshake the
	// server does not answer) is what the lookup, and so the call, waits for.
	hanging := testkit.DeadAddr(t)
	fc.regions[0].addr = hanging
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == hanging {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	_, err = fc.client(t, WithDialer(dial)).Get(testContext(t, 300*time.Millisecond), mustGetT(t, "t", "r"))
	if !errors.Is(err, context.DeadlineExceeded) ||
		!strings.HasPrefix(err.Error(), `hbase: Get "t"/"r": context deadline exceeded (last: connecting to `+hanging+": no answer in ") {
		t.Errorf("Get from a server that cannot be connected to = %v; want the deadline naming it", err)
	}

	slow := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	slow.onGet = func(int64, *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Msg: &pb.GetResponse{}, Delay: 2 * time.Second}
	}
	sc := slow.client(t)
	_, err = sc.Get(testContext(t, 300*time.Millisecond), mustGetT(t, "t", "r"))
	if want := `hbase: Get "t"/"r": context deadline exceeded (last: no answer from ` + slow.srv.Addr() + ")"; err == nil ||
		err.Error() != want || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get the server does not answer in time = %v; want %q", err, want)
	}
}

// A region server that refuses connections (hbase:meta still names it after a crash) is
// retried after a pause within the call's context, counted as an attempt: WithNoRetries ends
// the call at the refusal, and a deadline names it.
func TestRefusingRegionServerIsRetried(t *testing.T) {
	dead := testkit.DeadAddr(t)
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, addr: dead})
	refused := "region: dial " + dead + ": dial tcp " + dead + ": connect: connection refused"
	start := time.Now()
	_, err := fc.client(t, WithNoRetries()).Get(testContext(t, 10*time.Second), mustGetT(t, "t", "r"))
	if want := `hbase: Get "t"/"r": attempts exhausted after 1 attempt: ` + refused; err == nil || err.Error() != want ||
		!errors.Is(err, hberr.ErrConnection) {
		t.Errorf("Get, WithNoRetries = %v; want %q", err, want)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("Get, WithNoRetries took %v", took)
	}
	_, err = fc.client(t).Get(testContext(t, 500*time.Millisecond), mustGetT(t, "t", "r"))
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, hberr.ErrConnection) ||
		!strings.HasSuffix(err.Error(), " (last: "+refused+")") {
		t.Errorf("Get with retries = %v; want the deadline naming the refusal", err)
	}
}
