package sasl

import (
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"testing"
)

// Permanent tells the Kerberos failures no retry mends from those a later try may get past,
// on the errors the package builds from gokrb5's texts and the server's answers.
func TestPermanent(t *testing.T) {
	creds := &Credentials{ccache: "/tmp/krb5cc", principal: "u@R"}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{classifyKrbError(errors.New("KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database")), true},
		{classifyKrbError(errors.New("KRB Error: (7) KDC_ERR_S_PRINCIPAL_UNKNOWN Server not found in Kerberos database")), true},
		{classifyKrbError(errors.New("KRB Error: (24) KDC_ERR_PREAUTH_FAILED Pre-authentication information was invalid")), true},
		{classifyKrbError(errors.New("Decrypting_Error: error decrypting: matching key not found in keytab")), true},
		{classifyKrbError(errors.New("KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great")), true},
		{classifyKrbError(errors.New("KRB Error: (18) KDC_ERR_CLIENT_REVOKED Clients credentials have been revoked")), true},
		{classifyKrbError(errors.New("KRB Error: (23) KDC_ERR_KEY_EXPIRED Password has expired - change password to reset")), true},
		{classifyKrbError(errors.New("KRB Error: (14) KDC_ERR_ETYPE_NOSUPP KDC has no support for encryption type")), true},
		{classifyKrbError(errors.New("[Root cause: Configuration_Error] Configuration_Error: no KDCs defined in configuration for realm R")), true},
		{fmt.Errorf("%w: AP-REP does not decrypt with the session key", hberr.ErrMutualAuth), true},
		{fmt.Errorf("%w: asked for privacy, server offers only authentication", hberr.ErrDowngrade), true},
		{creds.ccacheExpired(classifyKrbError(errors.New("KRB Error: (32) KRB_AP_ERR_TKT_EXPIRED Ticket expired"))), true},

		{classifyKrbError(errors.New("KRB Error: (32) KRB_AP_ERR_TKT_EXPIRED Ticket expired")), false},
		{classifyKrbError(errors.New("Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: dial tcp 127.0.0.1:1: connect: connection refused")), false},
		{classifyKrbError(errors.New("KRB Error: (29) KDC_ERR_SVC_UNAVAILABLE A service is not available")), false},
		{&ServerError{Class: "javax.security.sasl.SaslException", Message: "GSS initiate failed"}, false},
		{errors.New("EOF"), false},
		{nil, false},
	} {
		if got := Permanent(tc.err); got != tc.want {
			t.Errorf("Permanent(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}

// The KDC's answer is printed without gokrb5's wrapping and repeated text.
func TestKDCErrorText(t *testing.T) {
	gokrb5 := "could not get valid TGT for client's realm: [Root cause: KDC_Error] KDC_Error: AS Exchange Error: " +
		"kerberos error response from KDC: KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database - " +
		"Client not found in Kerberos database"
	err := classifyKrbError(fmt.Errorf("login as nobody@EXAMPLE.COM: %w", errors.New(gokrb5)))
	want := "sasl: kerberos: principal unknown: login as nobody@EXAMPLE.COM: could not get valid TGT for client's realm: " +
		"(6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database"
	if err.Error() != want || !errors.Is(err, hberr.ErrPrincipalUnknown) {
		t.Errorf("error = %q; want %q", err, want)
	}
	other := classifyKrbError(errors.New("Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: dial tcp 127.0.0.1:1: connect: connection refused"))
	if want := "sasl: kerberos: KDC unreachable: Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: dial tcp 127.0.0.1:1: connect: connection refused"; other.Error() != want {
		t.Errorf("error = %q; want %q", other, want)
	}
}
