package region

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"testing"
	"time"
)

// tlsServer serves every connection with a TLS handshake of cfg and reports, per connection,
// whether a ClientHello came and how the server's handshake ended.
type tlsServerEnd struct {
	hello bool
	err   error
}

func tlsServer(t *testing.T, cfg *tls.Config) (string, <-chan tlsServerEnd) {
	t.Helper()
	ends := make(chan tlsServerEnd, 16)
	addr, _ := listen(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		hello := false
		cfg := cfg.Clone()
		cfg.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
			hello = true
			return nil, nil
		}
		err := tls.Server(c, cfg).Handshake()
		ends <- tlsServerEnd{hello, err}
	})
	return addr, ends
}

// The TLS probe recognises a TLS server by the header of the first record it answers the
// hello with, handshake or alert, and never completes a handshake; a plaintext server, one
// that closes, and a silent one are no TLS server.
func TestSpeaksTLS(t *testing.T) {
	cert := selfSigned(t)
	for _, tc := range []struct {
		name string
		cfg  *tls.Config // a TLS server's; nil: serve instead
		serv func(net.Conn)
		want bool
	}{
		{name: "TLS 1.3 server", cfg: &tls.Config{Certificates: []tls.Certificate{cert}}, want: true},
		{name: "TLS 1.2 server", cfg: &tls.Config{Certificates: []tls.Certificate{cert}, MaxVersion: tls.VersionTLS12}, want: true},
		{name: "TLS server requiring client certificates", cfg: &tls.Config{Certificates: []tls.Certificate{cert},
			ClientAuth: tls.RequireAndVerifyClientCert}, want: true},
		{name: "TLS 1.0 server (refuses the hello with an alert)", cfg: &tls.Config{Certificates: []tls.Certificate{cert},
			MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS10}, want: true},
		{name: "plaintext server answering HTTP 400", serv: func(c net.Conn) {
			var b [16]byte
			c.Read(b[:])                                        //nolint:errcheck
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n")) //nolint:errcheck
		}},
		{name: "plaintext server answering an HBase frame", serv: func(c net.Conn) {
			var b [16]byte
			c.Read(b[:])                                                        //nolint:errcheck
			c.Write([]byte("\x00\x00\x00\x93\x91\x01\x08\xff\xff\xff\xff\x0f")) //nolint:errcheck
		}},
		{name: "server answering a handshake type with a wrong version", serv: func(c net.Conn) {
			var b [16]byte
			c.Read(b[:])                                //nolint:errcheck
			c.Write([]byte("\x16\x01\x00\x00\x40xxxx")) //nolint:errcheck
		}},
		{name: "server answering an alert of a wrong length", serv: func(c net.Conn) {
			var b [16]byte
			c.Read(b[:])                                    //nolint:errcheck
			c.Write([]byte("\x15\x03\x03\x40\x00\x02\x28")) //nolint:errcheck
		}},
		{name: "server closing at once", serv: func(net.Conn) {}},
		{name: "server closing after 3 bytes", serv: func(c net.Conn) {
			var b [16]byte
			c.Read(b[:])                    //nolint:errcheck
			c.Write([]byte("\x16\x03\x03")) //nolint:errcheck
		}},
		{name: "silent server", serv: func(c net.Conn) { io.Copy(io.Discard, c) }}, //nolint:errcheck
	} {
		t.Run(tc.name, func(t *testing.T) {
			var addr string
			var ends <-chan tlsServerEnd
			if tc.cfg != nil {
				addr, ends = tlsServer(t, tc.cfg)
			} else {
				addr, _ = listen(t, tc.serv)
			}
			start := time.Now()
			got := speaksTLS(context.Background(), &net.Dialer{}, addr)
			took := time.Since(start)
			if got != tc.want {
				t.Errorf("speaksTLS = %v; want %v", got, tc.want)
			}
			if took > tlsProbeTimeout+2*time.Second { // a margin for a loaded machine
				t.Errorf("speaksTLS took %v; want at most about %v", took, tlsProbeTimeout)
			}
			if ends == nil {
				return
			}
			select {
			case end := <-ends:
				if !end.hello {
					t.Errorf("the server got no ClientHello")
				}
				if end.err == nil {
					t.Errorf("the server completed a handshake with the probe")
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the server's handshake did not end")
			}
		})
	}
}

// The probe ends with its context, whatever the server does.
func TestSpeaksTLSBoundedByContext(t *testing.T) {
	addr, _ := listen(t, func(c net.Conn) { io.Copy(io.Discard, c) }) //nolint:errcheck
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if speaksTLS(ctx, &net.Dialer{}, addr) {
		t.Error("speaksTLS = true for a silent server")
	}
	if took := time.Since(start); took > 600*time.Millisecond {
		t.Errorf("speaksTLS took %v with a context of 100ms", took)
	}
}

func TestTLSRecordHeader(t *testing.T) {
	for _, tc := range []struct {
		h    string
		want bool
	}{
		{"\x16\x03\x03\x00\x7a", true},  // a TLS 1.2/1.3 ServerHello
		{"\x16\x03\x01\x00\x04", true},  // the smallest handshake record
		{"\x16\x03\x00\x48\x00", true},  // SSL 3.0 record version, 2^14+2048 bytes
		{"\x15\x03\x03\x00\x02", true},  // an alert
		{"\x15\x03\x01\x00\x02", true},  // an alert, TLS 1.0 record version
		{"\x16\x03\x03\x48\x01", false}, // over 2^14+2048
		{"\x16\x03\x03\x00\x03", false}, // shorter than a handshake header
		{"\x15\x03\x03\x00\x03", false}, // an alert is 2 bytes
		{"\x16\x03\x05\x00\x7a", false}, // no such version
		{"\x16\x02\x00\x00\x7a", false}, // SSL 2
		{"\x17\x03\x03\x00\x7a", false}, // application data: never a first answer
		{"HTTP/", false},
		{"\x00\x00\x00\x93\x91", false},
		{"\x16\x03\x03\x00", false}, // short
		{"", false},
	} {
		if got := tlsRecordHeader([]byte(tc.h)); got != tc.want {
			t.Errorf("tlsRecordHeader(%q) = %v; want %v", tc.h, got, tc.want)
		}
	}
}
