package testkit

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// Listener accepts connections and does what serve says with each (nil: keep it open and
// silent until the test ends), counting them.
type Listener struct {
	Addr     string
	Accepted atomic.Int64
}

// StartListener listens on a loopback port until the test ends.
func StartListener(t testing.TB, serve func(net.Conn)) *Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &Listener{Addr: ln.Addr().String()}
	var mu sync.Mutex
	var open []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.Accepted.Add(1)
			if serve == nil {
				mu.Lock()
				open = append(open, c)
				mu.Unlock()
				continue
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		for _, c := range open {
			c.Close()
		}
		mu.Unlock()
	})
	return l
}

// SilentListener is an address that accepts connections and never answers.
func SilentListener(t testing.TB) string { return StartListener(t, nil).Addr }

// ClosingListener accepts connections and closes them at once.
func ClosingListener(t testing.TB) *Listener { return StartListener(t, func(net.Conn) {}) }

// DeadAddr is a loopback address nothing listens on.
func DeadAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
