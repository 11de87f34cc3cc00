package sasl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

// AESMode says whether to switch to CryptoAES after a privacy handshake.
type AESMode uint8

const (
	// AESRequired (the zero value) asks for AES under privacy and fails the connection when
	// the server does not answer with keys within WithAESWait.
	AESRequired AESMode = iota
	// AESPreferred asks for AES and stays on sealed GSS Wrap when no answer comes within
	// WithAESWait.
	AESPreferred
	// AESOff never asks: every frame stays sealed by GSS Wrap.
	AESOff
)

// DefaultServicePrincipal is HBase's usual region server principal pattern; _HOST is replaced
// by the server's host name and the realm by the client's.
const DefaultServicePrincipal = "hbase/_HOST"

// DefaultAESWait is how long the handshake waits for the server's AES keys.
const DefaultAESWait = 2 * time.Second

// handshakeConfig is what the options of NewHandshaker set; zero values mean the defaults.
type handshakeConfig struct {
	// Credentials is the Kerberos identity; nil means SIMPLE authentication (no SASL).
	Credentials *Credentials
	// ServicePrincipal is the server's principal pattern, "hbase/_HOST" by default.
	// "_HOST" is replaced by the server's host name (lower case); an "@REALM" suffix is
	// ignored (the realm comes from krb5.conf's domain_realm or the client's realm).
	ServicePrincipal string
	// Protection is the QoP to insist on; the zero value means Privacy.
	Protection Protection
	// AES controls CryptoAES under privacy (ignored otherwise).
	AES AESMode
	// AESWait bounds the wait for the server's AES reply (DefaultAESWait if zero): then
	// AESRequired fails and AESPreferred stays on GSS Wrap.
	AESWait time.Duration
	// NegotiateCipher uses the seeds' USE_NEGOTIATED_CIPHER (-89) exchange instead of the
	// upstream ConnectionHeader field. Only servers carrying that patch speak it.
	NegotiateCipher bool
	// AllowFallbackToSimple accepts a server's SWITCH_TO_SIMPLE_AUTH: the connection then runs
	// unauthenticated and in plaintext. Off by default: it is a downgrade.
	AllowFallbackToSimple bool
	// AllowWeakerProtection accepts a security-layer offer weaker than Protection.
	AllowWeakerProtection bool
	// ProxyUser, when set, is the user the connection acts for (doAs): the server authorises
	// the authenticated principal to act for it by its hadoop.proxyuser rules.
	ProxyUser string
	// MaxTokenSize bounds each server message of the exchange (DefaultMaxTokenSize if zero).
	MaxTokenSize int
	// Logger gets one debug line per handshake and warnings for accepted fallbacks.
	Logger *slog.Logger
}

// Handshaker implements region.Handshaker.
type Handshaker struct {
	cfg     handshakeConfig
	tickets ticketSource
}

// ticketSource is what the handshake needs from Credentials (tests substitute a fake KDC).
type ticketSource interface {
	serviceTicket(ctx context.Context, spn string) (serviceTicket, error)
}

var _ region.Handshaker = (*Handshaker)(nil)

// NewHandshaker returns a Handshaker configured by opts; it fails on the first bad option.
// Without WithCredentials it authenticates with SIMPLE (no SASL).
func NewHandshaker(opts ...Option) (*Handshaker, error) {
	var cfg handshakeConfig
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("sasl: nil Option")
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.Protection == 0 {
		cfg.Protection = Privacy
	}
	if cfg.Protection > Privacy {
		return nil, fmt.Errorf("sasl: unknown protection %d", cfg.Protection)
	}
	if cfg.AES > AESOff {
		return nil, fmt.Errorf("sasl: unknown AES mode %d", cfg.AES)
	}
	if cfg.ServicePrincipal == "" {
		cfg.ServicePrincipal = DefaultServicePrincipal
	}
	if cfg.AESWait <= 0 {
		cfg.AESWait = DefaultAESWait
	}
	if cfg.MaxTokenSize <= 0 {
		cfg.MaxTokenSize = DefaultMaxTokenSize
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := &Handshaker{cfg: cfg}
	if cfg.Credentials != nil {
		h.tickets = cfg.Credentials
	}
	return h, nil
}

// Auth codes of the connection preamble.
const (
	authSimple   = 0x50
	authKerberos = 0x51
)

func preamble(auth byte) []byte { return []byte{'H', 'B', 'a', 's', 0, auth} }

// Handshake implements region.Handshaker. region bounds it by ctx (deadline and cancellation
// interrupt blocked I/O); Kerberos ticket requests are bounded by ctx here.
func (h *Handshaker) Handshake(ctx context.Context, conn net.Conn, serverHost string, hdr *pb.ConnectionHeader) (region.Layer, error) {
	if h.tickets == nil {
		return nil, writeHeader(conn, preamble(authSimple), hdr)
	}
	l, err := h.kerberos(ctx, conn, serverHost, hdr)
	if err != nil {
		if isTimeout(err) {
			// The socket deadline is the context's, and may fire a moment before ctx.Err is set.
			if ctxErr := ctx.Err(); ctxErr != nil {
				err = fmt.Errorf("%w (%w)", ctxErr, err)
			} else if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl.Add(-10*time.Millisecond)) {
				err = fmt.Errorf("%w (%w)", context.DeadlineExceeded, err)
			}
		}
		return nil, err
	}
	return l, nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// servicePrincipal expands the pattern for host.
func (h *Handshaker) servicePrincipal(host string) string {
	p := h.cfg.ServicePrincipal
	if i := strings.IndexByte(p, '@'); i >= 0 {
		p = p[:i]
	}
	return strings.ReplaceAll(p, "_HOST", strings.ToLower(host))
}

// kerberos authenticates with GSSAPI (RFC 4752), negotiates the security layer and sends
// the connection header under it. The layer it returns is nil under Authentication and after
// an accepted fallback to SIMPLE.
func (h *Handshaker) kerberos(ctx context.Context, conn net.Conn, host string, hdr *pb.ConnectionHeader) (region.Layer, error) {
	spn := h.servicePrincipal(host)
	st, err := h.tickets.serviceTicket(ctx, spn)
	if err != nil {
		return nil, err
	}
	in := &initiator{st: st}
	if err := h.sendAPReq(conn, in); err != nil {
		return nil, err
	}
	gss, simple, err := h.readAPRep(conn, in)
	if err != nil {
		return nil, err
	}
	if simple {
		return nil, h.fallbackToSimple(conn, hdr, host)
	}
	chosen, err := h.chooseLayer(conn, gss)
	if err != nil {
		return nil, err
	}
	hdr = h.effectiveUserHeader(hdr, st.principal())
	log := h.cfg.Logger.With("server", host, "principal", spn, "qop", chosen.QoP())
	return h.startLayer(ctx, conn, gss, chosen, hdr, log)
}

// sendAPReq sends the preamble (with the cipher to negotiate, under NegotiateCipher) and the
// AP-REQ token of the service ticket.
func (h *Handshaker) sendAPReq(conn net.Conn, in *initiator) error {
	tok, err := in.apReqToken()
	if err != nil {
		return err
	}
	first := preamble(authKerberos)
	if h.cfg.NegotiateCipher {
		first = binary.BigEndian.AppendUint32(first, negotiatedCipherWord)
		first = appendString(first, cipher.Transformation)
	}
	first = appendToken(first, tok)
	if _, err := conn.Write(first); err != nil {
		return fmt.Errorf("sasl: sending AP-REQ: %w", err)
	}
	return nil
}

// readAPRep reads the server's AP-REP and establishes the GSS context from it; simple
// reports that the server asked to switch to SIMPLE authentication instead.
func (h *Handshaker) readAPRep(conn net.Conn, in *initiator) (gss *gssLayer, simple bool, err error) {
	msg, err := readServerMessage(conn, h.cfg.MaxTokenSize)
	if err != nil {
		return nil, false, fmt.Errorf("sasl: reading AP-REP: %w", err)
	}
	if msg.switchToSimple {
		return nil, true, nil
	}
	if msg.token == nil {
		return nil, false, fmt.Errorf("%w: expected AP-REP, got a cipher message", ErrProtocol)
	}
	gss, err = in.acceptAPRep(msg.token)
	if err != nil {
		return nil, false, err
	}
	return gss, false, nil
}

// chooseLayer asks for the server's security-layer offer, picks the layer and sends the
// choice; from then on gss seals under Privacy.
func (h *Handshaker) chooseLayer(conn net.Conn, gss *gssLayer) (Protection, error) {
	// RFC 4752: once the context is established the client sends an empty token and the
	// server answers with its security-layer offer.
	if _, err := conn.Write(appendToken(nil, nil)); err != nil {
		return 0, fmt.Errorf("sasl: sending empty token: %w", err)
	}
	msg, err := readServerMessage(conn, h.cfg.MaxTokenSize)
	if err != nil {
		return 0, fmt.Errorf("sasl: reading security-layer offer: %w", err)
	}
	if msg.token == nil {
		return 0, fmt.Errorf("%w: expected the security-layer offer", ErrProtocol)
	}
	chosen, err := h.negotiateLayer(gss, msg.token)
	if err != nil {
		return 0, err
	}
	reply := []byte{chosen.bit(), 0, 0, 0}
	if chosen != Authentication {
		putMaxBuf(reply[1:], clientMaxBuf)
	}
	wrapped, err := gss.wrap(nil, reply, false)
	if err != nil {
		return 0, err
	}
	if _, err := conn.Write(appendToken(nil, wrapped)); err != nil {
		return 0, fmt.Errorf("sasl: sending security-layer choice: %w", err)
	}
	gss.seal = chosen == Privacy
	return chosen, nil
}

// effectiveUserHeader is a copy of hdr that names the effective user. Like Java's client,
// it announces the authenticated principal, or the proxy user: a name other than the
// principal is a doAs request, which the server checks against its hadoop.proxyuser rules
// for the principal.
func (h *Handshaker) effectiveUserHeader(hdr *pb.ConnectionHeader, principal string) *pb.ConnectionHeader {
	effective := principal
	if h.cfg.ProxyUser != "" {
		effective = h.cfg.ProxyUser
	}
	hdr = proto.CloneOf(hdr)
	hdr.UserInfo = &pb.UserInformation{EffectiveUser: proto.String(effective)}
	return hdr
}

// startLayer sends the connection header under the chosen layer and returns the layer the
// connection runs on: none under Authentication; under Privacy CryptoAES when negotiated, or
// asked for and given; else GSS wrap.
func (h *Handshaker) startLayer(ctx context.Context, conn net.Conn, gss *gssLayer, chosen Protection, hdr *pb.ConnectionHeader, log *slog.Logger) (region.Layer, error) {
	if chosen == Authentication {
		log.Debug("sasl: handshake done")
		return nil, writeHeader(conn, nil, hdr)
	}
	if h.cfg.NegotiateCipher && chosen == Privacy {
		aes, err := h.readNegotiatedCipher(conn, gss)
		if err != nil {
			return nil, err
		}
		log.Debug("sasl: handshake done", "cipher", cipher.Transformation, "negotiation", "USE_NEGOTIATED_CIPHER")
		return aes, writeWrappedHeader(conn, aes, hdr)
	}
	askAES := chosen == Privacy && h.cfg.AES != AESOff
	if askAES {
		hdr.RpcCryptoCipherTransformation = proto.String(cipher.Transformation)
	}
	if err := writeWrappedHeader(conn, gss, hdr); err != nil {
		return nil, err
	}
	if !askAES {
		log.Debug("sasl: handshake done", "cipher", "gss-wrap")
		return gss, nil
	}
	aes, err := h.readAESReply(ctx, conn, gss)
	if err != nil {
		return nil, err
	}
	if aes == nil {
		log.Warn("sasl: server sent no AES keys; staying on sealed GSS wrap")
		return gss, nil
	}
	log.Debug("sasl: handshake done", "cipher", cipher.Transformation)
	return aes, nil
}

// clientMaxBuf is the largest wrapped message we accept, announced to the server (region
// reads any size up to its own limit; the server does not split by it).
const clientMaxBuf = 1<<24 - 1

func putMaxBuf(b []byte, n int) { b[0], b[1], b[2] = byte(n>>16), byte(n>>8), byte(n) }

// negotiateLayer reads the server's RFC 4752 offer and picks the layer: the requested one, or
// a stronger one if that is all the server offers; never a weaker one unless allowed.
func (h *Handshaker) negotiateLayer(gss *gssLayer, token []byte) (Protection, error) {
	offer, err := gss.unwrap(nil, token, false)
	if err != nil {
		return 0, fmt.Errorf("sasl: security-layer offer: %w", err)
	}
	if len(offer) != 4 {
		return 0, fmt.Errorf("%w: security-layer offer of %d bytes, want 4", ErrProtocol, len(offer))
	}
	bits := offer[0]
	want := h.cfg.Protection
	if bits&want.bit() != 0 {
		return want, nil
	}
	for p := want + 1; p <= Privacy; p++ {
		if bits&p.bit() != 0 {
			return p, nil
		}
	}
	if h.cfg.AllowWeakerProtection {
		for p := want - 1; p >= Authentication; p-- {
			if bits&p.bit() != 0 {
				h.cfg.Logger.Warn("sasl: accepting weaker protection", "wanted", want.QoP(), "got", p.QoP())
				return p, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: asked for %s, server offers only %s", hberr.ErrDowngrade, want.QoP(), offerString(bits))
}

func offerString(bits byte) string {
	var names []string
	for p := Authentication; p <= Privacy; p++ {
		if bits&p.bit() != 0 {
			names = append(names, p.QoP())
		}
	}
	if len(names) == 0 {
		return fmt.Sprintf("no known layer (bits %#02x)", bits)
	}
	return strings.Join(names, ", ")
}

func (h *Handshaker) fallbackToSimple(conn net.Conn, hdr *pb.ConnectionHeader, host string) error {
	if !h.cfg.AllowFallbackToSimple {
		return fmt.Errorf("%w: server %s sent SWITCH_TO_SIMPLE_AUTH (it does not run Kerberos) to a client asking for %s; refusing to continue unauthenticated in plaintext (set AllowFallbackToSimple to accept)",
			hberr.ErrDowngrade, host, h.cfg.Protection)
	}
	h.cfg.Logger.Warn("sasl: server switched to SIMPLE authentication; continuing unauthenticated in plaintext", "server", host)
	// The server ignores the token it already received and expects the plain header next.
	return writeHeader(conn, nil, hdr)
}

// writeHeader writes prefix (a preamble or nothing) and the plain ConnectionHeader.
func writeHeader(conn net.Conn, prefix []byte, hdr *pb.ConnectionHeader) error {
	body, err := proto.Marshal(hdr)
	if err != nil {
		return fmt.Errorf("sasl: marshal connection header: %w", err)
	}
	b := append(prefix, make([]byte, 0, 4+len(body))...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)))
	b = append(b, body...)
	if _, err := conn.Write(b); err != nil {
		return fmt.Errorf("sasl: sending connection header: %w", err)
	}
	return nil
}

// writeWrappedHeader sends be32 len | Wrap(be32 hdrLen | ConnectionHeader).
func writeWrappedHeader(conn net.Conn, l region.Layer, hdr *pb.ConnectionHeader) error {
	body, err := proto.Marshal(hdr)
	if err != nil {
		return fmt.Errorf("sasl: marshal connection header: %w", err)
	}
	plain := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(body)), uint32(len(body)))
	plain = append(plain, body...)
	tok, err := l.Wrap(nil, plain)
	if err != nil {
		return fmt.Errorf("sasl: wrap connection header: %w", err)
	}
	if _, err := conn.Write(appendToken(nil, tok)); err != nil {
		return fmt.Errorf("sasl: sending connection header: %w", err)
	}
	return nil
}

// readAESReply reads the sealed ConnectionHeaderResponse. It returns nil, nil when AES is only
// preferred and nothing arrived within AESWait.
// CryptoAES must stay a SplitLayer, or its MACs would move back onto the connection's
// single writer.
var _ region.SplitLayer = (*cipher.CryptoAES)(nil)

func (h *Handshaker) readAESReply(ctx context.Context, conn net.Conn, gss *gssLayer) (region.Layer, error) {
	// A server that does AES answers as soon as it has read the header, so a short wait is
	// enough to tell; it keeps a missing reply from eating the whole dial budget.
	{
		wait := time.Now().Add(h.cfg.AESWait)
		if dl, ok := ctx.Deadline(); !ok || wait.Before(dl) {
			conn.SetReadDeadline(wait) //nolint:errcheck // a failing deadline shows up as failing I/O
			defer func() {
				if dl, ok := ctx.Deadline(); ok {
					conn.SetReadDeadline(dl) //nolint:errcheck
				} else {
					conn.SetReadDeadline(time.Time{}) //nolint:errcheck
				}
			}()
		}
	}
	var lb [4]byte
	n, err := io.ReadFull(conn, lb[:])
	if err != nil {
		if n == 0 && isTimeout(err) && ctx.Err() == nil && h.cfg.AES == AESPreferred {
			return nil, nil
		}
		if isTimeout(err) || err == io.EOF {
			return nil, fmt.Errorf("%w: asked for AES but the server sent no ConnectionHeaderResponse within %v (is hbase.rpc.crypto.encryption.aes.enabled off on the server?): %w", hberr.ErrDowngrade, h.cfg.AESWait, err)
		}
		return nil, fmt.Errorf("sasl: reading ConnectionHeaderResponse: %w", err)
	}
	size := binary.BigEndian.Uint32(lb[:])
	if int64(size) > int64(h.cfg.MaxTokenSize) {
		return nil, fmt.Errorf("%w: ConnectionHeaderResponse of %d bytes", ErrTokenTooLarge, size)
	}
	tok := make([]byte, size)
	if _, err := io.ReadFull(conn, tok); err != nil {
		return nil, fmt.Errorf("sasl: reading ConnectionHeaderResponse: %w", truncated(err))
	}
	plain, err := gss.Unwrap(nil, tok)
	if err != nil {
		return nil, fmt.Errorf("sasl: ConnectionHeaderResponse: %w", err)
	}
	if len(plain) < 4 || int(binary.BigEndian.Uint32(plain)) != len(plain)-4 {
		return nil, fmt.Errorf("%w: ConnectionHeaderResponse length prefix does not match its %d bytes", ErrProtocol, len(plain))
	}
	var resp pb.ConnectionHeaderResponse
	if err := proto.Unmarshal(plain[4:], &resp); err != nil {
		return nil, fmt.Errorf("%w: ConnectionHeaderResponse: %v", ErrProtocol, err)
	}
	meta := resp.GetCryptoCipherMeta()
	if meta == nil {
		return nil, fmt.Errorf("%w: ConnectionHeaderResponse without CryptoCipherMeta", hberr.ErrDowngrade)
	}
	aes, err := cipher.New(meta.GetTransformation(), cipher.Keys{
		InKey: meta.GetInKey(), InIV: meta.GetInIv(), OutKey: meta.GetOutKey(), OutIV: meta.GetOutIv(),
	})
	if err != nil {
		return nil, fmt.Errorf("sasl: server's AES parameters: %w", err)
	}
	return aes, nil
}

// readNegotiatedCipher reads a patched server's final -89 message and builds the layer.
func (h *Handshaker) readNegotiatedCipher(conn net.Conn, gss *gssLayer) (region.Layer, error) {
	msg, err := readServerMessage(conn, h.cfg.MaxTokenSize)
	if err != nil {
		return nil, fmt.Errorf("sasl: reading negotiated cipher: %w", err)
	}
	if msg.cipherToken == nil {
		return nil, fmt.Errorf("%w: asked for USE_NEGOTIATED_CIPHER, server did not answer with a cipher", hberr.ErrDowngrade)
	}
	plain, err := gss.unwrap(nil, msg.cipherToken, true)
	if err != nil {
		return nil, fmt.Errorf("sasl: negotiated cipher: %w", err)
	}
	p, err := readCipherProposal(bytes.NewReader(plain), len(plain))
	clear(plain)
	if err != nil {
		return nil, err
	}
	aes, err := cipher.New(p.suite, cipher.Keys{InKey: p.inKey, InIV: p.inIV, OutKey: p.outKey, OutIV: p.outIV})
	if err != nil {
		return nil, fmt.Errorf("sasl: negotiated cipher: %w", err)
	}
	return aes, nil
}
