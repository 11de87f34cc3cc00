package sasl

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/pb"
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
func runHandshake(t *testing.T, srv *fakeServer, cfg Config, timeout time.Duration, hold bool) handshakeResult {
	t.Helper()
	if srv.kdc == nil {
		srv.kdc = newFakeKDC()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
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
	h, err := NewHandshaker(cfg)
	require.NoError(t, err)
	h.tickets = srv.kdc
	conn, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
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
		require.NoError(t, err)
		got, err := server.Unwrap(nil, tok)
		require.NoError(t, err)
		require.Equal(t, msg, got)
		tok, err = server.Wrap(nil, msg)
		require.NoError(t, err)
		got, err = client.Unwrap(nil, tok)
		require.NoError(t, err)
		require.Equal(t, msg, got)
	}
}

const offerAll = layerNone | layerIntegrity | layerPrivacy

func TestPrivacyWithAES(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, aes: true, apRepSeq: 12345}, Config{}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.NoError(t, r.srvErr)
	require.Equal(t, byte(layerPrivacy), r.srv.chosen)
	require.Equal(t, cipher.Transformation, r.srv.header.GetRpcCryptoCipherTransformation())
	require.Equal(t, "ClientService", r.srv.header.GetServiceName())
	require.Equal(t, "client@EXAMPLE.COM", r.srv.header.GetUserInfo().GetEffectiveUser())
	require.IsType(t, &cipher.CryptoAES{}, r.layer)
	exchange(t, r.layer, r.srv.layer)
}

func TestPrivacyWithGSSWrapWhenAESOff(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, aes: true}, Config{AES: AESOff}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.NoError(t, r.srvErr)
	require.Empty(t, r.srv.header.GetRpcCryptoCipherTransformation())
	g, ok := r.layer.(*gssLayer)
	require.True(t, ok, "%T", r.layer)
	require.True(t, g.seal)
	exchange(t, r.layer, r.srv.layer)
	require.NotZero(t, r.srv.layer.(*acceptorGSS).lastFlag&flagSealed, "client must seal under privacy")
}

func TestIntegrity(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll}, Config{Protection: Integrity}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.NoError(t, r.srvErr)
	require.Equal(t, byte(layerIntegrity), r.srv.chosen)
	require.False(t, r.layer.(*gssLayer).seal)
	exchange(t, r.layer, r.srv.layer)
}

func TestAuthenticationOnly(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: layerNone}, Config{Protection: Authentication}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.NoError(t, r.srvErr)
	require.Nil(t, r.layer)
	require.Equal(t, "ClientService", r.srv.header.GetServiceName())
}

func TestStrongerOfferIsAccepted(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: layerPrivacy}, Config{Protection: Integrity, AES: AESOff}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.Equal(t, byte(layerPrivacy), r.srv.chosen)
}

func TestWeakerOfferIsRefused(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: layerNone | layerIntegrity}, Config{}, 5*time.Second, false)
	require.ErrorIs(t, r.err, ErrDowngrade)
	require.ErrorContains(t, r.err, "asked for auth-conf, server offers only auth, auth-int")
	require.Nil(t, r.layer)

	r = runHandshake(t, &fakeServer{offer: layerNone | layerIntegrity}, Config{AllowWeakerProtection: true}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.Equal(t, byte(layerIntegrity), r.srv.chosen)
}

func TestSwitchToSimpleIsRefused(t *testing.T) {
	for _, p := range []Protection{Authentication, Integrity, Privacy} {
		r := runHandshake(t, &fakeServer{switchToSimple: true}, Config{Protection: p}, 5*time.Second, false)
		require.ErrorIs(t, r.err, ErrDowngrade, p)
		require.ErrorContains(t, r.err, "SWITCH_TO_SIMPLE_AUTH")
		require.Nil(t, r.layer)
		require.Nil(t, r.srv.header, "no connection header may follow a refused downgrade")
	}
}

func TestSwitchToSimpleWithExplicitFallback(t *testing.T) {
	r := runHandshake(t, &fakeServer{switchToSimple: true}, Config{Protection: Authentication, AllowFallbackToSimple: true}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.NoError(t, r.srvErr)
	require.Nil(t, r.layer)
	require.Equal(t, "ClientService", r.srv.header.GetServiceName())
}

func TestServerErrorDuringSASL(t *testing.T) {
	r := runHandshake(t, &fakeServer{saslError: true}, Config{}, 5*time.Second, false)
	var se *ServerError
	require.ErrorAs(t, r.err, &se)
	require.Equal(t, "org.apache.hadoop.security.AccessControlException", se.Class)
	require.Equal(t, "Authentication is required", se.Message)
}

func TestMissingAESReply(t *testing.T) {
	start := time.Now()
	r := runHandshake(t, &fakeServer{offer: offerAll, aes: false}, Config{}, 400*time.Millisecond, true)
	require.ErrorIs(t, r.err, ErrDowngrade)
	require.ErrorContains(t, r.err, "no ConnectionHeaderResponse")
	require.Less(t, time.Since(start), 3*time.Second)

	r = runHandshake(t, &fakeServer{offer: offerAll, aes: false}, Config{AES: AESPreferred, AESWait: 100 * time.Millisecond}, 5*time.Second, true)
	require.NoError(t, r.err)
	require.IsType(t, &gssLayer{}, r.layer)
	exchange(t, r.layer, r.srv.layer)
}

func TestMutualAuthFailure(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, badAPRep: true}, Config{}, 5*time.Second, false)
	require.ErrorIs(t, r.err, ErrMutualAuth)
}

func TestAcceptorSubkey(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, subkey: true, aes: true}, Config{AES: AESOff}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.True(t, r.layer.(*gssLayer).acceptorSubkey)
	exchange(t, r.layer, r.srv.layer)
}

func TestUseNegotiatedCipher(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll, negotiateCipher: true}, Config{NegotiateCipher: true}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.NoError(t, r.srvErr)
	require.Equal(t, cipher.Transformation, r.srv.clientCipher)
	require.IsType(t, &cipher.CryptoAES{}, r.layer)
	require.Empty(t, r.srv.header.GetRpcCryptoCipherTransformation())
	exchange(t, r.layer, r.srv.layer)
}

func TestUseNegotiatedCipherRefusedByServer(t *testing.T) {
	r := runHandshake(t, &fakeServer{offer: offerAll}, Config{NegotiateCipher: true}, 400*time.Millisecond, true)
	require.Error(t, r.err)
}

func TestServicePrincipalPattern(t *testing.T) {
	srv := &fakeServer{offer: offerAll, aes: true}
	r := runHandshake(t, srv, Config{ServicePrincipal: "hbase/_HOST@EXAMPLE.COM"}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.Equal(t, "hbase/regionserver1.example.com", srv.kdc.spn)
}

func TestKerberosErrorsPassThrough(t *testing.T) {
	kdc := newFakeKDC()
	kdc.err = classifyKrbError(errors.New("KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great"))
	r := runHandshake(t, &fakeServer{kdc: kdc}, Config{}, 5*time.Second, false)
	require.ErrorIs(t, r.err, ErrClockSkew)
}

func TestHandshakeBoundedByContext(t *testing.T) {
	// The server accepts and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
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
	h, err := NewHandshaker(Config{})
	require.NoError(t, err)
	h.tickets = newFakeKDC()
	conn, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	dl, _ := ctx.Deadline()
	conn.SetDeadline(dl)
	start := time.Now()
	_, err = h.Handshake(ctx, conn, "localhost", &pb.ConnectionHeader{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), time.Second)
}

func TestClassifyKrbError(t *testing.T) {
	for text, want := range map[string]error{
		"KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database":                                     ErrPrincipalUnknown,
		"KRB Error: (24) KDC_ERR_PREAUTH_FAILED Pre-authentication information was invalid":                                    ErrBadCredentials,
		"Keytab_Error: matching key not found in keytab. Looking for \"x\"":                                                    ErrBadCredentials,
		"KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great":                                                                 ErrClockSkew,
		"Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: dial tcp 127.0.0.1:1: connect: connection refused": ErrKDCUnreachable,
		"KRB Error: (32) KRB_AP_ERR_TKT_EXPIRED Ticket expired":                                                                ErrTicketExpired,
		"cannot login, no user credentials available and no valid existing session":                                            ErrTicketExpired,
		"something else": ErrKerberos,
	} {
		require.ErrorIs(t, classifyKrbError(errors.New(text)), want, text)
	}
}

func TestSimpleWithoutCredentials(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
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
	h, err := NewHandshaker(Config{})
	require.NoError(t, err)
	conn, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	l, err := h.Handshake(context.Background(), conn, "h", &pb.ConnectionHeader{ServiceName: new("ClientService")})
	require.NoError(t, err)
	require.Nil(t, l)
	require.Equal(t, []byte("HBas\x00\x50"), (<-got)[:6])
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
	r := runHandshake(t, srv, Config{Logger: logger, AES: aes}, 5*time.Second, false)
	require.NoError(t, r.err)
	require.Contains(t, buf.String(), "handshake done")
	// Make the layer fail and log its error too.
	bad, err := r.srv.layer.Wrap(nil, []byte("x"))
	require.NoError(t, err)
	bad[0] ^= 1
	_, uerr := r.layer.Unwrap(nil, bad)
	require.Error(t, uerr)
	logger.Error("unwrap failed", "err", uerr, "layer", r.layer)
	out := buf.String() + uerr.Error() + fmt.Sprintf("%v %+v %#v", r.layer, r.layer, r.layer)
	for _, secret := range [][]byte{srv.kdc.key.KeyValue} {
		for _, enc := range []string{string(secret), hex.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret), fmt.Sprint(secret)} {
			require.NotContains(t, out, enc)
		}
	}
}

// A server rejecting the AP-REQ with a KRB-ERROR: each code its own error.
func TestServerKerberosErrors(t *testing.T) {
	for code, want := range map[int32]error{
		37: ErrClockSkew,      // KRB_AP_ERR_SKEW
		32: ErrTicketExpired,  // KRB_AP_ERR_TKT_EXPIRED
		31: ErrBadCredentials, // KRB_AP_ERR_BAD_INTEGRITY
		41: ErrBadCredentials, // KRB_AP_ERR_MODIFIED
		60: ErrKerberos,       // KRB_ERR_GENERIC
	} {
		r := runHandshake(t, &fakeServer{offer: offerAll, krbError: code}, Config{}, 5*time.Second, false)
		require.ErrorIs(t, r.err, want, "code %d", code)
	}
}

func TestServerErrorMapsKerberosCauses(t *testing.T) {
	err := error(&ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed [Caused by GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))]"})
	require.ErrorIs(t, err, ErrClockSkew)
	require.NotErrorIs(t, err, ErrTicketExpired)
	require.NotErrorIs(t, &ServerError{Message: "Authentication is required"}, ErrBadCredentials)
}
