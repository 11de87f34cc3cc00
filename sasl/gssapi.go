package sasl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/go-hbase/hbase/hberr"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/asn1tools"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/chksumtype"
	"github.com/jcmturner/gokrb5/v8/iana/errorcode"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// RFC 1964 / RFC 4121 inner token IDs of the initial context tokens.
var (
	tokIDAPReq    = []byte{0x01, 0x00}
	tokIDAPRep    = []byte{0x02, 0x00}
	tokIDKRBError = []byte{0x03, 0x00}
)

// serviceTicket is what the initiator needs from the credentials: a ticket for the HBase
// service, its session key and the client's name.
type serviceTicket struct {
	ticket     messages.Ticket
	sessionKey types.EncryptionKey
	realm      string
	cname      types.PrincipalName
}

// principal is the client's full name, "user@REALM".
func (st serviceTicket) principal() string {
	return st.cname.PrincipalNameString() + "@" + st.realm
}

// initiator is the client side of one GSSAPI security context.
type initiator struct {
	st   serviceTicket
	auth types.Authenticator
}

// apReqToken builds the initial context token: AP-REQ with mutual authentication and an
// authenticator whose sequence number we keep (gokrb5's helper hides it).
func (in *initiator) apReqToken() ([]byte, error) {
	auth, err := types.NewAuthenticator(in.st.realm, in.st.cname)
	if err != nil {
		return nil, fmt.Errorf("%w: authenticator: %v", hberr.ErrKerberos, err)
	}
	// RFC 4121 section 4.1.1 checksum: Lgth 16, zero channel bindings, context flags.
	cksum := make([]byte, 24)
	binary.LittleEndian.PutUint32(cksum[0:4], 16)
	binary.LittleEndian.PutUint32(cksum[20:24], uint32(gssapi.ContextFlagMutual|gssapi.ContextFlagReplay|
		gssapi.ContextFlagSequence|gssapi.ContextFlagConf|gssapi.ContextFlagInteg))
	auth.Cksum = types.Checksum{CksumType: chksumtype.GSSAPI, Checksum: cksum}
	in.auth = auth
	req, err := messages.NewAPReq(in.st.ticket, in.st.sessionKey, auth)
	if err != nil {
		return nil, fmt.Errorf("%w: AP-REQ: %v", hberr.ErrKerberos, err)
	}
	types.SetFlag(&req.APOptions, flags.APOptionMutualRequired)
	body, err := req.Marshal()
	if err != nil {
		return nil, fmt.Errorf("%w: marshal AP-REQ: %v", hberr.ErrKerberos, err)
	}
	oid, err := asn1.Marshal(gssapi.OIDKRB5.OID())
	if err != nil {
		return nil, fmt.Errorf("%w: marshal mechanism OID: %v", hberr.ErrKerberos, err)
	}
	tok := make([]byte, 0, len(oid)+2+len(body))
	tok = append(tok, oid...)
	tok = append(tok, tokIDAPReq...)
	tok = append(tok, body...)
	return asn1tools.AddASNAppTag(tok, 0), nil
}

// acceptAPRep checks the acceptor's AP-REP (mutual authentication) and returns the security
// context's layer (sequence numbers and key set up, not yet sealing).
func (in *initiator) acceptAPRep(tok []byte) (*gssLayer, error) {
	var oid asn1.ObjectIdentifier
	rest, err := asn1.UnmarshalWithParams(tok, &oid, "application,explicit,tag:0")
	if err != nil {
		return nil, fmt.Errorf("%w: AP-REP token: %v", hberr.ErrMutualAuth, err)
	}
	if !oid.Equal(gssapi.OIDKRB5.OID()) {
		return nil, fmt.Errorf("%w: AP-REP token mechanism %s, want Kerberos", hberr.ErrMutualAuth, oid)
	}
	if len(rest) < 2 {
		return nil, fmt.Errorf("%w: AP-REP token truncated", hberr.ErrMutualAuth)
	}
	id, body := rest[:2], rest[2:]
	switch {
	case bytes.Equal(id, tokIDKRBError):
		var ke messages.KRBError
		if err := ke.Unmarshal(body); err != nil {
			return nil, fmt.Errorf("%w: KRB-ERROR from server: %v", hberr.ErrKerberos, err)
		}
		return nil, krbErrorFromCode(ke.ErrorCode, "server rejected the AP-REQ")
	case !bytes.Equal(id, tokIDAPRep):
		return nil, fmt.Errorf("%w: token ID %x, want AP-REP", hberr.ErrMutualAuth, id)
	}
	var rep messages.APRep
	if err := rep.Unmarshal(body); err != nil {
		return nil, fmt.Errorf("%w: AP-REP: %v", hberr.ErrMutualAuth, err)
	}
	plain, err := crypto.DecryptEncPart(rep.EncPart, in.st.sessionKey, keyusage.AP_REP_ENCPART)
	if err != nil {
		return nil, fmt.Errorf("%w: AP-REP does not decrypt with the session key", hberr.ErrMutualAuth)
	}
	var part messages.EncAPRepPart
	if err := part.Unmarshal(plain); err != nil {
		return nil, fmt.Errorf("%w: AP-REP encrypted part: %v", hberr.ErrMutualAuth, err)
	}
	if part.CTime.Unix() != in.auth.CTime.Unix() || part.Cusec != in.auth.Cusec {
		return nil, fmt.Errorf("%w: AP-REP time does not echo our authenticator", hberr.ErrMutualAuth)
	}
	key := in.st.sessionKey
	subkey := part.Subkey.KeyType != 0 && len(part.Subkey.KeyValue) > 0
	if subkey {
		key = part.Subkey
	}
	wk, err := newWrapKey(key)
	if err != nil {
		return nil, err
	}
	return &gssLayer{
		key:            wk,
		acceptorSubkey: subkey,
		sendSeq:        uint64(in.auth.SeqNumber),
		recvSeq:        uint64(part.SequenceNumber),
	}, nil
}

// krbErrorFromCode maps a Kerberos error code to one of the package's sentinels.
func krbErrorFromCode(code int32, what string) error {
	var kind error
	switch code {
	case errorcode.KRB_AP_ERR_SKEW:
		kind = hberr.ErrClockSkew
	case errorcode.KDC_ERR_C_PRINCIPAL_UNKNOWN, errorcode.KDC_ERR_S_PRINCIPAL_UNKNOWN:
		kind = hberr.ErrPrincipalUnknown
	case errorcode.KDC_ERR_PREAUTH_FAILED, errorcode.KRB_AP_ERR_BAD_INTEGRITY, errorcode.KRB_AP_ERR_MODIFIED:
		kind = hberr.ErrBadCredentials
	case errorcode.KRB_AP_ERR_TKT_EXPIRED:
		kind = hberr.ErrTicketExpired
	default:
		kind = hberr.ErrKerberos
	}
	return fmt.Errorf("%w: %s: %s", kind, what, errorcode.Lookup(code))
}
