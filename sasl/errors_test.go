package sasl

import (
	"errors"
	"github.com/go-hbase/hbase/hberr"
	"strings"
	"testing"
	"time"
)

// kerberosSentinels are the Kerberos errors that must stay distinct from each other.
var kerberosSentinels = []error{hberr.ErrKDCUnreachable, hberr.ErrPrincipalUnknown, hberr.ErrBadCredentials, hberr.ErrClockSkew, hberr.ErrTicketExpired, hberr.ErrKerberos}

// requireOnlySentinel checks that err is want and none of the other Kerberos sentinels.
func requireOnlySentinel(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v; want %v", err, want)
	}
	for _, other := range kerberosSentinels {
		if other != want {
			if errors.Is(err, other) {
				t.Fatalf("%v is also %v", err, other)
			}
		}
	}
}

// HBase 2.6 answers a rejected AP-REQ with only "GSS initiate failed"; the client must call it
// a Kerberos failure and say where the reason is.
func TestGSSInitiateFailedIsKerberos(t *testing.T) {
	bare := &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed"}
	requireOnlySentinel(t, bare, hberr.ErrKerberos)
	for _, want := range []string{"GSS initiate failed", "rejected the client's Kerberos AP-REQ", "clock skew",
		"expired or unknown service ticket", "key mismatch", "region server's log"} {
		if !strings.Contains(bare.Error(), want) {
			t.Fatalf("bare.Error() = %q; want it to contain %q", bare.Error(), want)
		}
	}

	// Over the wire, from a server that rejects the AP-REQ like HBase.
	r := runHandshake(t, &fakeServer{saslError: true, saslErrorAs: bare}, nil, 5*time.Second, false)
	requireOnlySentinel(t, r.err, hberr.ErrKerberos)
	var se *ServerError
	if !errors.As(r.err, &se) {
		t.Fatalf("error %v (%T); want one as %T", r.err, r.err, &se)
	}
	if se.Class != "javax.security.sasl.SaslException" {
		t.Fatalf("se.Class = %q; want %q", se.Class, "javax.security.sasl.SaslException")
	}
	if !strings.Contains(r.err.Error(), "region server's log") {
		t.Fatalf("r.err.Error() = %q; want it to contain %q", r.err.Error(), "region server's log")
	}

	// A message that names its cause keeps that cause's sentinel only, and needs no hint.
	skew := &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed [Caused by GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))]"}
	requireOnlySentinel(t, skew, hberr.ErrClockSkew)
	if strings.Contains(skew.Error(), "region server's log") {
		t.Fatalf("skew.Error() = %q; want it not to contain %q", skew.Error(), "region server's log")
	}
	requireOnlySentinel(t, &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed (Ticket expired (32))"}, hberr.ErrTicketExpired)
	requireOnlySentinel(t, &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed: Integrity check on decrypted field failed (31)"}, hberr.ErrBadCredentials)
	requireOnlySentinel(t, &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed: Server not found in Kerberos database (7)"}, hberr.ErrPrincipalUnknown)

	// Other server errors are no Kerberos error at all.
	other := &ServerError{Class: "org.apache.hadoop.security.AccessControlException", Message: "Authentication is required"}
	for _, s := range kerberosSentinels {
		if errors.Is(other, s) {
			t.Fatalf("%v is %v", other, s)
		}
	}
	if strings.Contains(other.Error(), "AP-REQ") {
		t.Fatalf("other.Error() = %q; want it not to contain %q", other.Error(), "AP-REQ")
	}
}
