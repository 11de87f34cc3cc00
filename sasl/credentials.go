package sasl

import (
	"context"
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"strings"
	"sync"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// Credentials is a logged-in Kerberos identity that obtains service tickets. It is safe for
// concurrent use and meant to be shared by every connection of a client.
//
// Renewal: with a keytab or a password, gokrb5 renews the TGT (or logs in again) at 5/6 of
// its lifetime, and an expired service ticket is fetched again on the next connection, so a
// long-lived client keeps working. Credentials from a credential cache cannot log in again:
// once the cached TGT expires, a connection that needs a new service ticket fails with
// hberr.ErrTicketExpired (sasl's TestRealCluster shows both ways against a real KDC). TicketStats
// reports the logins and renewals (package kerberos's TestSecureTicketRenewal checks both
// ways against a real KDC issuing 30 s tickets).
type Credentials struct {
	cl        *krbclient.Client
	principal string
	// events counts gokrb5's logins and renewals (TicketStats).
	events *ticketEvents
	// ccache is the credential cache file of CCacheCredentials, empty otherwise: such
	// credentials cannot log in again, so an expired ticket needs the user's kinit.
	ccache string

	// loggedIn is guarded by tickets.
	loggedIn bool
	// tickets serialises ticket requests: gokrb5's client is safe, but one connection storm
	// should cause one TGS exchange, not one per connection.
	tickets sync.Mutex
}

// KeytabCredentials logs principal ("user@REALM" or "user/host@REALM"; the realm defaults to
// krb5.conf's default_realm) in from the keytab file at keytabPath.
func KeytabCredentials(principal, keytabPath, krb5ConfPath string) (*Credentials, error) {
	cfg, err := loadKrb5Conf(krb5ConfPath)
	if err != nil {
		return nil, err
	}
	kt, err := keytab.Load(keytabPath)
	if err != nil {
		return nil, fmt.Errorf("%w: reading keytab %s: %v", hberr.ErrBadCredentials, keytabPath, err)
	}
	user, realm := splitPrincipal(principal, cfg)
	ev := &ticketEvents{}
	cl := krbclient.NewWithKeytab(user, realm, kt, cfg, krbclient.DisablePAFXFAST(true), krbclient.Logger(ev.logger()))
	return &Credentials{cl: cl, principal: user + "@" + realm, events: ev}, nil
}

// PasswordCredentials logs principal in with a password. The password is kept only inside
// gokrb5's client (it needs it to log in again) and never logged.
func PasswordCredentials(principal, password, krb5ConfPath string) (*Credentials, error) {
	cfg, err := loadKrb5Conf(krb5ConfPath)
	if err != nil {
		return nil, err
	}
	user, realm := splitPrincipal(principal, cfg)
	ev := &ticketEvents{}
	cl := krbclient.NewWithPassword(user, realm, password, cfg, krbclient.DisablePAFXFAST(true), krbclient.Logger(ev.logger()))
	return &Credentials{cl: cl, principal: user + "@" + realm, events: ev}, nil
}

// CCacheCredentials uses an existing MIT credential cache file (as written by kinit). The file
// is read once, here: after its TGT has expired, run kinit again and make new credentials.
func CCacheCredentials(ccachePath, krb5ConfPath string) (*Credentials, error) {
	cfg, err := loadKrb5Conf(krb5ConfPath)
	if err != nil {
		return nil, err
	}
	cc, err := credentials.LoadCCache(ccachePath)
	if err != nil {
		return nil, fmt.Errorf("%w: reading credential cache %s: %v", hberr.ErrBadCredentials, ccachePath, err)
	}
	cl, err := krbclient.NewFromCCache(cc, cfg, krbclient.DisablePAFXFAST(true))
	if err != nil {
		return nil, classifyKrbError(fmt.Errorf("credential cache %s: %w", ccachePath, err))
	}
	return &Credentials{cl: cl, principal: cc.GetClientPrincipalName().PrincipalNameString() + "@" + cc.GetClientRealm(), ccache: ccachePath}, nil
}

// ccacheExpired adds what to do to an hberr.ErrTicketExpired of credential-cache credentials: gokrb5
// cannot log in again without a password or keytab, and the cache file is read only once.
func (c *Credentials) ccacheExpired(err error) error {
	if c.ccache == "" || !errors.Is(err, hberr.ErrTicketExpired) {
		return err
	}
	return ccacheDone{fmt.Errorf("%w (the TGT from credential cache %s has expired and cannot be renewed: run kinit again for %s, then create a new client, which reads the cache anew)",
		err, c.ccache, c.principal)}
}

// errCCacheExpired marks the expiry of a credential cache's TGT: final for these credentials
// (Permanent), unlike an hberr.ErrTicketExpired that a keytab or password renews.
var errCCacheExpired = errors.New("sasl: credential cache expired")

type ccacheDone struct{ error }

func (e ccacheDone) Unwrap() error        { return e.error }
func (e ccacheDone) Is(target error) bool { return target == errCCacheExpired }

// Principal returns the client principal ("user@REALM").
func (c *Credentials) Principal() string { return c.principal }

// String names the principal only: no keys, tickets or passwords.
func (c *Credentials) String() string { return "sasl.Credentials{" + c.principal + "}" }

// Close stops ticket renewal and forgets the tickets.
func (c *Credentials) Close() { c.cl.Destroy() }

func loadKrb5Conf(path string) (*config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, fmt.Errorf("%w: reading krb5.conf %s: %v", hberr.ErrKerberos, path, err)
	}
	return cfg, nil
}

func splitPrincipal(p string, cfg *config.Config) (user, realm string) {
	if i := strings.LastIndexByte(p, '@'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return p, cfg.LibDefaults.DefaultRealm
}

// serviceTicket gets a ticket for spn (logging in first if needed), bounded by ctx. gokrb5
// does not take a context, so the exchange runs in its own goroutine; if ctx ends first, that
// goroutine finishes in the background within gokrb5's own network timeouts.
func (c *Credentials) serviceTicket(ctx context.Context, spn string) (serviceTicket, error) {
	type result struct {
		st  serviceTicket
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := c.serviceTicketSync(spn)
		done <- result{st, err}
	}()
	select {
	case r := <-done:
		return r.st, r.err
	case <-ctx.Done():
		return serviceTicket{}, fmt.Errorf("%w: getting a ticket for %s: %w", hberr.ErrKDCUnreachable, spn, ctx.Err())
	}
}

func (c *Credentials) serviceTicketSync(spn string) (serviceTicket, error) {
	c.tickets.Lock()
	defer c.tickets.Unlock()
	if !c.loggedIn {
		// A failed login is tried again on the next connection (the KDC may be back).
		if err := c.cl.AffirmLogin(); err != nil {
			return serviceTicket{}, c.ccacheExpired(classifyKrbError(fmt.Errorf("login as %s: %w", c.principal, err)))
		}
		c.loggedIn = true
	}
	tkt, key, err := c.cl.GetServiceTicket(spn)
	if err != nil {
		return serviceTicket{}, c.ccacheExpired(classifyKrbError(fmt.Errorf("service ticket for %s: %w", spn, err)))
	}
	return serviceTicket{
		ticket:     tkt,
		sessionKey: key,
		realm:      c.cl.Credentials.Domain(),
		cname:      c.cl.Credentials.CName(),
	}, nil
}

// classifyKrbError maps gokrb5's error text (it does not keep typed causes) to a sentinel.
// The texts hold names and error codes, never key material.
func classifyKrbError(err error) error {
	s := err.Error()
	has := func(subs ...string) bool {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
		return false
	}
	var kind error
	switch {
	case has("KRB_AP_ERR_SKEW"):
		kind = hberr.ErrClockSkew
	case has("PRINCIPAL_UNKNOWN"):
		kind = hberr.ErrPrincipalUnknown
	case has("TKT_EXPIRED", "no valid existing session", "ticket expired"):
		kind = hberr.ErrTicketExpired
	case has("PREAUTH_FAILED", "matching key not found in keytab", "Decrypting_Error", "BAD_INTEGRITY"):
		kind = hberr.ErrBadCredentials
	case has("Configuration_Error"):
		// krb5.conf names no KDC for the realm: not an outage (Permanent).
		kind = hberr.ErrKerberos
	case has("Networking_Error", "no KDCs", "connection refused", "i/o timeout", "no such host"):
		kind = hberr.ErrKDCUnreachable
	default:
		kind = hberr.ErrKerberos
	}
	if errors.Is(err, kind) {
		return err
	}
	err = kdcText{err}
	if kind == hberr.ErrBadCredentials && has("PREAUTH_FAILED") {
		// Apache Kerby (Hadoop's MiniKdc) answers a pre-authentication timestamp outside its
		// clock skew with PREAUTH_FAILED too, where an MIT KDC says KRB_AP_ERR_SKEW.
		return fmt.Errorf("%w: %w (the KDC refused the pre-authentication: a wrong password or keytab, or, with some KDCs, a client clock too far from the KDC's)", kind, err)
	}
	return fmt.Errorf("%w: %w", kind, err)
}

// kdcText prints a gokrb5 error carrying the KDC's answer as what the KDC said: gokrb5 wraps
// it in "[Root cause: KDC_Error] KDC_Error: AS Exchange Error: kerberos error response from
// KDC: KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database -
// Client not found in Kerberos database", which becomes "(6) KDC_ERR_C_PRINCIPAL_UNKNOWN
// Client not found in Kerberos database". The error itself is kept (Unwrap).
type kdcText struct{ err error }

func (e kdcText) Unwrap() error { return e.err }

func (e kdcText) Error() string {
	s := e.err.Error()
	root := strings.Index(s, "[Root cause: ")
	krb := strings.Index(s, "KRB Error: ")
	if root < 0 || krb < root {
		return s
	}
	said := s[krb+len("KRB Error: "):]
	// "(code) NAME description - etext": the KDC's etext often repeats the description.
	if head, etext, ok := strings.Cut(said, " - "); ok && strings.HasSuffix(head, etext) {
		said = head
	}
	return s[:root] + said
}
