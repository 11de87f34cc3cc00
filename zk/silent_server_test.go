package zk

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// silentServer accepts TCP connections and never answers: the worst case for go-zookeeper,
// whose calls block without a context.
type silentServer struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
	done  chan struct{}
}

func startSilentServer(t *testing.T) *silentServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{ln: ln, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-s.done
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
	})
	return s
}

func TestLookupReturnsAtDeadlineWhenServerIsSilent(t *testing.T) {
	srv := startSilentServer(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := mustNew(t, srv.ln.Addr().String(), WithSessionTimeout(4*time.Second))

	for _, lookup := range []struct {
		name string
		fn   func(context.Context) (string, error)
	}{{"LocateMeta", c.LocateMeta}, {"LocateMaster", c.LocateMaster}} {
		ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
		start := time.Now()
		addr, err := lookup.fn(ctx)
		late := time.Since(start) - 150*time.Millisecond
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s = %q, %v; want context.DeadlineExceeded", lookup.name, addr, err)
		}
		if late > 50*time.Millisecond {
			t.Errorf("%s returned %v after its deadline", lookup.name, late)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.LocateMeta(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("LocateMeta with a cancelled context: %v; want context.Canceled", err)
	}

	start := time.Now()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// go-zookeeper gives its closeSession request a second; the socket cut must do the rest.
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v with a silent server", d)
	}
	if _, err := c.LocateMaster(t.Context()); !errors.Is(err, ErrClosed) {
		t.Errorf("LocateMaster after Close: %v; want ErrClosed", err)
	}
}

func TestLookupCutShortByClose(t *testing.T) {
	srv := startSilentServer(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := mustNew(t, srv.ln.Addr().String(), WithSessionTimeout(4*time.Second))
	errc := make(chan error, 1)
	go func() {
		_, err := c.LocateMeta(t.Context())
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	c.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("LocateMeta cut short by Close: %v; want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("LocateMeta still blocked 5s after Close")
	}
}

func TestBadConfigurationFailsNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"empty quorum", nil},
		{"negative timeout", []Option{WithSessionTimeout(-time.Second)}},
		{"empty parent", []Option{WithZNodeParent("")}},
		{"nil logger", []Option{WithLogger(nil)}},
		{"nil option", []Option{nil}},
	} {
		quorum := "127.0.0.1:1"
		if tc.opts == nil {
			quorum = " , "
		}
		if c, err := New(quorum, tc.opts...); err == nil {
			t.Errorf("%s: New succeeded", tc.name)
			c.Close()
		}
	}
}

func mustNew(t testing.TB, quorum string, opts ...Option) *Client {
	t.Helper()
	c, err := New(quorum, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
