package engine

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/testkit"
)

// resetAfterHeader listens like an HBase 2.4 region server asked for ClientMetaService: it
// reads the preamble and the connection header, then resets the connection without a word.
// It counts the connections it took.
func resetAfterHeader(t *testing.T, conns *atomic.Int64) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer c.Close()
				var pre [6]byte
				var n [4]byte
				if _, err := io.ReadFull(c, pre[:]); err != nil || string(pre[:4]) != "HBas" {
					return // not the HBase preamble (the client's TLS probe): closed at once
				}
				if _, err := io.ReadFull(c, n[:]); err != nil {
					return
				}
				if _, err := io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(n[:]))); err != nil {
					return
				}
				c.(*net.TCPConn).SetLinger(0) // a reset, as Netty's close after the exception gives
			}()
		}
	}()
	return ln.Addr().String()
}

// Bootstrap servers that do not serve the connection registry (HBase 2.4 region servers
// reset the connection; others answer UnknownServiceException) make a call fail at once with
// an error naming the version that has it, not wait for the deadline.
func TestBootstrapServersWithoutRegistryFailFast(t *testing.T) {
	var resets atomic.Int64
	unknown, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.ipc.UnknownServiceException", r.Conn.Header().GetServiceName())}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer unknown.Close()
	reset := resetAfterHeader(t, &resets)
	c, err := NewClient("", WithBootstrapServers(reset, unknown.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.Get(testContext(t, 20*time.Second), mustGet(t, "t", []byte("row")))
	took := time.Since(start)
	if !errors.Is(err, hberr.ErrBootstrapUnreachable) || !errors.Is(err, hberr.ErrConfiguration) || !strings.Contains(err.Error(), "HBase 2.5") {
		t.Fatalf("err = %v; want hberr.ErrBootstrapUnreachable and hberr.ErrConfiguration naming HBase 2.5", err)
	}
	if took > 5*time.Second {
		t.Errorf("the Get took %v; servers without a registry must fail it at once", took)
	}
	if n := resets.Load(); n != 4 {
		t.Errorf("the resetting server got %d connections; want 4 (one more try on a new connection, and after each the TLS probe that finds it no TLS server)", n)
	}
}

// A server that resets a connection is not taken for one without a registry while another
// bootstrap server may still answer (one that is down now): the lookup keeps retrying.
func TestBootstrapResetWithDeadServerRetries(t *testing.T) {
	var resets atomic.Int64
	c, err := NewClient("", WithBootstrapServers(resetAfterHeader(t, &resets), testkit.DeadAddr(t)),
		WithRegionLookupTimeout(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Get(testContext(t, 2*time.Second), mustGet(t, "t", []byte("row")))
	if !errors.Is(err, hberr.ErrBootstrapUnreachable) || errors.Is(err, hberr.ErrConfiguration) {
		t.Fatalf("err = %v; want hberr.ErrBootstrapUnreachable, not a configuration error", err)
	}
	if n := resets.Load(); n < 2 {
		t.Errorf("the resetting server got %d connections; want at least 2", n)
	}
}
