package region

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/go-hbase/hbase/internal/pb"
)

// A server that stops reading fills the socket buffers: the caller that was writing must still
// return when its context ends (the write is handed to a goroutine), and Close must end that
// goroutine. Each attempt uses a fresh connection, so that its caller is the writer; the best
// of three is compared so that a loaded machine does not fail the test (a caller stuck in the
// write would be WriteTimeout late every time).
func TestStalledWriteDoesNotHoldTheCaller(t *testing.T) {
	best := time.Hour
	for range 3 {
		best = min(best, stalledWriteLateness(t))
	}
	if best > 50*time.Millisecond {
		t.Fatalf("caller returned %v after its deadline", best)
	}
}

func stalledWriteLateness(t *testing.T) time.Duration {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, err := ln.Accept()
		if err == nil {
			nc.(*net.TCPConn).SetReadBuffer(4096)
			accepted <- nc // never read from
		}
	}()
	c, err := Dial(testCtx(t), ln.Addr().String(), WithService("ClientService"), WithDialer(smallBufferDialer{}), WithWriteTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	nc := <-accepted
	defer nc.Close()

	big := make([]byte, 8<<20) // more than the socket buffers hold
	// The deadline leaves time to encode and queue the request, so that only the write counts.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	start := time.Now()
	_, err = c.Call(ctx, "Mutate", getRequest("r"), big, &pb.MutateResponse{})
	late := time.Since(start) - 500*time.Millisecond
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if c.Err() != nil {
		t.Fatalf("connection died: %v", c.Err())
	}
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs on the stalled writer")
	}
	// The server sees the stream end cleanly where the client closed it.
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, nc); err != nil {
		t.Fatal(err)
	}
	return late
}

// smallBufferDialer shrinks the socket's send buffer so that a stalled peer blocks writes soon.
type smallBufferDialer struct{}

func (smallBufferDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err == nil {
		nc.(*net.TCPConn).SetWriteBuffer(4096)
	}
	return nc, err
}
