package sasl

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/region"
)

// dialBound is the context every connection attempt of these cases gets; an error must come
// within it.
const dialBound = 15 * time.Second

// runCCacheAndSkewCases runs, against the real KDC and region server of cl (the privacy+AES
// cluster of TestRealCluster, so no extra JVM), the Kerberos failures that need the KDC's
// cooperation: credential caches that work and that expire, and a KDC whose clock window
// rejects the client. rg is a region of the table "sasl_it".
func runCCacheAndSkewCases(t *testing.T, cl *hbasetest.Cluster, rg hbasetest.Region) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	t.Run("ccache", func(t *testing.T) { ccacheWorks(ctx, t, cl, rg) })
	t.Run("ccache-expired", func(t *testing.T) { ccacheExpires(ctx, t, cl, rg.Addr) })
	t.Run("kdc-clock-skew", func(t *testing.T) { kdcClockSkew(ctx, t, cl, rg.Addr) })
}

// dialWith runs one privacy handshake with creds to addr within dialBound and returns how
// long it took and its error; a connection that succeeds is closed. spn, when not empty, is
// the service principal to ask a ticket for.
func dialWith(ctx context.Context, t *testing.T, creds *Credentials, addr, spn string) (time.Duration, error) {
	t.Helper()
	h, err := NewHandshaker(Config{Credentials: creds, Protection: Privacy, ServicePrincipal: spn})
	require.NoError(t, err)
	dctx, cancel := context.WithTimeout(ctx, dialBound)
	defer cancel()
	start := time.Now()
	rc, err := region.Dial(dctx, addr, region.Config{Service: "ClientService", Handshaker: h})
	took := time.Since(start)
	if err == nil {
		rc.Close()
	}
	// A little slack for the goroutines to notice the context; far below a network timeout.
	require.Less(t, took, dialBound+2*time.Second, "the handshake outlived its context")
	return took, err
}

// ccacheWorks: a TGT from the real KDC, written to a credential cache by the launcher's kinit,
// authenticates a privacy+AES connection that reads and writes data.
func ccacheWorks(ctx context.Context, t *testing.T, cl *hbasetest.Cluster, rg hbasetest.Region) {
	path := filepath.Join(t.TempDir(), "krb5cc_client")
	tkt, err := cl.Kinit(ctx, path, hbasetest.KinitOptions{})
	require.NoError(t, err)
	t.Logf("kinit: %s until %v (renewable until %v)", tkt.Principal, tkt.End, tkt.RenewTill)
	require.Equal(t, cl.ClientPrincipal, tkt.Principal)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), tkt.End, 10*time.Minute, "default lifetime is a day")

	creds, err := CCacheCredentials(path, cl.KRB5Conf)
	require.NoError(t, err)
	defer creds.Close()
	require.Equal(t, cl.ClientPrincipal, creds.Principal())
	h, err := NewHandshaker(Config{Credentials: creds, Protection: Privacy})
	require.NoError(t, err)
	var layerKind string
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rc, err := region.Dial(dctx, rg.Addr, region.Config{Service: "ClientService", Handshaker: &layerProbe{h: h, kind: &layerKind}})
	require.NoError(t, err)
	defer rc.Close()
	require.Equal(t, "aes", layerKind)

	row := []byte(fmt.Sprintf("ccache-%d", time.Now().UnixNano()))
	val := []byte("written with a credential cache")
	put, err := hrpc.NewPut([]byte("sasl_it"), row, hrpc.Value([]byte("f"), []byte("q"), val))
	require.NoError(t, err)
	callRegion(t, dctx, rc, rg.Name, "Mutate", put)
	require.Equal(t, val, getValue(t, dctx, rc, "sasl_it", rg.Name, row))
	cells, err := cl.Get(dctx, "sasl_it", row)
	require.NoError(t, err)
	require.Len(t, cells, 1)
	require.Equal(t, val, cells[0].Value, "Java reads what the ccache client wrote")
}

// ccacheExpires: credential-cache credentials cannot log in again, so once the cached TGT has
// ended, a connection that needs a new service ticket fails with ErrTicketExpired, within its
// context, saying to kinit again. Both caches hold short TGTs from the real KDC and first
// authenticate a connection, so the failure afterwards is the expiry's:
//   - new credentials from either cache: gokrb5 sees from the cache alone that the TGT has
//     ended;
//   - the credentials already in use, needing a ticket for another server: with the
//     not-renewable TGT gokrb5 again sees it alone; with the renewable one it asks the KDC to
//     renew the ended TGT, and the KDC answers KRB_AP_ERR_TKT_EXPIRED (32).
//
// (Kerby, unlike an MIT KDC, does not end a service ticket with its TGT: the ticket for the
// server already connected to stays valid, so only a ticket for another server needs the TGT.)
func ccacheExpires(ctx context.Context, t *testing.T, cl *hbasetest.Cluster, addr string) {
	// Long enough for one handshake on a loaded 2-core machine well before gokrb5's refresh
	// point (the last sixth of the lifetime), short enough to wait for.
	const lifetime = 12 * time.Second
	// A region server this client has no ticket for yet; the KDC does not know it, but the
	// TGT is refused before its name is looked at.
	const otherServer = "hbase/rs2.example.com"
	type expiring struct {
		name   string
		opts   hbasetest.KinitOptions
		path   string
		creds  *Credentials
		reason string // what in the error text shows who saw the expiry
	}
	cases := []*expiring{
		{name: "not-renewable", opts: hbasetest.KinitOptions{Lifetime: lifetime, NotRenewable: true}, reason: "no valid existing session"},
		{name: "renewable", opts: hbasetest.KinitOptions{Lifetime: lifetime, RenewFor: time.Hour}, reason: "KRB_AP_ERR_TKT_EXPIRED"},
	}
	dir := t.TempDir()
	var last time.Time
	for _, c := range cases {
		c.path = filepath.Join(dir, "krb5cc_"+c.name)
		start := time.Now()
		tkt, err := cl.Kinit(ctx, c.path, c.opts)
		require.NoError(t, err)
		t.Logf("%s: TGT until %v, renewable until %v", c.name, tkt.End, tkt.RenewTill)
		// Without a short ticket this case would prove nothing.
		require.WithinDuration(t, start.Add(lifetime), tkt.End, 3*time.Second, "%s: TGT lifetime", c.name)
		if c.opts.NotRenewable {
			require.False(t, tkt.RenewTill.After(tkt.End), "%s: renewable until %v", c.name, tkt.RenewTill)
		} else {
			require.True(t, tkt.RenewTill.After(tkt.End.Add(30*time.Minute)), "%s: renewable until %v", c.name, tkt.RenewTill)
		}
		last = tkt.End
		c.creds, err = CCacheCredentials(c.path, cl.KRB5Conf)
		require.NoError(t, err)
		defer c.creds.Close()
		_, err = dialWith(ctx, t, c.creds, addr, "")
		require.NoError(t, err, "%s: the fresh credential cache must work", c.name)
		refresh := tkt.End.Add(-lifetime / 6)
		require.True(t, time.Now().Before(refresh), "%s: the first handshake ended after gokrb5's refresh point %v; the machine is too slow for a %v ticket", c.name, refresh, lifetime)
	}

	// Kerby checks a TGT's end time without clock skew allowance; a second of margin covers
	// the rounding of the end time.
	select {
	case <-time.After(time.Until(last.Add(time.Second))):
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			took, err := dialWith(ctx, t, c.creds, addr, otherServer)
			t.Logf("credentials in use, ticket for another server after expiry (%v): %v", took.Round(time.Millisecond), err)
			requireOnlySentinel(t, err, ErrTicketExpired)
			require.ErrorContains(t, err, c.reason)
			require.ErrorContains(t, err, "run kinit again")
			require.ErrorContains(t, err, c.path)

			fresh, err := CCacheCredentials(c.path, cl.KRB5Conf)
			require.NoError(t, err)
			defer fresh.Close()
			took, err = dialWith(ctx, t, fresh, addr, "")
			t.Logf("new credentials from the expired cache (%v): %v", took.Round(time.Millisecond), err)
			requireOnlySentinel(t, err, ErrTicketExpired)
			require.ErrorContains(t, err, "no valid existing session")
			require.ErrorContains(t, err, "run kinit again")
		})
	}
}

// kdcClockSkew: a client whose clock is outside the KDC's window gets ErrClockSkew from the
// real KDC, within its context. The KDC's allowable skew is made negative (every client
// timestamp is then outside it) rather than the client's clock moved: gokrb5 reads the system
// clock.
//
// The KDC says KRB_AP_ERR_SKEW (37) in its TGS exchange, which checks the authenticator's
// time. Kerby answers a skewed AS-REQ pre-authentication timestamp with
// KDC_ERR_PREAUTH_FAILED (24) instead (an MIT KDC says KRB_AP_ERR_SKEW there too), which no
// client can tell from a wrong key; so the client here logs in (AS) while the window is open
// and needs its service ticket (TGS) after it has closed, as a client whose clock drifted
// since its login would. The AS answer is checked too, so that a Kerby that starts reporting
// skew there is noticed.
//
// The cluster's servers use the same KDC, so the window is closed for a few seconds only and
// reopened before the case ends (and in t.Cleanup if it fails); a fresh login and the Java
// client must work again afterwards.
func kdcClockSkew(ctx context.Context, t *testing.T, cl *hbasetest.Cluster, addr string) {
	creds, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
	require.NoError(t, err)
	defer creds.Close()
	require.NoError(t, creds.cl.AffirmLogin(), "login while the KDC accepts our clock")

	restore := func() {
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := cl.SetKDCClockSkew(rctx, hbasetest.DefaultKDCClockSkew); err != nil {
			t.Errorf("restoring the KDC's clock skew: %v", err)
		}
	}
	prev, err := cl.SetKDCClockSkew(ctx, -time.Second)
	require.NoError(t, err)
	t.Cleanup(restore)
	require.Equal(t, hbasetest.DefaultKDCClockSkew, prev)
	now, err := cl.KDCClockSkew(ctx)
	require.NoError(t, err)
	require.Equal(t, -time.Second, now)

	took, err := dialWith(ctx, t, creds, addr, "")
	t.Logf("service ticket outside the KDC's clock window (%v): %v", took.Round(time.Millisecond), err)
	requireOnlySentinel(t, err, ErrClockSkew)
	require.ErrorContains(t, err, "KRB_AP_ERR_SKEW")

	fresh, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
	require.NoError(t, err)
	defer fresh.Close()
	took, err = dialWith(ctx, t, fresh, addr, "")
	t.Logf("AS login outside the KDC's clock window (%v): %v", took.Round(time.Millisecond), err)
	require.Error(t, err)
	require.ErrorContains(t, err, "KDC_ERR_PREAUTH_FAILED", "Kerby's answer to a skewed pre-authentication changed; map it")
	requireOnlySentinel(t, err, ErrBadCredentials)
	require.ErrorContains(t, err, "a client clock too far from the KDC's", "the error must mention the clock")

	restore()
	now, err = cl.KDCClockSkew(ctx)
	require.NoError(t, err)
	require.Equal(t, hbasetest.DefaultKDCClockSkew, now)

	// The window is open again: the same credentials, a fresh login and the cluster's Java
	// client work.
	_, err = dialWith(ctx, t, creds, addr, "")
	require.NoError(t, err, "the logged-in client after the KDC's window reopened")
	again, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
	require.NoError(t, err)
	defer again.Close()
	_, err = dialWith(ctx, t, again, addr, "")
	require.NoError(t, err, "a fresh login after the KDC's window reopened")
	row := []byte("skew-restored")
	require.NoError(t, cl.Put(ctx, "sasl_it", row, []byte("f"), []byte("q"), []byte("ok")))
	cells, err := cl.Get(ctx, "sasl_it", row)
	require.NoError(t, err)
	require.Len(t, cells, 1)
	require.Equal(t, []byte("ok"), cells[0].Value)
}
