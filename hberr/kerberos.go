package hberr

import "errors"

// Kerberos and SASL failures of a secured connection, each distinct so that callers and
// operators can tell them apart (package sasl, a lower layer, returns them; this is their one
// public home). The ones no retry mends (all but ErrKDCUnreachable and, in general,
// ErrKerberos) also make the calls waiting for the connection fail at once with
// ErrConfiguration.
var (
	// ErrDowngrade: the server offered less protection than the client asked for
	// (SWITCH_TO_SIMPLE_AUTH, a security-layer offer without the requested quality of
	// protection, or no AES reply when AES is required), and no option allowed it.
	ErrDowngrade = errors.New("sasl: server would downgrade the connection's protection")
	// ErrMutualAuth: the server's AP-REP does not prove that it holds the service key.
	ErrMutualAuth = errors.New("sasl: server failed mutual authentication")
	// ErrKDCUnreachable: no KDC of the realm answered.
	ErrKDCUnreachable = errors.New("sasl: kerberos: KDC unreachable")
	// ErrPrincipalUnknown: the KDC does not know the client or service principal.
	ErrPrincipalUnknown = errors.New("sasl: kerberos: principal unknown")
	// ErrBadCredentials: a wrong password or keytab (pre-authentication failed, or the keytab
	// has no key for the principal).
	ErrBadCredentials = errors.New("sasl: kerberos: bad credentials")
	// ErrClockSkew: the clocks of the client and the KDC or server differ too much.
	ErrClockSkew = errors.New("sasl: kerberos: clock skew too great")
	// ErrTicketExpired: the ticket (or credential cache) has expired and cannot be renewed:
	// run kinit again and make a new client.
	ErrTicketExpired = errors.New("sasl: kerberos: ticket expired")
	// ErrKerberos: any other Kerberos failure (a region server that rejects the client's
	// AP-REQ says only "GSS initiate failed"; the reason is in its log).
	ErrKerberos = errors.New("sasl: kerberos error")
)
