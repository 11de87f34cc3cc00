package region

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"runtime"
	"testing"
	"time"
)

// tcpPair returns a connected client (through fastConn) and server end on loopback. The
// rawConn tests run on net.Conn in race-detector builds, where fastConn leaves it; make test
// runs them again without -race.
func tcpPair(t *testing.T) (client net.Conn, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	client = fastConn(c)
	t.Cleanup(func() { client.Close(); s.Close() })
	return client, s
}

func TestRawConnIsUsedOnLinux(t *testing.T) {
	c, _ := tcpPair(t)
	want := runtime.GOOS == "linux" && !raceEnabled
	if raw := fmt.Sprintf("%T", c) == "*region.rawConn"; raw != want {
		t.Fatalf("fastConn gave %T on %s (race detector: %v)", c, runtime.GOOS, raceEnabled)
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if fastConn(a) != a {
		t.Fatal("fastConn wrapped a connection that is not TCP")
	}
}

// TestRawConnLargeTransfers: 8 MB each way, more than the socket buffers hold, so writes are
// partial and both ends wait on the netpoller; every byte arrives in order.
func TestRawConnLargeTransfers(t *testing.T) {
	c, s := tcpPair(t)
	data := make([]byte, 8<<20)
	for i := range data {
		data[i] = byte(rand.Uint32())
	}
	echoed := make(chan error, 1)
	go func() { // the server echoes everything back in odd-sized pieces
		buf := make([]byte, 7919)
		_, err := io.CopyBuffer(s, io.LimitReader(s, int64(len(data))), buf)
		echoed <- err
	}()
	got := make(chan []byte, 1)
	go func() {
		b := make([]byte, len(data))
		if _, err := io.ReadFull(c, b); err != nil {
			t.Error(err)
		}
		got <- b
	}()
	if n, err := c.Write(data); n != len(data) || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	if err := <-echoed; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(<-got, data) {
		t.Fatal("the echoed bytes differ")
	}
}

func TestRawConnEndOfStream(t *testing.T) {
	c, s := tcpPair(t)
	s.Write([]byte("last"))
	s.Close()
	b, err := io.ReadAll(c)
	if string(b) != "last" || err != nil {
		t.Fatalf("read %q, %v; want the bytes, then EOF", b, err)
	}
	if n, err := c.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Fatalf("read after EOF: %d, %v", n, err)
	}
}

func TestRawConnDeadlines(t *testing.T) {
	c, _ := tcpPair(t)
	c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	start := time.Now()
	_, err := c.Read(make([]byte, 10))
	if !errors.Is(err, os.ErrDeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("read past its deadline: %v after %v", err, time.Since(start))
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("%v is not a net.Error timeout", err)
	}
	// Nobody reads the other end: a large write fills the buffers and then times out,
	// reporting how much went out. The deadline is far enough away that a loaded machine
	// still starts the write before it (CI once saw 0 bytes written with 50 ms).
	c.SetWriteDeadline(time.Now().Add(time.Second))
	n, err := c.Write(make([]byte, 64<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) || n <= 0 || n >= 64<<20 {
		t.Fatalf("write past its deadline: %d bytes, %v", n, err)
	}
}

func TestRawConnClosedAndReset(t *testing.T) {
	c, s := tcpPair(t)
	readErr := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 10))
		readErr <- err
	}()
	time.Sleep(20 * time.Millisecond) // let the read park on the netpoller
	c.Close()
	if err := <-readErr; !errors.Is(err, net.ErrClosed) {
		t.Fatalf("read on a connection closed under it: %v", err)
	}

	c2, s2 := tcpPair(t)
	_ = s
	// A reset peer: the write fails with an error, not a SIGPIPE.
	s2.(*net.TCPConn).SetLinger(0)
	s2.Close()
	var err error
	for range 100 {
		if _, err = c2.Write([]byte("x")); err != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "write" {
		t.Fatalf("write to a reset peer: %v (%T), want a *net.OpError", err, err)
	}
}

// TestRawConnDoesNotAllocate: a round trip through rawConn allocates nothing (a closure per
// call would, through the RawConn interface).
func TestRawConnDoesNotAllocate(t *testing.T) {
	c, s := tcpPair(t)
	go echoChunks(s, 100)
	buf := make([]byte, 100)
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := c.Write(buf); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per round trip, want 0", allocs)
	}
}

// echoChunks writes back every size bytes read from nc until either fails.
func echoChunks(nc net.Conn, size int) {
	buf := make([]byte, size)
	for {
		if _, err := io.ReadFull(nc, buf); err != nil {
			return
		}
		if _, err := nc.Write(buf); err != nil {
			return
		}
	}
}
