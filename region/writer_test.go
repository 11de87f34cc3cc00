package region

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
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

// TestLargeFramesQueuedInOrder: large frames (written as they are, between the small frames
// pending around them) and small ones (copied into the pending buffer) from concurrent callers
// reach the server whole and in a consistent stream, through the raw socket (or, under -race,
// net.TCPConn's writev) and through a wrapped connection whose writes are slow, so that
// callers pile up behind the writer.
func TestLargeFramesQueuedInOrder(t *testing.T) {
	for _, slow := range []bool{false, true} {
		t.Run(fmt.Sprintf("slow=%v", slow), func(t *testing.T) {
			srv := startFake(t, echoGet)
			var opts []Option
			if slow {
				opts = append(opts, WithDialer(&slowDialer{delay: time.Millisecond}))
			}
			c := dialT(t, srv.Addr(), opts...)
			ctx := testCtx(t)
			var wg sync.WaitGroup
			for g := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 8 {
						row := fmt.Sprintf("g%d-%d", g, i)
						size := 10 + i
						if (g+i)%3 == 0 {
							size = maxPooledBuffer + 1000*g + i // a large frame
						}
						cells := bytes.Repeat([]byte{byte(g*8 + i)}, size)
						var resp pb.GetResponse
						got, err := c.Call(ctx, "Get", getRequest(row), cells, &resp)
						if err != nil {
							t.Error(err)
							return
						}
						if r := string(resp.GetResult().GetCell()[0].GetRow()); r != row || !bytes.Equal(got, cells) {
							t.Errorf("asked %s with %d bytes of cells, got %s with %d", row, len(cells), r, len(got))
							return
						}
					}
				}()
			}
			wg.Wait()
			t.Logf("%+v", c.Stats())
		})
	}
}

func TestGather(t *testing.T) {
	out := []byte("abcdef")
	big1, big2 := []byte("XX"), []byte("YY")
	for _, tc := range []struct {
		queued []queuedFrame
		want   string
		bufs   int
	}{
		{nil, "abcdef", 1},
		{[]queuedFrame{{0, big1}}, "XXabcdef", 2},
		{[]queuedFrame{{6, big1}}, "abcdefXX", 2},
		{[]queuedFrame{{2, big1}, {2, big2}, {5, big1}}, "abXXYYcdeXXf", 6},
	} {
		iov := gather(nil, out, tc.queued)
		var b bytes.Buffer
		for _, p := range iov {
			if len(p) == 0 {
				t.Errorf("%v: an empty buffer", tc.queued)
			}
			b.Write(p)
		}
		if b.String() != tc.want || len(iov) != tc.bufs {
			t.Errorf("%v: %q in %d buffers, want %q in %d", tc.queued, b.String(), len(iov), tc.want, tc.bufs)
		}
	}
	if iov := gather(nil, nil, []queuedFrame{{0, big1}}); len(iov) != 1 {
		t.Errorf("only a queued frame: %d buffers", len(iov))
	}
}
