package sasl

import (
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"strings"
)

var (
	// ErrProtocol is returned for a malformed or unexpected message from the server.
	ErrProtocol = errors.New("sasl: protocol error")
	// ErrTokenTooLarge is returned for a server message longer than the reader's limit.
	ErrTokenTooLarge = errors.New("sasl: server token too large")

	// ErrIntegrity is returned when a Wrap token's checksum or encryption does not verify.
	ErrIntegrity = errors.New("sasl: wrap token integrity check failed")
	// ErrSequence is returned for a Wrap token with an unexpected sequence number (replayed,
	// dropped or reordered).
	ErrSequence = errors.New("sasl: wrap token sequence number out of order")
	// ErrBadToken is returned for a Wrap token that is malformed or truncated.
	ErrBadToken = errors.New("sasl: malformed wrap token")
	// ErrLayerFailed is returned by every Unwrap after one failed.
	ErrLayerFailed = errors.New("sasl: security layer failed earlier")
)

// The failures a user tells apart (a downgrade, mutual authentication, and the Kerberos
// failures: hberr.ErrDowngrade, hberr.ErrPrincipalUnknown...) are hberr's sentinels, their one
// public home; this package wraps them.

// ServerError is an error the server sent during the SASL exchange (status ERROR): the Java
// exception class and its message.
type ServerError struct {
	Class   string
	Message string
}

// gssInitiateFailed is all HBase (2.6) tells a client whose AP-REQ its GSS acceptor rejected:
// the Kerberos reason goes only to the server's log.
const gssInitiateFailed = "GSS initiate failed"

// gssRejectedHint explains a bare gssInitiateFailed, which on its own does not tell an
// operator where to look.
const gssRejectedHint = "the server rejected the client's Kerberos AP-REQ (for example clock skew between client " +
	"and server, an expired or unknown service ticket, or a key mismatch between the KDC and the server's keytab); " +
	"the exact reason is in the region server's log"

func (e *ServerError) Error() string {
	if e.gssRejected() {
		return fmt.Sprintf("sasl: server error %s: %s: %s", e.Class, e.Message, gssRejectedHint)
	}
	return fmt.Sprintf("sasl: server error %s: %s", e.Class, e.Message)
}

// gssRejected reports a GSS acceptor failure whose message names no Kerberos cause that one of
// the specific sentinels matches.
func (e *ServerError) gssRejected() bool {
	return strings.HasSuffix(e.Class, "SaslException") && strings.HasPrefix(e.Message, gssInitiateFailed) &&
		e.kerberosCause() == nil
}

// Is lets errors.Is match a server's SASL failure to the Kerberos sentinels. Java's GSS
// acceptor may report the Kerberos error in the SaslException's message; HBase 2.6 sends only
// "GSS initiate failed", which is hberr.ErrKerberos: a Kerberos failure whose cause the client
// cannot see. The sentinels stay distinct: a message naming a cause matches that cause's
// sentinel, not hberr.ErrKerberos.
func (e *ServerError) Is(target error) bool {
	if cause := e.kerberosCause(); cause != nil {
		return target == cause
	}
	return target == hberr.ErrKerberos && e.gssRejected()
}

// kerberosCause returns the specific sentinel the message names, or nil.
func (e *ServerError) kerberosCause() error {
	for _, c := range serverCauses {
		for _, k := range c.keys {
			if strings.Contains(e.Message, k) {
				return c.err
			}
		}
	}
	return nil
}

// serverCauses are the texts (and error numbers) of Java's Kerberos exceptions, in the order
// they are tried.
var serverCauses = []struct {
	err  error
	keys []string
}{
	{hberr.ErrClockSkew, []string{"Clock skew too great", "(37)"}},
	{hberr.ErrTicketExpired, []string{"Ticket expired", "(32)"}},
	{hberr.ErrBadCredentials, []string{"Integrity check on decrypted field failed", "(31)", "Message stream modified", "(41)"}},
	{hberr.ErrPrincipalUnknown, []string{"not found in Kerberos database", "(7)"}},
}
