package region

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// listen serves every connection with serve in a goroutine of its own and counts them.
func listen(t *testing.T, serve func(net.Conn)) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return ln.Addr().String(), &n
}

// selfSigned is a server certificate for 127.0.0.1.
func selfSigned(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsOnly behaves as a TLS-only HBase server does with a plaintext client (measured against
// HBase 2.6.1: it closes the connection without a byte), and answers a TLS hello.
func tlsOnly(t *testing.T) func(net.Conn) {
	cfg := &tls.Config{Certificates: []tls.Certificate{selfSigned(t)}}
	return func(c net.Conn) {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		tls.Server(c, cfg).Handshake() //nolint:errcheck // a plaintext client fails it: close
	}
}

func firstCall(t *testing.T, addr string, opts ...Option) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, append([]Option{WithService("ClientService")}, opts...)...)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Call(ctx, "Get", getRequest("r"), nil, &pb.GetResponse{})
	return err
}

// A new connection that gets no HBase answer says what kind of server it reached: a TLS-only
// one (found with a TLS probe), something else, or one that merely closed it. The first two
// are configuration errors: no retry helps.
func TestFirstAnswerExplained(t *testing.T) {
	cfg := &tls.Config{InsecureSkipVerify: true}
	readThen := func(reply string) func(net.Conn) {
		return func(c net.Conn) {
			c.SetDeadline(time.Now().Add(5 * time.Second))
			var b [6]byte
			io.ReadFull(c, b[:])   //nolint:errcheck
			c.Write([]byte(reply)) //nolint:errcheck
		}
	}
	for _, tc := range []struct {
		name     string
		serve    func(net.Conn)
		opts     []Option
		want     []string // in the message
		is       []error
		isNot    []error
		accepted int64 // connections the server took: the client's and its TLS probe's
	}{
		{"plaintext client, TLS-only server", tlsOnly(t), nil,
			[]string{"the server speaks TLS and closed this plaintext connection: the cluster requires TLS; connect with hbase.WithTLS"},
			[]error{hberr.ErrTLS, hberr.ErrConfiguration, hberr.ErrConnection}, nil, 2},
		{"plaintext client, HTTP server", readThen("HTTP/1.1 400 Bad Request\r\n\r\n"), nil,
			[]string{`not an HBase RPC server: its first bytes were "HTTP", no HBase response`},
			[]error{hberr.ErrConfiguration, hberr.ErrConnection, ErrFrameTooLarge}, []error{hberr.ErrTLS}, 1},
		{"plaintext client, closing server", readThen(""), nil,
			[]string{"server closed the connection before answering anything"},
			[]error{hberr.ErrConnection, ErrNoAnswer}, []error{hberr.ErrTLS, hberr.ErrConfiguration}, 2},
		{"TLS client, closing server", readThen(""), []Option{WithTLS(cfg)},
			[]string{"TLS handshake failed: ", "(the server closed the connection without answering the TLS hello: it does not speak TLS, or the port is not an HBase RPC port)"},
			[]error{hberr.ErrTLS, hberr.ErrConfiguration}, nil, 1},
		{"TLS client, plaintext server", readThen("\x00\x00\x00\x93\x91\x01\x08\xff\xff\xff\xff\x0f\x12\x88\x01org.apache"), []Option{WithTLS(cfg)},
			[]string{"(the server answered in plaintext: it does not speak TLS; native TLS needs HBase 2.6 or later"},
			[]error{hberr.ErrTLS, hberr.ErrConfiguration}, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, accepted := listen(t, tc.serve)
			err := firstCall(t, addr, tc.opts...)
			if err == nil {
				t.Fatal("the call succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v; want it to say %q", err, w)
				}
			}
			for _, s := range tc.is {
				if !errors.Is(err, s) {
					t.Errorf("err = %v; want errors.Is %v", err, s)
				}
			}
			for _, s := range tc.isNot {
				if errors.Is(err, s) {
					t.Errorf("err = %v; it is %v", err, s)
				}
			}
			// The listener counts the probe's connection as it accepts it; give it a moment.
			deadline := time.Now().Add(time.Second)
			for accepted.Load() < tc.accepted && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := accepted.Load(); n != tc.accepted {
				t.Errorf("the server took %d connections; want %d", n, tc.accepted)
			}
		})
	}
}

// blackholeAfterFirst dials the first connection and leaves every later one (the TLS probe)
// unanswered until its context ends, as a partitioned server does.
type blackholeAfterFirst struct{ n atomic.Int64 }

func (d *blackholeAfterFirst) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.n.Add(1) == 1 {
		var nd net.Dialer
		return nd.DialContext(ctx, network, addr)
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// A call on a new connection that the server closes unanswered returns with its context even
// when the TLS probe that explains the close cannot reach the server (a partition): the probe
// takes up to a second, and the caller reading its own response used to wait for it.
func TestUnansweredProbeBoundedByTheCall(t *testing.T) {
	addr, _ := listen(t, func(c net.Conn) {
		var b [6]byte
		io.ReadFull(c, b[:]) //nolint:errcheck
	})
	d := &blackholeAfterFirst{}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, WithService("ClientService"), WithDialer(d))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	callCtx, callCancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer callCancel()
	start := time.Now()
	_, err = c.Call(callCtx, "Get", getRequest("r"), nil, &pb.GetResponse{})
	took := time.Since(start)
	if err == nil {
		t.Fatal("the call succeeded")
	}
	// The margin is for a loaded machine; a call that ignored its context would wait on the
	// black hole for the 5 s dial context or more.
	if took > 2300*time.Millisecond {
		t.Errorf("the call returned after %v, its context ended after 300 ms: %v", took, err)
	}
	if d.n.Load() < 2 {
		t.Errorf("%d dials: the probe did not run", d.n.Load())
	}
}
