package sasl

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// kerberosSentinels are the Kerberos errors that must stay distinct from each other.
var kerberosSentinels = []error{ErrKDCUnreachable, ErrPrincipalUnknown, ErrBadCredentials, ErrClockSkew, ErrTicketExpired, ErrKerberos}

// requireOnlySentinel checks that err is want and none of the other Kerberos sentinels.
func requireOnlySentinel(t *testing.T, err, want error) {
	t.Helper()
	require.ErrorIs(t, err, want)
	for _, other := range kerberosSentinels {
		if other != want {
			require.False(t, errors.Is(err, other), "%v is also %v", err, other)
		}
	}
}

// HBase 2.6 answers a rejected AP-REQ with only "GSS initiate failed"; the client must call it
// a Kerberos failure and say where the reason is.
func TestGSSInitiateFailedIsKerberos(t *testing.T) {
	bare := &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed"}
	requireOnlySentinel(t, bare, ErrKerberos)
	for _, want := range []string{"GSS initiate failed", "rejected the client's Kerberos AP-REQ", "clock skew",
		"expired or unknown service ticket", "key mismatch", "region server's log"} {
		require.Contains(t, bare.Error(), want)
	}

	// Over the wire, from a server that rejects the AP-REQ like HBase.
	r := runHandshake(t, &fakeServer{saslError: true, saslErrorAs: bare}, Config{}, 5*time.Second, false)
	requireOnlySentinel(t, r.err, ErrKerberos)
	var se *ServerError
	require.ErrorAs(t, r.err, &se)
	require.Equal(t, "javax.security.sasl.SaslException", se.Class)
	require.Contains(t, r.err.Error(), "region server's log")

	// A message that names its cause keeps that cause's sentinel only, and needs no hint.
	skew := &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed [Caused by GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))]"}
	requireOnlySentinel(t, skew, ErrClockSkew)
	require.NotContains(t, skew.Error(), "region server's log")
	requireOnlySentinel(t, &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed (Ticket expired (32))"}, ErrTicketExpired)
	requireOnlySentinel(t, &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed: Integrity check on decrypted field failed (31)"}, ErrBadCredentials)
	requireOnlySentinel(t, &ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed: Server not found in Kerberos database (7)"}, ErrPrincipalUnknown)

	// Other server errors are no Kerberos error at all.
	other := &ServerError{Class: "org.apache.hadoop.security.AccessControlException", Message: "Authentication is required"}
	for _, s := range kerberosSentinels {
		require.False(t, errors.Is(other, s), "%v is %v", other, s)
	}
	require.NotContains(t, other.Error(), "AP-REQ")
}
