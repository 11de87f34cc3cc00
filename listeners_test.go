package hbase

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// testListener accepts connections and does what serve says with each (nil: keep it open
// and silent until the test ends), counting them.
type testListener struct {
	addr     string
	accepted atomic.Int64
}

func startListener(t testing.TB, serve func(net.Conn)) *testListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &testListener{addr: ln.Addr().String()}
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
			l.accepted.Add(1)
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

// silentListener is an address that accepts connections and never answers.
func silentListener(t testing.TB) string { return startListener(t, nil).addr }

// closingListener accepts connections and closes them at once.
func closingListener(t testing.TB) *testListener { return startListener(t, func(net.Conn) {}) }
