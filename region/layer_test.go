package region

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// toyLayer is a stateful test layer: each token is be32(seq) || plain XOR key(seq). A token
// out of sequence, or bytes that were not wrapped, fail to unwrap, like real SASL/AES layers.
type toyLayer struct {
	wseq, rseq uint32
	failUnwrap bool
}

func (l *toyLayer) Wrap(dst, plain []byte) ([]byte, error) {
	seq := l.wseq
	l.wseq++
	dst = binary.BigEndian.AppendUint32(dst, seq)
	for _, b := range plain {
		dst = append(dst, b^byte(seq)^0x5a)
	}
	return dst, nil
}

func (l *toyLayer) Unwrap(dst, token []byte) ([]byte, error) {
	if l.failUnwrap {
		return dst, errors.New("toy: bad token")
	}
	if len(token) < 4 {
		return dst, fmt.Errorf("toy: token of %d bytes", len(token))
	}
	seq := binary.BigEndian.Uint32(token)
	if seq != l.rseq {
		return dst, fmt.Errorf("toy: token %d, want %d", seq, l.rseq)
	}
	l.rseq++
	for _, b := range token[4:] {
		dst = append(dst, b^byte(seq)^0x5a)
	}
	return dst, nil
}

// toyHandshaker does the SIMPLE setup itself and then switches to a toyLayer.
type toyHandshaker struct {
	layer *toyLayer
	host  string
}

func (h *toyHandshaker) Handshake(ctx context.Context, conn net.Conn, serverHost string, hdr *pb.ConnectionHeader) (Layer, error) {
	h.host = serverHost
	if err := simpleHandshake(conn, hdr); err != nil {
		return nil, err
	}
	return h.layer, nil
}

func TestLayeredStream(t *testing.T) {
	srv, err := fakeserver.Start(fakeserver.Options{
		Handler:  echoGet,
		NewLayer: func() fakeserver.Layer { return &toyLayer{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := &toyHandshaker{layer: &toyLayer{}}
	c := dialT(t, srv.Addr(), WithHandshaker(hs), WithMaxWrapSize(4096))
	if hs.host != "127.0.0.1" {
		t.Fatalf("server host %q", hs.host)
	}
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for g := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Cellblocks larger than MaxWrapSize span several tokens each way.
			want := bytes.Repeat([]byte{byte(g)}, 1000*g)
			row := fmt.Sprint("row", g)
			var resp pb.GetResponse
			cells, err := c.Call(ctx, "Get", getRequest(row), want, &resp)
			switch {
			case err != nil:
				errs <- err
			case !bytes.Equal(cells, want) || string(resp.GetResult().GetCell()[0].GetRow()) != row:
				errs <- fmt.Errorf("call %d: wrong response", g)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if hs.layer.wseq < 50 || hs.layer.rseq < 50 {
		t.Fatalf("layer used for %d writes and %d reads", hs.layer.wseq, hs.layer.rseq)
	}
}

func TestLayerUnwrapErrorKillsConnection(t *testing.T) {
	srv, err := fakeserver.Start(fakeserver.Options{
		Handler:  echoGet,
		NewLayer: func() fakeserver.Layer { return &toyLayer{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := dialT(t, srv.Addr(), WithHandshaker(&toyHandshaker{layer: &toyLayer{failUnwrap: true}}))
	if _, _, err := doGet(testCtx(t), c, "x"); !errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("err = %v", err)
	}
}

// blockingHandshaker waits for a server message that never comes.
type blockingHandshaker struct{}

func (blockingHandshaker) Handshake(ctx context.Context, conn net.Conn, _ string, hdr *pb.ConnectionHeader) (Layer, error) {
	if err := simpleHandshake(conn, hdr); err != nil {
		return nil, err
	}
	_, err := conn.Read(make([]byte, 1))
	return nil, err
}

func TestDialHonoursContext(t *testing.T) {
	srv := startFake(t, echoGet)
	for _, withDeadline := range []bool{true, false} {
		var ctx context.Context
		var cancel context.CancelFunc
		if withDeadline {
			ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
		} else {
			ctx, cancel = context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
		}
		start := time.Now()
		_, err := Dial(ctx, srv.Addr(), WithService("ClientService"), WithHandshaker(blockingHandshaker{}))
		cancel()
		want := context.Canceled
		if withDeadline {
			want = context.DeadlineExceeded
		}
		if !errors.Is(err, want) {
			t.Fatalf("deadline %v: err = %v", withDeadline, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Dial took %v", d)
		}
	}
}
