package zk

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/go-hbase/hbase/hberr"
)

// serveTCP serves every connection of a new listener with serve, and closes them all, and
// waits for serve, at the end of the test.
func serveTCP(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(20 * time.Second))
				serve(c)
			})
		}
	})
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// verifyNoLeak checks, after the test's cleanups, that no goroutine started by the test is
// left, the servers' included.
func verifyNoLeak(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

// readConnectRequest reads go-zookeeper's connect request (length-prefixed).
func readConnectRequest(c net.Conn) error {
	var head [4]byte
	if _, err := io.ReadFull(c, head[:]); err != nil {
		return err
	}
	_, err := io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(head[:])))
	return err
}

// answerThenClose reads the connect request, writes reply and closes.
func answerThenClose(reply string) func(net.Conn) {
	return func(c net.Conn) {
		if readConnectRequest(c) == nil {
			c.Write([]byte(reply)) //nolint:errcheck
		}
	}
}

// fakeZooKeeper answers the connect request as ZooKeeper does (a session) and every request
// after it with ZooKeeper's NONODE error: enough for a lookup to get past the handshake and
// fail on the missing parent znode.
func fakeZooKeeper(c net.Conn) {
	if readConnectRequest(c) != nil {
		return
	}
	resp := binary.BigEndian.AppendUint32(nil, 36)   // length
	resp = binary.BigEndian.AppendUint32(resp, 0)    // protocol version
	resp = binary.BigEndian.AppendUint32(resp, 4000) // negotiated timeout, ms
	resp = binary.BigEndian.AppendUint64(resp, 0x1234)
	resp = binary.BigEndian.AppendUint32(resp, 16) // password
	resp = append(resp, make([]byte, 16)...)
	if _, err := c.Write(resp); err != nil {
		return
	}
	for {
		var head [4]byte
		if _, err := io.ReadFull(c, head[:]); err != nil {
			return
		}
		req := make([]byte, binary.BigEndian.Uint32(head[:]))
		if _, err := io.ReadFull(c, req); err != nil || len(req) < 8 {
			return
		}
		xid := binary.BigEndian.Uint32(req)
		errCode := int32(-101) // NONODE
		if xid == 0xfffffffe { // a ping
			errCode = 0
		}
		out := binary.BigEndian.AppendUint32(nil, 16)
		out = binary.BigEndian.AppendUint32(out, xid)
		out = binary.BigEndian.AppendUint64(out, 1) // zxid
		out = binary.BigEndian.AppendUint32(out, uint32(errCode))
		if _, err := c.Write(out); err != nil {
			return
		}
	}
}

// A ZooKeeper quorum that names a server of another kind is named as such after its first
// bytes, or a second of their absence, and not retried until the deadline: an
// answer no ZooKeeper sends is a configuration error (hberr.ErrConfiguration); silence or a
// close without an answer may be the network or a ZooKeeper not serving, so it is
// ErrUnreachable (hberr.ErrConnection) and the caller's attempts decide.
func TestServerOfTheWrongKind(t *testing.T) {
	verifyNoLeak(t)
	httpSrv := httptest.NewServer(http.NotFoundHandler())
	defer httpSrv.Close()
	for _, tc := range []struct {
		name  string
		addr  func(t *testing.T) string
		want  string // <addr> is the server's address
		is    []error
		isNot []error
	}{
		{"silent TCP server", func(t *testing.T) string { return startSilentServer(t).ln.Addr().String() },
			"zk: ZooKeeper unreachable (<addr>): no ZooKeeper answer in 1s from <addr>",
			[]error{ErrUnreachable, hberr.ErrConnection}, []error{hberr.ErrConfiguration, context.DeadlineExceeded}},
		{"HTTP server (waits for a request line)", func(*testing.T) string { return httpSrv.Listener.Addr().String() },
			"zk: ZooKeeper unreachable (<addr>): no ZooKeeper answer in 1s from <addr>",
			[]error{ErrUnreachable, hberr.ErrConnection}, []error{hberr.ErrConfiguration}},
		{"server answering HTTP 400", func(t *testing.T) string {
			return serveTCP(t, answerThenClose("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
		},
			`zk: <addr> is not a ZooKeeper server: it answered ZooKeeper's connect request with "HTTP/1.1 400 Bad Request\r\nConten"... (is the port ZooKeeper's client port, 2181 by default?)`,
			[]error{hberr.ErrConfiguration}, []error{ErrUnreachable, hberr.ErrConnection}},
		{"server answering a short frame", func(t *testing.T) string { return serveTCP(t, answerThenClose("\x00\x00\x00\x02hi")) },
			`zk: <addr> is not a ZooKeeper server: it answered ZooKeeper's connect request with "\x00\x00\x00\x02hi" (is the port ZooKeeper's client port, 2181 by default?)`,
			[]error{hberr.ErrConfiguration}, []error{ErrUnreachable}},
		{"server answering a frame that is no connect response", func(t *testing.T) string {
			return serveTCP(t, answerThenClose("\x00\x00\x00\x18"+strings.Repeat("\x01", 24)))
		},
			`zk: <addr> is not a ZooKeeper server: it answered ZooKeeper's connect request with "\x00\x00\x00\x18\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" (is the port ZooKeeper's client port, 2181 by default?)`,
			[]error{hberr.ErrConfiguration}, []error{ErrUnreachable}},
		{"server answering a few bytes, then silent", func(t *testing.T) string {
			return serveTCP(t, func(c net.Conn) {
				if readConnectRequest(c) == nil {
					c.Write([]byte("no"))  //nolint:errcheck
					io.Copy(io.Discard, c) //nolint:errcheck // until the client gives up
				}
			})
		},
			`zk: <addr> is not a ZooKeeper server: it answered ZooKeeper's connect request with "no" (is the port ZooKeeper's client port, 2181 by default?)`,
			[]error{hberr.ErrConfiguration}, []error{ErrUnreachable}},
		{"TLS port (an alert)", func(t *testing.T) string { return serveTCP(t, answerThenClose("\x15\x03\x03\x00\x02\x02\x28")) },
			`zk: <addr> is not a ZooKeeper server: it answered ZooKeeper's connect request with a TLS record: it is a TLS port (ZooKeeper's secureClientPort?), and this client speaks to ZooKeeper in plaintext only: give the quorum ZooKeeper's plaintext client port`,
			[]error{hberr.ErrConfiguration}, []error{ErrUnreachable}},
		{"server closing without an answer", func(t *testing.T) string { return serveTCP(t, answerThenClose("")) },
			"zk: ZooKeeper unreachable (<addr>): <addr> closed the connection without answering ZooKeeper's connect request (a ZooKeeper server does when it is not serving, or has too many connections from this host)",
			[]error{ErrUnreachable, hberr.ErrConnection}, []error{hberr.ErrConfiguration}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := tc.addr(t)
			c := mustNew(t, addr)
			defer c.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			start := time.Now()
			_, err := c.LocateMeta(ctx)
			took := time.Since(start)
			want := strings.ReplaceAll(tc.want, "<addr>", addr)
			if err == nil || err.Error() != want {
				t.Errorf("LocateMeta:\n got  %v\n want %s", err, want)
			}
			for _, s := range tc.is {
				if !errors.Is(err, s) {
					t.Errorf("LocateMeta = %v; want errors.Is %v", err, s)
				}
			}
			for _, s := range tc.isNot {
				if errors.Is(err, s) {
					t.Errorf("LocateMeta = %v; it is %v", err, s)
				}
			}
			// Ending by a verdict, not by the caller's deadline, is the behaviour; how soon is
			// left to the benchmarks, as a loaded machine stretches any bound.
			if ctx.Err() != nil {
				t.Errorf("LocateMeta returned after %v, when its 10 s context had ended: it was retried until the deadline", took)
			}
			t.Logf("%v after %v", err, took.Round(time.Millisecond))
		})
	}
}

// A server that answers as ZooKeeper does gets past the handshake: the lookup fails on the
// missing parent znode instead.
func TestFakeZooKeeperHandshake(t *testing.T) {
	verifyNoLeak(t)
	addr := serveTCP(t, fakeZooKeeper)
	c := mustNew(t, addr)
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := c.LocateMeta(ctx)
	if !errors.Is(err, ErrNoParent) {
		t.Fatalf("LocateMeta = %v; want ErrNoParent (the handshake went through)", err)
	}
}

// The verdict on one server does not stop a quorum's other server from serving: a session is
// made through the one that is ZooKeeper.
func TestWrongKindBesideZooKeeper(t *testing.T) {
	verifyNoLeak(t)
	bad := serveTCP(t, answerThenClose("HTTP/1.1 400 Bad Request\r\n\r\n"))
	good := serveTCP(t, fakeZooKeeper)
	c := mustNew(t, bad+","+good)
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := c.LocateMeta(ctx); !errors.Is(err, ErrNoParent) {
		t.Fatalf("LocateMeta = %v; want ErrNoParent from the ZooKeeper of the two", err)
	}
}
