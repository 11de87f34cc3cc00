package sasl

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/asn1tools"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/internal/pb"
)

// fakeKDC hands out a made-up service ticket whose session key the fake server knows; the
// fake server never needs to decrypt the ticket itself.
type fakeKDC struct {
	key types.EncryptionKey
	err error
	spn string // last SPN asked for
}

func newFakeKDC() *fakeKDC {
	k := make([]byte, 16)
	rand.Read(k)
	return &fakeKDC{key: types.EncryptionKey{KeyType: 17, KeyValue: k}}
}

func (f *fakeKDC) serviceTicket(_ context.Context, spn string) (serviceTicket, error) {
	f.spn = spn
	if f.err != nil {
		return serviceTicket{}, f.err
	}
	junk := make([]byte, 64)
	rand.Read(junk)
	return serviceTicket{
		ticket: messages.Ticket{
			TktVNO: 5, Realm: "EXAMPLE.COM",
			SName:   types.NewPrincipalName(nametype.KRB_NT_SRV_INST, spn),
			EncPart: types.EncryptedData{EType: 17, KVNO: 1, Cipher: junk},
		},
		sessionKey: f.key,
		realm:      "EXAMPLE.COM",
		cname:      types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "client"),
	}, nil
}

// fakeServer is an in-process HBase region server's connection setup: GSSAPI acceptor,
// RFC 4752 offer, connection header, optional AES or -89 keys. What it does is steered by
// its fields; everything it saw is recorded for the test.
type fakeServer struct {
	kdc *fakeKDC

	offer          byte // security-layer bits offered
	switchToSimple bool
	saslError      bool
	// saslErrorAs, when set with saslError, is the exception sent instead of the default.
	saslErrorAs     *ServerError
	aes             bool // answer a header asking for AES
	negotiateCipher bool // answer -89 with keys
	subkey          bool // put an acceptor subkey in the AP-REP
	badAPRep        bool // AP-REP encrypted with a wrong key
	apRepSeq        int64
	krbError        int32 // answer the AP-REQ with this KRB-ERROR code instead of an AP-REP
	// after, when set, runs on the connection once the handshake is done (before it closes).
	after func(conn net.Conn, l serverLayer) error

	// results
	header       *pb.ConnectionHeader
	chosen       byte
	clientCipher string
	layer        serverLayer
}

// serverLayer is the acceptor's side of the data layer, for echo tests.
type serverLayer interface {
	Wrap(dst, plain []byte) ([]byte, error)
	Unwrap(dst, tok []byte) ([]byte, error)
}

// acceptorGSS is the acceptor's view of a gssLayer: it wraps with acceptor flags and usage.
type acceptorGSS struct {
	key      wrapKey
	subkey   bool
	seal     bool
	sendSeq  uint64
	recvSeq  uint64
	lastFlag byte
}

func (a *acceptorGSS) flags() byte {
	f := byte(flagSentByAcceptor)
	if a.subkey {
		f |= flagAcceptorSubkey
	}
	return f
}

func (a *acceptorGSS) wrapWith(dst, plain []byte, seal bool) ([]byte, error) {
	out, err := a.key.appendWrap(dst, wrapHeader{flags: a.flags(), seq: a.sendSeq}, seal, usageAcceptorSeal, plain)
	a.sendSeq++
	return out, err
}

func (a *acceptorGSS) Wrap(dst, plain []byte) ([]byte, error) { return a.wrapWith(dst, plain, a.seal) }

func (a *acceptorGSS) Unwrap(dst, tok []byte) ([]byte, error) {
	out, h, err := a.key.openWrap(dst, tok, usageInitiatorSeal)
	if err != nil {
		return dst, err
	}
	if h.flags&flagSentByAcceptor != 0 {
		return dst, fmt.Errorf("fake: token claims to come from the acceptor")
	}
	if a.seal && h.flags&flagSealed == 0 {
		return dst, fmt.Errorf("fake: Privacy not protected")
	}
	if h.seq != a.recvSeq {
		return dst, fmt.Errorf("fake: client seq %d, want %d", h.seq, a.recvSeq)
	}
	a.lastFlag = h.flags
	a.recvSeq++
	return out, nil
}

func readClientToken(r io.Reader) ([]byte, error) {
	var lb [4]byte
	if _, err := io.ReadFull(r, lb[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(lb[:]))
	if n < 0 || n > 1<<20 {
		return nil, fmt.Errorf("fake: client token length %d", n)
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return b, err
}

// readFirstToken reads the first client message, in the -89 layout when it starts with
// USE_NEGOTIATED_CIPHER.
func (s *fakeServer) readFirstToken(r io.Reader) ([]byte, error) {
	n, err := readInt32(r)
	if err != nil {
		return nil, err
	}
	if n == useNegotiatedCipher {
		if s.clientCipher, err = readString(r, 1<<10); err != nil {
			return nil, err
		}
		if n, err = readInt32(r); err != nil {
			return nil, err
		}
	}
	if n < 0 || n > 1<<20 {
		return nil, fmt.Errorf("fake: first token length %d", n)
	}
	return readN(r, int(n), 1<<20)
}

func writeSuccess(w io.Writer, tok []byte) error {
	b := binary.BigEndian.AppendUint32(nil, statusSuccess)
	_, err := w.Write(appendToken(b, tok))
	return err
}

// serve runs the server side of one connection.
func (s *fakeServer) serve(conn net.Conn) error {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	pre := make([]byte, 6)
	if _, err := io.ReadFull(conn, pre); err != nil {
		return err
	}
	if !bytes.Equal(pre[:5], []byte("HBas\x00")) || pre[5] != authKerberos {
		return fmt.Errorf("fake: preamble %x", pre)
	}
	first, err := s.readFirstToken(conn)
	if err != nil {
		return err
	}
	if bytes.Equal(first, []byte{}) {
		return fmt.Errorf("fake: empty first token")
	}
	if s.saslError {
		b := binary.BigEndian.AppendUint32(nil, statusError)
		class, msg := "org.apache.hadoop.security.AccessControlException", "Authentication is required"
		if s.saslErrorAs != nil {
			class, msg = s.saslErrorAs.Class, s.saslErrorAs.Message
		}
		b = appendString(b, class)
		b = appendString(b, msg)
		conn.Write(b)
		return nil
	}
	if s.switchToSimple {
		conn.Write([]byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xa8})
		hdr, err := readClientToken(conn)
		if err != nil {
			return err
		}
		s.header = &pb.ConnectionHeader{}
		return proto.Unmarshal(hdr, s.header)
	}
	apReq, err := s.parseAPReq(conn, first)
	if err != nil {
		return err
	}
	if s.krbError != 0 {
		ke := messages.NewKRBError(types.NewPrincipalName(nametype.KRB_NT_SRV_INST, "hbase/localhost"), "EXAMPLE.COM", s.krbError, "fake")
		b, err := ke.Marshal()
		if err != nil {
			return err
		}
		oid, _ := asn1.Marshal(gssapi.OIDKRB5.OID())
		tok := append(append(oid, tokIDKRBError...), b...)
		return writeSuccess(conn, asn1tools.AddASNAppTag(tok, 0))
	}
	if err := apReq.DecryptAuthenticator(s.kdc.key); err != nil {
		return fmt.Errorf("fake: authenticator: %w", err)
	}
	auth := apReq.Authenticator
	key := s.kdc.key
	part := messages.EncAPRepPart{CTime: auth.CTime, Cusec: auth.Cusec, SequenceNumber: s.apRepSeq}
	if s.subkey {
		sk := make([]byte, 16)
		rand.Read(sk)
		part.Subkey = types.EncryptionKey{KeyType: 17, KeyValue: sk}
		key = part.Subkey
	}
	apRep, err := s.apRepToken(part)
	if err != nil {
		return err
	}
	if err := writeSuccess(conn, apRep); err != nil {
		return err
	}
	if empty, err := readClientToken(conn); err != nil || len(empty) != 0 {
		return fmt.Errorf("fake: expected empty token, got %d bytes, %v", len(empty), err)
	}
	wk, err := newWrapKey(key)
	if err != nil {
		return err
	}
	acc := &acceptorGSS{key: wk, subkey: s.subkey, sendSeq: uint64(s.apRepSeq), recvSeq: uint64(auth.SeqNumber)}
	offer, err := acc.wrapWith(nil, []byte{s.offer, 0x01, 0x00, 0x00}, false)
	if err != nil {
		return err
	}
	if err := writeSuccess(conn, offer); err != nil {
		return err
	}
	tok, err := readClientToken(conn)
	if err != nil {
		return err
	}
	choice, err := acc.Unwrap(nil, tok)
	if err != nil {
		return err
	}
	if len(choice) != 4 {
		return fmt.Errorf("fake: choice of %d bytes", len(choice))
	}
	s.chosen = choice[0]
	if s.chosen&s.offer == 0 {
		return fmt.Errorf("fake: client chose %#x, not offered", s.chosen)
	}
	if s.chosen == layerNone {
		hdr, err := readClientToken(conn)
		if err != nil {
			return err
		}
		s.header = &pb.ConnectionHeader{}
		return proto.Unmarshal(hdr, s.header)
	}
	acc.seal = s.chosen == layerPrivacy
	var layer serverLayer = acc
	if s.negotiateCipher {
		keys := randomKeys()
		p := appendString(nil, cipher.Transformation)
		for _, b := range [][]byte{keys.InKey, keys.OutKey, keys.InIV, keys.OutIV} {
			p = appendToken(p, b)
		}
		wrapped, err := acc.Wrap(nil, p)
		if err != nil {
			return err
		}
		msg := binary.BigEndian.AppendUint32(nil, statusSuccess)
		msg = binary.BigEndian.AppendUint32(msg, negotiatedCipherWord)
		if _, err := conn.Write(appendToken(msg, wrapped)); err != nil {
			return err
		}
		if layer, err = cipher.New(cipher.Transformation, keys.Swapped()); err != nil {
			return err
		}
	}
	if err := s.readHeader(conn, layer); err != nil {
		return err
	}
	if s.aes && !s.negotiateCipher && s.header.GetRpcCryptoCipherTransformation() != "" && acc.seal {
		keys := randomKeys()
		resp, _ := proto.Marshal(&pb.ConnectionHeaderResponse{CryptoCipherMeta: &pb.CryptoCipherMeta{
			Transformation: proto.String(s.header.GetRpcCryptoCipherTransformation()),
			InKey:          keys.InKey, InIv: keys.InIV, OutKey: keys.OutKey, OutIv: keys.OutIV,
		}})
		plain := binary.BigEndian.AppendUint32(nil, uint32(len(resp)))
		wrapped, err := acc.Wrap(nil, append(plain, resp...))
		if err != nil {
			return err
		}
		if _, err := conn.Write(appendToken(nil, wrapped)); err != nil {
			return err
		}
		if layer, err = cipher.New(cipher.Transformation, keys.Swapped()); err != nil {
			return err
		}
	}
	s.layer = layer
	if s.after != nil {
		return s.after(conn, layer)
	}
	return nil
}

func (s *fakeServer) parseAPReq(conn net.Conn, first []byte) (*messages.APReq, error) {
	tok := first
	var oid asn1.ObjectIdentifier
	rest, err := asn1.UnmarshalWithParams(tok, &oid, "application,explicit,tag:0")
	if err != nil {
		return nil, fmt.Errorf("fake: GSS token: %w", err)
	}
	if !oid.Equal(gssapi.OIDKRB5.OID()) || !bytes.Equal(rest[:2], tokIDAPReq) {
		return nil, fmt.Errorf("fake: not a Kerberos AP-REQ token")
	}
	var req messages.APReq
	if err := req.Unmarshal(rest[2:]); err != nil {
		return nil, err
	}
	return &req, nil
}

func (s *fakeServer) apRepToken(part messages.EncAPRepPart) ([]byte, error) {
	b, err := asn1.Marshal(part)
	if err != nil {
		return nil, err
	}
	b = asn1tools.AddASNAppTag(b, 27)
	key := s.kdc.key
	if s.badAPRep {
		key = types.EncryptionKey{KeyType: 17, KeyValue: make([]byte, 16)}
	}
	ed, err := crypto.GetEncryptedData(b, key, keyusage.AP_REP_ENCPART, 0)
	if err != nil {
		return nil, err
	}
	rep := messages.APRep{PVNO: 5, MsgType: 15, EncPart: ed}
	body, err := asn1.Marshal(rep)
	if err != nil {
		return nil, err
	}
	body = asn1tools.AddASNAppTag(body, 15)
	oid, _ := asn1.Marshal(gssapi.OIDKRB5.OID())
	tok := append(oid, tokIDAPRep...)
	return asn1tools.AddASNAppTag(append(tok, body...), 0), nil
}

func (s *fakeServer) readHeader(conn net.Conn, l serverLayer) error {
	tok, err := readClientToken(conn)
	if err != nil {
		return err
	}
	plain, err := l.Unwrap(nil, tok)
	if err != nil {
		return fmt.Errorf("fake: header: %w", err)
	}
	if len(plain) < 4 || int(binary.BigEndian.Uint32(plain)) != len(plain)-4 {
		return fmt.Errorf("fake: header length prefix")
	}
	s.header = &pb.ConnectionHeader{}
	return proto.Unmarshal(plain[4:], s.header)
}

func randomKeys() cipher.Keys {
	k := cipher.Keys{InKey: make([]byte, 16), InIV: make([]byte, 16), OutKey: make([]byte, 16), OutIV: make([]byte, 16)}
	for _, b := range [][]byte{k.InKey, k.InIV, k.OutKey, k.OutIV} {
		rand.Read(b)
	}
	return k
}
