package sasl

import (
	"bytes"
	"context"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
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
	opts := []Option{WithCredentials(creds), WithProtection(Privacy)}
	if spn != "" {
		opts = append(opts, WithServicePrincipal(spn))
	}
	h, err := NewHandshaker(opts...)
	if err != nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithTimeout(ctx, dialBound)
	defer cancel()
	start := time.Now()
	rc, err := region.Dial(dctx, addr, region.WithService("ClientService"), region.WithHandshaker(h))
	took := time.Since(start)
	if err == nil {
		rc.Close()
	}
	// A little slack for the goroutines to notice the context; far below a network timeout.
	if took >= dialBound+2*time.Second {
		t.Fatalf("the handshake outlived its context: took = %v; want less than %v", took, dialBound+2*time.Second)
	}
	return took, err
}

// ccacheWorks: a TGT from the real KDC, written to a credential cache by the launcher's kinit,
// authenticates a privacy+AES connection that reads and writes data.
func ccacheWorks(ctx context.Context, t *testing.T, cl *hbasetest.Cluster, rg hbasetest.Region) {
	path := filepath.Join(t.TempDir(), "krb5cc_client")
	tkt, err := cl.Kinit(ctx, path, hbasetest.KinitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kinit: %s until %v (renewable until %v)", tkt.Principal, tkt.End, tkt.RenewTill)
	if tkt.Principal != cl.ClientPrincipal {
		t.Fatalf("tkt.Principal = %q; want %q", tkt.Principal, cl.ClientPrincipal)
	}
	if d := tkt.End.Sub(time.Now().Add(24 * time.Hour)); d < -(10*time.Minute) || d > 10*time.Minute {
		t.Fatalf("default lifetime is a day: tkt.End = %v; want within %v of %v", tkt.End, 10*time.Minute, time.Now().Add(24*time.Hour))
	}

	creds, err := CCacheCredentials(path, cl.KRB5Conf)
	if err != nil {
		t.Fatal(err)
	}
	defer creds.Close()
	if creds.Principal() != cl.ClientPrincipal {
		t.Fatalf("creds.Principal() = %q; want %q", creds.Principal(), cl.ClientPrincipal)
	}
	h, err := NewHandshaker(WithCredentials(creds), WithProtection(Privacy))
	if err != nil {
		t.Fatal(err)
	}
	var layerKind string
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rc, err := region.Dial(dctx, rg.Addr, region.WithService("ClientService"), region.WithHandshaker(&layerProbe{h: h, kind: &layerKind}))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if layerKind != "aes" {
		t.Fatalf("layerKind = %q; want %q", layerKind, "aes")
	}

	row := []byte(fmt.Sprintf("ccache-%d", time.Now().UnixNano()))
	val := []byte("written with a credential cache")
	put, err := hrpc.NewPut("sasl_it", row, hrpc.Value([]byte("f"), []byte("q"), val))
	if err != nil {
		t.Fatal(err)
	}
	callRegion(t, dctx, rc, rg.Name, "Mutate", hrpcwire.Mutation(put))
	if !bytes.Equal(getValue(t, dctx, rc, "sasl_it", rg.Name, row), val) {
		t.Fatalf("getValue(t, dctx, rc, \"sasl_it\", rg.Name, row) = %q; want %q", getValue(t, dctx, rc, "sasl_it", rg.Name, row), val)
	}
	cells, err := cl.Get(dctx, "sasl_it", row)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 {
		t.Fatalf("len(cells) = %d; want %d", len(cells), 1)
	}
	if !bytes.Equal(cells[0].Value, val) {
		t.Fatalf("Java reads what the ccache client wrote: cells[0].Value = %q; want %q", cells[0].Value, val)
	}
}

// ccacheExpires: credential-cache credentials cannot log in again, so once the cached TGT has
// ended, a connection that needs a new service ticket fails with hberr.ErrTicketExpired, within its
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
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: TGT until %v, renewable until %v", c.name, tkt.End, tkt.RenewTill)
		// Without a short ticket this case would prove nothing.
		if d := tkt.End.Sub(start.Add(lifetime)); d < -(3*time.Second) || d > 3*time.Second {
			t.Fatalf("%s: TGT lifetime: tkt.End = %v; want within %v of %v", c.name, tkt.End, 3*time.Second, start.Add(lifetime))
		}
		if c.opts.NotRenewable {
			if tkt.RenewTill.After(tkt.End) {
				t.Fatalf("%s: renewable until %v", c.name, tkt.RenewTill)
			}
		} else {
			if !tkt.RenewTill.After(tkt.End.Add(30 * time.Minute)) {
				t.Fatalf("%s: renewable until %v", c.name, tkt.RenewTill)
			}
		}
		last = tkt.End
		c.creds, err = CCacheCredentials(c.path, cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		defer c.creds.Close()
		_, err = dialWith(ctx, t, c.creds, addr, "")
		if err != nil {
			t.Fatalf("%s: the fresh credential cache must work: %v", c.name, err)
		}
		refresh := tkt.End.Add(-lifetime / 6)
		if !time.Now().Before(refresh) {
			t.Fatalf("%s: the first handshake ended after gokrb5's refresh point %v; the machine is too slow for a %v ticket", c.name, refresh, lifetime)
		}
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
			requireOnlySentinel(t, err, hberr.ErrTicketExpired)
			if err == nil || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("error %v; want one containing %q", err, c.reason)
			}
			if err == nil || !strings.Contains(err.Error(), "run kinit again") {
				t.Fatalf("error %v; want one containing %q", err, "run kinit again")
			}
			if err == nil || !strings.Contains(err.Error(), c.path) {
				t.Fatalf("error %v; want one containing %q", err, c.path)
			}

			fresh, err := CCacheCredentials(c.path, cl.KRB5Conf)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			took, err = dialWith(ctx, t, fresh, addr, "")
			t.Logf("new credentials from the expired cache (%v): %v", took.Round(time.Millisecond), err)
			requireOnlySentinel(t, err, hberr.ErrTicketExpired)
			if err == nil || !strings.Contains(err.Error(), "no valid existing session") {
				t.Fatalf("error %v; want one containing %q", err, "no valid existing session")
			}
			if err == nil || !strings.Contains(err.Error(), "run kinit again") {
				t.Fatalf("error %v; want one containing %q", err, "run kinit again")
			}
		})
	}
}

// kdcClockSkew: a client whose clock is outside the KDC's window gets hberr.ErrClockSkew from the
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
	if err != nil {
		t.Fatal(err)
	}
	defer creds.Close()
	if err := creds.cl.AffirmLogin(); err != nil {
		t.Fatalf("login while the KDC accepts our clock: %v", err)
	}

	restore := func() {
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := cl.SetKDCClockSkew(rctx, hbasetest.DefaultKDCClockSkew); err != nil {
			t.Errorf("restoring the KDC's clock skew: %v", err)
		}
	}
	prev, err := cl.SetKDCClockSkew(ctx, -time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(restore)
	if prev != hbasetest.DefaultKDCClockSkew {
		t.Fatalf("prev = %v; want %v", prev, hbasetest.DefaultKDCClockSkew)
	}
	now, err := cl.KDCClockSkew(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if now != -time.Second {
		t.Fatalf("now = %v; want %v", now, -time.Second)
	}

	took, err := dialWith(ctx, t, creds, addr, "")
	t.Logf("service ticket outside the KDC's clock window (%v): %v", took.Round(time.Millisecond), err)
	requireOnlySentinel(t, err, hberr.ErrClockSkew)
	if err == nil || !strings.Contains(err.Error(), "KRB_AP_ERR_SKEW") {
		t.Fatalf("error %v; want one containing %q", err, "KRB_AP_ERR_SKEW")
	}

	fresh, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	took, err = dialWith(ctx, t, fresh, addr, "")
	t.Logf("AS login outside the KDC's clock window (%v): %v", took.Round(time.Millisecond), err)
	if err == nil {
		t.Fatal("err is nil; want an error")
	}
	if err == nil || !strings.Contains(err.Error(), "KDC_ERR_PREAUTH_FAILED") {
		t.Fatalf("Kerby's answer to a skewed pre-authentication changed; map it: error %v; want one containing %q", err, "KDC_ERR_PREAUTH_FAILED")
	}
	requireOnlySentinel(t, err, hberr.ErrBadCredentials)
	if err == nil || !strings.Contains(err.Error(), "a client clock too far from the KDC's") {
		t.Fatalf("the error must mention the clock: error %v; want one containing %q", err, "a client clock too far from the KDC's")
	}

	restore()
	now, err = cl.KDCClockSkew(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if now != hbasetest.DefaultKDCClockSkew {
		t.Fatalf("now = %v; want %v", now, hbasetest.DefaultKDCClockSkew)
	}

	// The window is open again: the same credentials, a fresh login and the cluster's Java
	// client work.
	_, err = dialWith(ctx, t, creds, addr, "")
	if err != nil {
		t.Fatalf("the logged-in client after the KDC's window reopened: %v", err)
	}
	again, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	_, err = dialWith(ctx, t, again, addr, "")
	if err != nil {
		t.Fatalf("a fresh login after the KDC's window reopened: %v", err)
	}
	row := []byte("skew-restored")
	if err := cl.Put(ctx, "sasl_it", row, []byte("f"), []byte("q"), []byte("ok")); err != nil {
		t.Fatal(err)
	}
	cells, err := cl.Get(ctx, "sasl_it", row)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 {
		t.Fatalf("len(cells) = %d; want %d", len(cells), 1)
	}
	if !bytes.Equal(cells[0].Value, []byte("ok")) {
		t.Fatalf("cells[0].Value = %q; want %q", cells[0].Value, []byte("ok"))
	}
}
