package sasl

import (
	"errors"
	"github.com/go-hbase/hbase/hberr"
	"strings"
)

// Permanent reports whether err is a failure of the security handshake that no retry can
// mend, so that a client fails its calls at once instead of retrying until their deadlines:
// a principal the KDC does not know (client or service: hberr.ErrPrincipalUnknown), a wrong
// password or keytab (hberr.ErrBadCredentials), clocks too far apart (hberr.ErrClockSkew), a server that
// offers less protection than required (hberr.ErrDowngrade) or cannot prove its identity
// (hberr.ErrMutualAuth), an expired credential cache (kinit must run again), and the KDC's other
// final refusals (a revoked or expired principal, an expired password, no common encryption
// type, a policy...). An unreachable KDC, an expired ticket that a keytab or password renews,
// and a server's bare "GSS initiate failed" (whose cause the server does not tell) are not
// permanent.
func Permanent(err error) bool {
	for _, kind := range []error{hberr.ErrPrincipalUnknown, hberr.ErrBadCredentials, hberr.ErrClockSkew, hberr.ErrDowngrade,
		hberr.ErrMutualAuth, errCCacheExpired} {
		if errors.Is(err, kind) {
			return true
		}
	}
	if !errors.Is(err, hberr.ErrKerberos) || errors.Is(err, hberr.ErrKDCUnreachable) {
		return false
	}
	s := err.Error()
	for _, final := range finalKerberosErrors {
		if strings.Contains(s, final) {
			return true
		}
	}
	return false
}

// finalKerberosErrors are the names (RFC 4120 error codes, as gokrb5 prints them) and gokrb5
// error kinds of the Kerberos failures that stay until an administrator or the configuration
// changes something.
var finalKerberosErrors = []string{
	"KDC_ERR_NAME_EXP",             // 1: the client's entry has expired
	"KDC_ERR_SERVICE_EXP",          // 2: the server's entry has expired
	"KDC_ERR_BAD_PVNO",             // 3
	"KDC_ERR_C_OLD_MAST_KVNO",      // 4
	"KDC_ERR_S_OLD_MAST_KVNO",      // 5
	"KDC_ERR_PRINCIPAL_NOT_UNIQUE", // 8
	"KDC_ERR_NULL_KEY",             // 9
	"KDC_ERR_NEVER_VALID",          // 11
	"KDC_ERR_POLICY",               // 12
	"KDC_ERR_ETYPE_NOSUPP",         // 14
	"KDC_ERR_SUMTYPE_NOSUPP",       // 15
	"KDC_ERR_PADATA_TYPE_NOSUPP",   // 16
	"KDC_ERR_CLIENT_REVOKED",       // 18
	"KDC_ERR_SERVICE_REVOKED",      // 20
	"KDC_ERR_KEY_EXPIRED",          // 23: the password has expired
	"KRB_AP_ERR_BADKEYVER",         // 44: the server's keytab is of another key version
	"KRB_AP_ERR_NOKEY",             // 45
	"KDC_ERR_WRONG_REALM",          // 68
	"Configuration_Error",          // gokrb5: krb5.conf names no KDC for the realm...
	"Encrypting_Error",             // gokrb5: no key of a usable encryption type
}
