package sasl

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

// Through a real region.Client: a tampered, replayed or truncated frame from the server fails
// the connection and its calls with an error that names the cause; the call gets no response.
func TestBadFramesFailTheConnection(t *testing.T) {
	type tamper func(tok []byte) [][]byte
	kinds := map[string]struct {
		tamper  tamper
		wantAES error
		wantGSS error
	}{
		"flipped-bit": {func(tok []byte) [][]byte {
			tok[len(tok)/2] ^= 0x10
			return [][]byte{tok}
		}, cipher.ErrMAC, ErrIntegrity},
		"replayed": {func(tok []byte) [][]byte {
			return [][]byte{tok, tok}
		}, cipher.ErrMAC, ErrSequence},
		"truncated": {func(tok []byte) [][]byte {
			return [][]byte{tok[:len(tok)-3]}
		}, cipher.ErrMAC, ErrIntegrity},
	}
	for name, k := range kinds {
		for _, aes := range []AESMode{AESRequired, AESOff} {
			want := k.wantAES
			if aes == AESOff {
				want = k.wantGSS
			}
			t.Run(name+"/"+map[AESMode]string{AESRequired: "aes", AESOff: "gss"}[aes], func(t *testing.T) {
				srv := &fakeServer{offer: offerAll, aes: true, kdc: newFakeKDC()}
				srv.after = func(conn net.Conn, l serverLayer) error {
					// Read the client's first request token, then answer with the first bytes of a
					// response frame (a valid RPC prefix), tampered with.
					if _, err := readClientToken(conn); err != nil {
						return err
					}
					tok, err := l.Wrap(nil, []byte{0, 0, 0, 10, 3})
					if err != nil {
						return err
					}
					for _, t := range k.tamper(tok) {
						if _, err := conn.Write(appendToken(nil, t)); err != nil {
							return err
						}
					}
					time.Sleep(200 * time.Millisecond)
					return nil
				}
				c := dialFake(t, srv, []Option{WithAES(aes)})
				defer c.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				var resp pb.IsMasterRunningResponse
				_, err := c.Call(ctx, "IsMasterRunning", &pb.IsMasterRunningRequest{}, nil, &resp)
				if err == nil {
					t.Fatal("err is nil; want an error")
				}
				if !errors.Is(err, hberr.ErrConnection) {
					t.Fatalf("error %v; want %v", err, hberr.ErrConnection)
				}
				if !errors.Is(err, want) {
					t.Fatalf("error %v; want %v", err, want)
				}
				if resp.IsMasterRunning != nil {
					t.Fatal("nothing of a bad frame may reach the caller")
				}
				<-c.Done()
				if err := c.Err(); !errors.Is(err, want) {
					t.Fatalf("error %v; want %v", err, want)
				}
			})
		}
	}
}

// dialFake connects a region.Client to srv through the Handshaker.
func dialFake(t *testing.T, srv *fakeServer, cfg []Option) *region.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	done := make(chan error, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		done <- srv.serve(conn)
	}()
	t.Cleanup(func() {
		if err := <-done; err != nil && !errors.Is(err, net.ErrClosed) {
			t.Logf("fake server: %v", err)
		}
	})
	h, err := NewHandshaker(cfg...)
	if err != nil {
		t.Fatal(err)
	}
	h.tickets = srv.kdc
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := region.Dial(ctx, ln.Addr().String(), region.WithService("MasterService"), region.WithHandshaker(h))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
