package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/zk"
)

// configError marks err as a configuration error when it is one; its message is err's. Those
// are: a parent znode with nothing under it, the server refusing the client's identity (an
// AccessDeniedException while locating hbase:meta: a principal that may not act for its proxy
// user, or that may not read meta), a TLS handshake refused for the client's settings, and a
// security failure no retry mends (the handshaker's PermanentFailure: for Kerberos an unknown
// principal, a wrong password or keytab, clock skew...). (The bootstrap registry decides for
// its servers' errors itself: LocateMeta.)
func (c *Client) configError(err error) error {
	if err == nil || errors.Is(err, hberr.ErrConfiguration) || errors.Is(err, hberr.ErrBootstrapUnreachable) {
		return err
	}
	if errors.Is(err, zk.ErrNoParent) || accessDenied(err) || tlsRefused(err) || c.permanentFailure(err) {
		return misconfigured{err}
	}
	return err
}

// tlsRefused reports a TLS handshake that failed for the configuration, not the network: a
// server certificate the client does not trust or that does not name the server, a client
// certificate the server refused (its alert), or a server that does not speak TLS.
func tlsRefused(err error) bool {
	if !errors.Is(err, hberr.ErrTLS) {
		return false
	}
	_, unknown := errors.AsType[x509.UnknownAuthorityError](err)
	_, invalid := errors.AsType[x509.CertificateInvalidError](err)
	_, host := errors.AsType[x509.HostnameError](err)
	op, isOp := errors.AsType[*net.OpError](err)
	alert := isOp && op.Op == "remote error" // crypto/tls reports the server's alerts so
	_, notTLS := errors.AsType[tls.RecordHeaderError](err)
	return unknown || invalid || host || alert || notTLS
}

func accessDenied(err error) bool {
	re, ok := errors.AsType[*hberr.RemoteError](err)
	return ok && strings.HasSuffix(re.Class, ".AccessDeniedException")
}

type misconfigured struct{ error }

func (e misconfigured) Unwrap() error        { return e.error }
func (e misconfigured) Is(target error) bool { return target == hberr.ErrConfiguration }

// failFast stops re-establishing hbase:meta after a configuration error, or a region of a
// disabled table: the error is recorded and the callers waiting for the region are woken to
// return it (findMeta, findRegion). The next call that needs the region looks it up again, so
// a client recovers once the configuration (the cluster's side of it) is right or the table
// is enabled again.
func (c *Client) failFast(r *regionInfo, err error) bool {
	if r == c.meta && !errors.Is(err, hberr.ErrConfiguration) || r != c.meta && !errors.Is(err, hberr.ErrTableDisabled) {
		return false
	}
	c.Log.Debug("hbase: re-establishing a region failed for good", "region", string(r.name), "err", err)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastErr = err
	if r.avail != nil {
		close(r.avail)
		r.avail = nil
	}
	return true
}

// errUnreached is wrapped by the error of an attempt to locate a region that failed because
// a server could not be reached (refused, closed, a registry that does not answer), as
// opposed to one the cluster answered ("not serving it yet"). Callers waiting for hbase:meta
// count it as one of their attempts, and the retry loop pauses and tries again. Such an
// error is also hberr.ErrConnection.
var errUnreached = errors.New("server unreachable")

type unreachedError struct{ error }

func (e unreachedError) Unwrap() error { return e.error }

// Is matches hberr.ErrConnection too: what users test for a server they cannot reach.
func (e unreachedError) Is(target error) bool {
	return target == errUnreached || target == hberr.ErrConnection
}

// unreached marks err as an unreached server unless the cluster answered it (a server's
// exception, a missing or malformed znode), it is a configuration error (final anyway), or
// it is a context's error.
func unreached(err error) error {
	switch {
	case err == nil, errors.Is(err, hberr.ErrConfiguration), errors.Is(err, errUnreached),
		errors.Is(err, zk.ErrNoNode), errors.Is(err, zk.ErrBadZNode),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, hberr.ErrClosed):
		return err
	}
	if _, answered := errors.AsType[*hberr.RemoteError](err); answered {
		return err
	}
	return unreachedError{err}
}

// Misconfigured marks err as a configuration error: it matches hberr.ErrConfiguration.
func Misconfigured(err error) error { return misconfigured{err} }

// A PermanentFailure is a handshaker that tells which of its failures no retry mends (package
// kerberos's: an unknown principal, a wrong password...).
type PermanentFailure interface {
	PermanentFailure(err error) bool
}

func (c *Client) permanentFailure(err error) bool {
	p, ok := c.opts.Handshaker.(PermanentFailure)
	return ok && p.PermanentFailure(err)
}
