package sasl

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

type handshakeResult struct {
	layer  region.Layer
	err    error
	srvErr error
	srv    *fakeServer
}

// runHandshake runs the client handshake against srv over loopback TCP, bounded by timeout as
// region bounds it.
func runHandshake(t *testing.T, srv *fakeServer, cfg []Option, timeout time.Duration, hold bool) handshakeResult {
	t.Helper()
	if srv.kdc == nil {
		srv.kdc = newFakeKDC()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	release := make(chan struct{})
	srvDone := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			srvDone <- err
			return
		}
		err = srv.serve(holdConn{c, hold, release})
		srvDone <- err
	}()
	h, err := NewHandshaker(cfg...)
	if err != nil {
		t.Fatal(err)
	}
	h.tickets = srv.kdc
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	dl, _ := ctx.Deadline()
	conn.SetDeadline(dl)
	hdr := &pb.ConnectionHeader{ServiceName: new("ClientService"), UserInfo: &pb.UserInformation{EffectiveUser: new("client")}}
	layer, err := h.Handshake(ctx, conn, "RegionServer1.example.com", hdr)
	close(release)
	conn.Close()
	return handshakeResult{layer: layer, err: err, srvErr: <-srvDone, srv: srv}
}

// holdConn keeps the server's side open until the client is done when hold is set, so a
// missing reply looks like silence rather than a closed connection.
type holdConn struct {
	net.Conn
	hold    bool
	release chan struct{}
}

func (c holdConn) Close() error {
	if c.hold {
		<-c.release
	}
	return c.Conn.Close()
}

// exchange sends frames both ways through the negotiated layers.
func exchange(t *testing.T, client region.Layer, server serverLayer) {
	t.Helper()
	for i := range 20 {
		msg := []byte(fmt.Sprintf("rpc frame %d %s", i, make([]byte, i*37)))
		tok, err := client.Wrap(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := server.Unwrap(nil, tok)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("got = %q; want %q", got, msg)
		}
		tok, err = server.Wrap(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err = client.Unwrap(nil, tok)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("got = %q; want %q", got, msg)
		}
	}
}

const offerAll = layerNone | layerIntegrity | layerPrivacy

func TestPrivacyWithAES(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, aes: true, apRepSeq: 12345}, nil, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srvErr != nil {
		t.Fatal(r.srvErr)
	}
	if r.srv.chosen != byte(layerPrivacy) {
		t.Fatalf("r.srv.chosen = %v; want %v", r.srv.chosen, byte(layerPrivacy))
	}
	if r.srv.header.GetRpcCryptoCipherTransformation() != cipher.Transformation {
		t.Fatalf("r.srv.header.GetRpcCryptoCipherTransformation() = %q; want %q", r.srv.header.GetRpcCryptoCipherTransformation(), cipher.Transformation)
	}
	if r.srv.header.GetServiceName() != "ClientService" {
		t.Fatalf("r.srv.header.GetServiceName() = %q; want %q", r.srv.header.GetServiceName(), "ClientService")
	}
	if r.srv.header.GetUserInfo().GetEffectiveUser() != "client@EXAMPLE.COM" {
		t.Fatalf("r.srv.header.GetUserInfo().GetEffectiveUser() = %q; want %q", r.srv.header.GetUserInfo().GetEffectiveUser(), "client@EXAMPLE.COM")
	}
	if _, ok := r.layer.(*cipher.CryptoAES); !ok {
		t.Fatalf("r.layer is a %T; want a *cipher.CryptoAES", r.layer)
	}
	exchange(t, r.layer, r.srv.layer)
}

func TestPrivacyWithGSSWrapWhenAESOff(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, aes: true}, []Option{WithAES(AESOff)}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srvErr != nil {
		t.Fatal(r.srvErr)
	}
	if r.srv.header.GetRpcCryptoCipherTransformation() != "" {
		t.Fatalf("r.srv.header.GetRpcCryptoCipherTransformation() = %q; want it empty", r.srv.header.GetRpcCryptoCipherTransformation())
	}
	g, ok := r.layer.(*gssLayer)
	if !ok {
		t.Fatalf("%T", r.layer)
	}
	if !g.seal {
		t.Fatal("g.seal is false")
	}
	exchange(t, r.layer, r.srv.layer)
	if r.srv.layer.(*acceptorGSS).lastFlag&flagSealed == 0 {
		t.Fatal("client must seal under privacy: r.srv.layer.(*acceptorGSS).lastFlag&flagSealed is zero")
	}
}

func TestIntegrity(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll}, []Option{WithProtection(Integrity)}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srvErr != nil {
		t.Fatal(r.srvErr)
	}
	if r.srv.chosen != byte(layerIntegrity) {
		t.Fatalf("r.srv.chosen = %v; want %v", r.srv.chosen, byte(layerIntegrity))
	}
	if r.layer.(*gssLayer).seal {
		t.Fatal("r.layer.(*gssLayer).seal is true")
	}
	exchange(t, r.layer, r.srv.layer)
}

func TestAuthenticationOnly(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: layerNone}, []Option{WithProtection(Authentication)}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srvErr != nil {
		t.Fatal(r.srvErr)
	}
	if r.layer != nil {
		t.Fatalf("r.layer = %v; want nil", r.layer)
	}
	if r.srv.header.GetServiceName() != "ClientService" {
		t.Fatalf("r.srv.header.GetServiceName() = %q; want %q", r.srv.header.GetServiceName(), "ClientService")
	}
}

func TestStrongerOfferIsAccepted(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: layerPrivacy}, []Option{WithProtection(Integrity), WithAES(AESOff)}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srv.chosen != byte(layerPrivacy) {
		t.Fatalf("r.srv.chosen = %v; want %v", r.srv.chosen, byte(layerPrivacy))
	}
}

func TestWeakerOfferIsRefused(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: layerNone | layerIntegrity}, nil, 5*time.Second, false)
	if !errors.Is(r.err, hberr.ErrDowngrade) {
		t.Fatalf("error %v; want %v", r.err, hberr.ErrDowngrade)
	}
	if r.err == nil || !strings.Contains(r.err.Error(), "asked for auth-conf, server offers only auth, auth-int") {
		t.Fatalf("error %v; want one containing %q", r.err, "asked for auth-conf, server offers only auth, auth-int")
	}
	if r.layer != nil {
		t.Fatalf("r.layer = %v; want nil", r.layer)
	}

	r = runHandshake(t, &fakeServer{offer: layerNone | layerIntegrity}, []Option{WithAllowWeakerProtection()}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srv.chosen != byte(layerIntegrity) {
		t.Fatalf("r.srv.chosen = %v; want %v", r.srv.chosen, byte(layerIntegrity))
	}
}

func TestSwitchToSimpleIsRefused(t *testing.T) {
	for _, p := range []Protection{Authentication, Integrity, Privacy} {
		r := runHandshake(t, &fakeServer{switchToSimple: true}, []Option{WithProtection(p)}, 5*time.Second, false)
		if !errors.Is(r.err, hberr.ErrDowngrade) {
			t.Fatalf("%v: error %v; want %v", p, r.err, hberr.ErrDowngrade)
		}
		if r.err == nil || !strings.Contains(r.err.Error(), "SWITCH_TO_SIMPLE_AUTH") {
			t.Fatalf("error %v; want one containing %q", r.err, "SWITCH_TO_SIMPLE_AUTH")
		}
		if r.layer != nil {
			t.Fatalf("r.layer = %v; want nil", r.layer)
		}
		if r.srv.header != nil {
			t.Fatalf("no connection header may follow a refused downgrade: r.srv.header = %v; want nil", r.srv.header)
		}
	}
}

func TestSwitchToSimpleWithExplicitFallback(t *testing.T) {
	r := runHandshake(t, &fakeServer{switchToSimple: true}, []Option{WithProtection(Authentication), WithAllowFallbackToSimple()}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srvErr != nil {
		t.Fatal(r.srvErr)
	}
	if r.layer != nil {
		t.Fatalf("r.layer = %v; want nil", r.layer)
	}
	if r.srv.header.GetServiceName() != "ClientService" {
		t.Fatalf("r.srv.header.GetServiceName() = %q; want %q", r.srv.header.GetServiceName(), "ClientService")
	}
}

func TestServerErrorDuringSASL(t *testing.T) {
	r := runHandshake(t, &fakeServer{saslError: true}, nil, 5*time.Second, false)
	var se *ServerError
	if !errors.As(r.err, &se) {
		t.Fatalf("error %v (%T); want one as %T", r.err, r.err, &se)
	}
	if se.Class != "org.apache.hadoop.security.AccessControlException" {
		t.Fatalf("se.Class = %q; want %q", se.Class, "org.apache.hadoop.security.AccessControlException")
	}
	if se.Message != "Authentication is required" {
		t.Fatalf("se.Message = %q; want %q", se.Message, "Authentication is required")
	}
}

func TestMissingAESReply(t *testing.T) {
	start := time.Now()
	r := runHandshake(t, &fakeServer{offer: offerAll, aes: false}, nil, 400*time.Millisecond, true)
	if !errors.Is(r.err, hberr.ErrDowngrade) {
		t.Fatalf("error %v; want %v", r.err, hberr.ErrDowngrade)
	}
	if r.err == nil || !strings.Contains(r.err.Error(), "no ConnectionHeaderResponse") {
		t.Fatalf("error %v; want one containing %q", r.err, "no ConnectionHeaderResponse")
	}
	if time.Since(start) >= 3*time.Second {
		t.Fatalf("time.Since(start) = %v; want less than %v", time.Since(start), 3*time.Second)
	}

	r = runHandshake(t, &fakeServer{offer: offerAll, aes: false}, []Option{WithAES(AESPreferred), WithAESWait(100 * time.Millisecond)}, 5*time.Second, true)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if _, ok := r.layer.(*gssLayer); !ok {
		t.Fatalf("r.layer is a %T; want a *gssLayer", r.layer)
	}
	exchange(t, r.layer, r.srv.layer)
}

func TestMutualAuthFailure(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, badAPRep: true}, nil, 5*time.Second, false)
	if !errors.Is(r.err, hberr.ErrMutualAuth) {
		t.Fatalf("error %v; want %v", r.err, hberr.ErrMutualAuth)
	}
}

func TestAcceptorSubkey(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, subkey: true, aes: true}, []Option{WithAES(AESOff)}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !r.layer.(*gssLayer).acceptorSubkey {
		t.Fatal("r.layer.(*gssLayer).acceptorSubkey is false")
	}
	exchange(t, r.layer, r.srv.layer)
}

func TestUseNegotiatedCipher(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, negotiateCipher: true}, []Option{WithNegotiatedCipher()}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.srvErr != nil {
		t.Fatal(r.srvErr)
	}
	if r.srv.clientCipher != cipher.Transformation {
		t.Fatalf("r.srv.clientCipher = %q; want %q", r.srv.clientCipher, cipher.Transformation)
	}
	if _, ok := r.layer.(*cipher.CryptoAES); !ok {
		t.Fatalf("r.layer is a %T; want a *cipher.CryptoAES", r.layer)
	}
	if r.srv.header.GetRpcCryptoCipherTransformation() != "" {
		t.Fatalf("r.srv.header.GetRpcCryptoCipherTransformation() = %q; want it empty", r.srv.header.GetRpcCryptoCipherTransformation())
	}
	exchange(t, r.layer, r.srv.layer)
}

func TestUseNegotiatedCipherRefusedByServer(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll}, []Option{WithNegotiatedCipher()}, 400*time.Millisecond, true)
	if r.err == nil {
		t.Fatal("r.err is nil; want an error")
	}
}

func TestServicePrincipalPattern(t *testing.T) {
	srv := &fakeServer{offer: offerAll, aes: true}
	r := runHandshake(t, srv, []Option{WithServicePrincipal("hbase/_HOST@EXAMPLE.COM")}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if srv.kdc.spn != "hbase/regionserver1.example.com" {
		t.Fatalf("srv.kdc.spn = %q; want %q", srv.kdc.spn, "hbase/regionserver1.example.com")
	}
}

func TestKerberosErrorsPassThrough(t *testing.T) {
	kdc := newFakeKDC()
	kdc.err = classifyKrbError(errors.New("KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great"))
	r := runHandshake(t, &fakeServer{kdc: kdc}, nil, 5*time.Second, false)
	if !errors.Is(r.err, hberr.ErrClockSkew) {
		t.Fatalf("error %v; want %v", r.err, hberr.ErrClockSkew)
	}
}

func TestHandshakeBoundedByContext(t *testing.T) {
	// The server accepts and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	quit, exited := make(chan struct{}), make(chan struct{})
	defer func() { close(quit); <-exited }()
	go func() {
		defer close(exited)
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			<-quit
		}
	}()
	h, err := NewHandshaker()
	if err != nil {
		t.Fatal(err)
	}
	h.tickets = newFakeKDC()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	dl, _ := ctx.Deadline()
	conn.SetDeadline(dl)
	start := time.Now()
	_, err = h.Handshake(ctx, conn, "localhost", &pb.ConnectionHeader{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v; want %v", err, context.DeadlineExceeded)
	}
	if time.Since(start) >= time.Second {
		t.Fatalf("time.Since(start) = %v; want less than %v", time.Since(start), time.Second)
	}
}

func TestClassifyKrbError(t *testing.T) {
	for text, want := range map[string]error{
		"KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database":                                     hberr.ErrPrincipalUnknown,
		"KRB Error: (24) KDC_ERR_PREAUTH_FAILED Pre-authentication information was invalid":                                    hberr.ErrBadCredentials,
		"Keytab_Error: matching key not found in keytab. Looking for \"x\"":                                                    hberr.ErrBadCredentials,
		"KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great":                                                                 hberr.ErrClockSkew,
		"Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: dial tcp 127.0.0.1:1: connect: connection refused": hberr.ErrKDCUnreachable,
		"KRB Error: (32) KRB_AP_ERR_TKT_EXPIRED Ticket expired":                                                                hberr.ErrTicketExpired,
		"cannot login, no user credentials available and no valid existing session":                                            hberr.ErrTicketExpired,
		"something else": hberr.ErrKerberos,
	} {
		if err := classifyKrbError(errors.New(text)); !errors.Is(err, want) {
			t.Fatalf("%v: error %v; want %v", text, err, want)
		}
	}
}

func TestSimpleWithoutCredentials(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b := make([]byte, 64)
		n, _ := c.Read(b)
		got <- b[:n]
	}()
	h, err := NewHandshaker()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	l, err := h.Handshake(context.Background(), conn, "h", &pb.ConnectionHeader{ServiceName: new("ClientService")})
	if err != nil {
		t.Fatal(err)
	}
	if l != nil {
		t.Fatalf("l = %v; want nil", l)
	}
	if !bytes.Equal((<-got)[:6], []byte("HBas\x00\x50")) {
		t.Fatalf("(<-got)[:6] = %q; want %q", (<-got)[:6], []byte("HBas\x00\x50"))
	}
}

// Nothing secret reaches the logs or error strings: no session key, no AES key, in any of
// the usual encodings.
func TestSecretsStayOutOfLogs(t *testing.T) {
	for _, aes := range []AESMode{AESRequired, AESOff} {
		t.Run(fmt.Sprint(aes), func(t *testing.T) { secretsStayOutOfLogs(t, aes) })
	}
}

func secretsStayOutOfLogs(t *testing.T, aes AESMode) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := &fakeServer{offer: offerAll, aes: true, kdc: newFakeKDC()}
	r := runHandshake(t, srv, []Option{WithLogger(logger), WithAES(aes)}, 5*time.Second, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !strings.Contains(buf.String(), "handshake done") {
		t.Fatalf("buf.String() = %q; want it to contain %q", buf.String(), "handshake done")
	}
	// Make the layer fail and log its error too.
	bad, err := r.srv.layer.Wrap(nil, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	bad[0] ^= 1
	_, uerr := r.layer.Unwrap(nil, bad)
	if uerr == nil {
		t.Fatal("uerr is nil; want an error")
	}
	logger.Error("unwrap failed", "err", uerr, "layer", r.layer)
	out := buf.String() + uerr.Error() + fmt.Sprintf("%v %+v %#v", r.layer, r.layer, r.layer)
	for _, secret := range [][]byte{srv.kdc.key.KeyValue} {
		for _, enc := range []string{string(secret), hex.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret), fmt.Sprint(secret)} {
			if strings.Contains(out, enc) {
				t.Fatalf("out = %q; want it not to contain %q", out, enc)
			}
		}
	}
}

// A server rejecting the AP-REQ with a KRB-ERROR: each code its own error.
func TestServerKerberosErrors(t *testing.T) {
	for code, want := range map[int32]error{
		37: hberr.ErrClockSkew,      // KRB_AP_ERR_SKEW
		32: hberr.ErrTicketExpired,  // KRB_AP_ERR_TKT_EXPIRED
		31: hberr.ErrBadCredentials, // KRB_AP_ERR_BAD_INTEGRITY
		41: hberr.ErrBadCredentials, // KRB_AP_ERR_MODIFIED
		60: hberr.ErrKerberos,       // KRB_ERR_GENERIC
	} {
		r := runHandshake(t, &fakeServer{offer: offerAll, krbError: code}, nil, 5*time.Second, false)
		if !errors.Is(r.err, want) {
			t.Fatalf("code %d: error %v; want %v", code, r.err, want)
		}
	}
}

func TestServerErrorMapsKerberosCauses(t *testing.T) {
	err := error(&ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed [Caused by GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))]"})
	if !errors.Is(err, hberr.ErrClockSkew) {
		t.Fatalf("error %v; want %v", err, hberr.ErrClockSkew)
	}
	if errors.Is(err, hberr.ErrTicketExpired) {
		t.Fatalf("error %v; want one that is not %v", err, hberr.ErrTicketExpired)
	}
	if err := (&ServerError{Message: "Authentication is required"}); errors.Is(err, hberr.ErrBadCredentials) {
		t.Fatalf("error %v; want one that is not %v", err, hberr.ErrBadCredentials)
	}
}
