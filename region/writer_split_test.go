package region

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

func aesKeys() cipher.Keys {
	k := cipher.Keys{InKey: make([]byte, 16), InIV: make([]byte, 16), OutKey: make([]byte, 16), OutIV: make([]byte, 16)}
	for i := range 16 {
		k.InKey[i], k.InIV[i], k.OutKey[i], k.OutIV[i] = byte(i), byte(i+16), byte(i+32), byte(i+48)
	}
	return k
}

// startAESFake is a fake server speaking CryptoAES after the connection header: it refuses
// any token whose MAC or sequence number is wrong, so a token written before its caller sealed
// it, or out of order, kills the connection.
func startAESFake(t *testing.T) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.Start(fakeserver.Options{
		Handler: echoGet,
		NewLayer: func() fakeserver.Layer {
			l, err := cipher.New(cipher.Transformation, aesKeys().Swapped())
			if err != nil {
				panic(err) // fixed test keys
			}
			return l
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// layerHandshaker sets up SIMPLE in clear and then switches to layer.
type layerHandshaker struct{ layer Layer }

func (h layerHandshaker) Handshake(ctx context.Context, conn net.Conn, _ string, hdr *pb.ConnectionHeader) (Layer, error) {
	if err := simpleHandshake(conn, hdr); err != nil {
		return nil, err
	}
	return h.layer, nil
}

func newClientAES(t testing.TB) *cipher.CryptoAES {
	t.Helper()
	l, err := cipher.New(cipher.Transformation, aesKeys())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Concurrent callers seal their own tokens; every call, including frames spanning several
// tokens, reaches the server intact and in stream order.
func TestSplitLayerConcurrentCalls(t *testing.T) {
	srv := startAESFake(t)
	c := dialT(t, srv.Addr(), WithHandshaker(layerHandshaker{newClientAES(t)}), WithMaxWrapSize(4096))
	if c.w.split == nil {
		t.Fatal("CryptoAES was not used as a SplitLayer")
	}
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Go(func() {
			want := bytes.Repeat([]byte{byte(g)}, 700*g)
			for i := range 20 {
				row := fmt.Sprint("row", g, "-", i)
				var resp pb.GetResponse
				cells, err := c.Call(ctx, "Get", getRequest(row), want, &resp)
				switch {
				case err != nil:
					errs <- err
					return
				case !bytes.Equal(cells, want) || string(resp.GetResult().GetCell()[0].GetRow()) != row:
					errs <- fmt.Errorf("call %d/%d: wrong response", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// gatedAES holds the Seal of the token with sequence number hold until release is closed.
type gatedAES struct {
	*cipher.CryptoAES
	hold    uint32
	sealing chan struct{} // closed when the held Seal starts
	release chan struct{}
}

func (g *gatedAES) Seal(dst []byte, seq uint32, plain []byte) []byte {
	if seq == g.hold {
		close(g.sealing)
		<-g.release
	}
	return g.CryptoAES.Seal(dst, seq, plain)
}

func newGatedAES(t *testing.T, hold uint32) *gatedAES {
	return &gatedAES{CryptoAES: newClientAES(t), hold: hold, sealing: make(chan struct{}), release: make(chan struct{})}
}

// A token reserved later waits for an earlier one still being sealed: nothing unsealed or out of
// order is written (the server would reject it and the calls would fail).
func TestSplitLayerWritesOnlySealedTokens(t *testing.T) {
	srv := startAESFake(t)
	layer := newGatedAES(t, 0) // the first call's token
	c := dialT(t, srv.Addr(), WithHandshaker(layerHandshaker{layer}))
	ctx := testCtx(t)

	first := make(chan error, 1)
	go func() { _, _, err := doGet(ctx, c, "first"); first <- err }()
	<-layer.sealing
	second := make(chan error, 1)
	go func() { _, _, err := doGet(ctx, c, "second"); second <- err }()
	select {
	case err := <-second:
		t.Fatalf("second call returned (%v) while the first call's token was unsealed", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(layer.release)
	for _, ch := range []chan error{first, second} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := doGet(ctx, c, "third"); err != nil {
		t.Fatal(err)
	}
}

// A connection that dies while a caller is sealing fails that call; the late Seal neither
// writes nor corrupts anything.
func TestSplitLayerConnectionDiesWhileSealing(t *testing.T) {
	srv := startAESFake(t)
	layer := newGatedAES(t, 0)
	c := dialT(t, srv.Addr(), WithHandshaker(layerHandshaker{layer}))
	ctx := testCtx(t)
	done := make(chan error, 1)
	go func() { _, _, err := doGet(ctx, c, "doomed"); done <- err }()
	<-layer.sealing
	srv.Close()
	deadline := time.Now().Add(5 * time.Second)
	for c.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(layer.release)
	if err := <-done; !errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("err = %v, want hberr.ErrConnection", err)
	}
	if _, _, err := doGet(ctx, c, "after"); !errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("call after death: %v", err)
	}
}
