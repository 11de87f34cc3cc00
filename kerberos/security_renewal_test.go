package kerberos

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/sasl"
)

// renewalTicketLifetime is the ticket lifetime in TestSecureTicketRenewal: short enough that
// the test outlives three tickets in under a minute, long enough that a ticket outlives
// several rounds of operations (one every 4 s) on a 2-core machine.
const renewalTicketLifetime = 15 * time.Second

// TestSecureTicketRenewal proves against a real KDC that long-lived keytab clients renew their
// tickets: the cluster's KDC issues 15 s tickets, and the clients keep working for three
// ticket lifetimes while every round forces new connections (an established HBase connection
// stays authenticated, so only a new SASL handshake needs a valid ticket). Two clients cover
// gokrb5's two ways: "renew" asks for renewable tickets (gokrb5's default RENEWABLE_OK) and
// renews its TGT at the KDC; "relogin" asks for none (kdc_default_options = 0) and logs in
// again from its keytab. A third client, whose KDC becomes unreachable
// after its first login, must fail with ErrKDCUnreachable once its ticket has expired, within
// its context. It needs GOHBASE_SECURE_CLUSTER=1:
//
//	GOHBASE_SECURE_CLUSTER=1 go test -race -run Renewal -v .
func TestSecureTicketRenewal(t *testing.T) {
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{
		Secure: true, Protection: hbasetest.ProtectionPrivacy, AES: true,
		TicketLifetime: renewalTicketLifetime,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// The table is made now: the cluster's own Java clients hold day-long tickets (see
	// Options.TicketLifetime) and need no new connection for it later.
	const table = "sec_renewal"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	conf, err := os.ReadFile(cl.KRB5Conf)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startKDCProxy(t, conf)
	downConf := writeKrb5Conf(t, "down.conf", kdcLine.ReplaceAll(conf, []byte("${1}"+proxy.addr())))

	newClient := func(krb5Conf string) (*hbase.Client, *sasl.Credentials) {
		c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent),
			WithKeytab(cl.ClientPrincipal, cl.Keytab, krb5Conf),
			WithProtection(ProtectionPrivacy))
		if err != nil {
			t.Fatalf("NewClient: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		return c, clientCredentials(t, c)
	}
	type renewing struct {
		name  string
		c     *hbase.Client
		creds *sasl.Credentials
		first sasl.TicketStats
	}
	var clients []*renewing
	reloginConf := writeKrb5Conf(t, "relogin.conf", bytes.Replace(conf, []byte("[libdefaults]"),
		[]byte("[libdefaults]\n    kdc_default_options = 0x00000000"), 1))
	for _, n := range []struct{ name, conf string }{{"renew", cl.KRB5Conf}, {"relogin", reloginConf}} {
		c, creds := newClient(n.conf)
		clients = append(clients, &renewing{name: n.name, c: c, creds: creds})
	}
	down, downCreds := newClient(downConf)

	start := time.Now()
	for _, r := range clients {
		renewalRound(ctx, t, r.c, table, r.name, 0)
		r.first = r.creds.TicketStats()
		t.Logf("%s after the first operation: %+v", r.name, r.first)
		if r.first.Logins != 1 || r.first.TGTEnd.IsZero() {
			t.Fatalf("%s: want one login with a TGT end time, have %+v", r.name, r.first)
		}
		// Without this the test would prove nothing: the KDC must really issue short tickets.
		if life := r.first.TGTEnd.Sub(start); life > renewalTicketLifetime+5*time.Second {
			t.Fatalf("%s: the KDC issued a TGT for %v, want at most %v", r.name, life, renewalTicketLifetime)
		}
	}
	renewalRound(ctx, t, down, table, "down", 0)
	proxy.stop() // the "down" client's KDC is gone from now on
	downEnd := downCreds.TicketStats().TGTEnd
	status, err := cl.Status(ctx)
	if err != nil || len(status.RegionServers) == 0 {
		t.Fatalf("cluster status: %v %+v", err, status)
	}
	rsAddr := status.RegionServers[0].Addr
	downChecked := false

	deadline := start.Add(3*renewalTicketLifetime + 5*time.Second)
	rounds := 1
	for ; time.Now().Before(deadline); rounds++ {
		select {
		case <-time.After(4 * time.Second):
		case <-ctx.Done():
			t.Fatalf("round %d: %v", rounds, ctx.Err())
		}
		for _, r := range clients {
			if engine.Of(r.c).CloseConnections() == 0 {
				t.Fatalf("%s round %d: the client had no connection to close", r.name, rounds)
			}
			renewalRound(ctx, t, r.c, table, r.name, rounds)
		}
		if !downChecked && time.Now().After(downEnd.Add(2*time.Second)) {
			downChecked = true
			checkKDCDown(ctx, t, down, downCreds, table, rsAddr)
		}
	}
	if !downChecked {
		t.Errorf("the down client's ticket (ending %v) did not expire during the test", downEnd)
	}

	for _, r := range clients {
		st := r.creds.TicketStats()
		t.Logf("%s after %d rounds in %v: %+v", r.name, rounds, time.Since(start).Round(time.Second), st)
		if st.RefreshErrors != 0 {
			t.Errorf("%s: %d failed TGT refreshes, last: %s", r.name, st.RefreshErrors, st.LastError)
		}
		// Three lifetimes need at least two refreshes of the first TGT, each in the
		// client's own way.
		refreshes, other := st.TGTRenewals, st.Logins-1
		if r.name == "relogin" {
			refreshes, other = other, refreshes
		}
		if refreshes < 2 || other != 0 {
			t.Errorf("%s: in %v of %v tickets the TGT was renewed %d times and logged in %d times: %+v",
				r.name, time.Since(start).Round(time.Second), renewalTicketLifetime, st.TGTRenewals, st.Logins, st)
		}
		if !st.TGTEnd.After(start.Add(3 * renewalTicketLifetime)) {
			t.Errorf("%s: newest TGT ends at %v, not after three lifetimes from the start (%v)", r.name, st.TGTEnd, start.Add(3*renewalTicketLifetime))
		}
		// The first service ticket expired with its TGT: later connections needed new ones.
		if st.ServiceTickets <= r.first.ServiceTickets {
			t.Errorf("%s: no new service ticket after the first one expired: %+v", r.name, st)
		}
	}
}

// checkKDCDown: a client whose ticket expired while its KDC was unreachable gets
// ErrKDCUnreachable on a new connection, within the caller's context.
func checkKDCDown(ctx context.Context, t *testing.T, c *hbase.Client, creds *sasl.Credentials, table, addr string) {
	t.Helper()
	if engine.Of(c).CloseConnections() == 0 {
		t.Fatal("down: the client had no connection to close")
	}
	const bound = 15 * time.Second
	// A new connection's handshake reports the unreachable KDC itself, within its context.
	dialCtx, dialCancel := context.WithTimeout(ctx, bound)
	defer dialCancel()
	began := time.Now()
	rc, err := region.Dial(dialCtx, addr, region.WithService("ClientService"), region.WithHandshaker(engine.Of(c).Config().Handshaker))
	took := time.Since(began)
	if err == nil {
		rc.Close()
	}
	t.Logf("down: new connection after the ticket expired: %v (after %v)", err, took.Round(time.Millisecond))
	if !errors.Is(err, hberr.ErrKDCUnreachable) {
		t.Errorf("down: handshake error %v, want hberr.ErrKDCUnreachable", err)
	}
	if took > bound+2*time.Second {
		t.Errorf("down: handshake took %v, beyond its %v context", took, bound)
	}

	opCtx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	get, err := hrpc.NewGet(table, []byte("down000"))
	if err != nil {
		t.Fatal(err)
	}
	began = time.Now()
	_, err = c.Get(opCtx, get)
	took = time.Since(began)
	st := creds.TicketStats()
	t.Logf("down: Get after the ticket expired: %v (after %v); %+v", err, took.Round(time.Millisecond), st)
	// The call waited for its region's background re-lookup, whose handshakes failed for want
	// of a KDC: the error must say so, not only that the context ended.
	if !errors.Is(err, hberr.ErrKDCUnreachable) {
		t.Errorf("down: Get after the ticket expired = %v, want hberr.ErrKDCUnreachable", err)
	}
	if took > bound+2*time.Second {
		t.Errorf("down: Get took %v, beyond its %v context", took, bound)
	}
	if st.RefreshErrors == 0 {
		t.Errorf("down: the background TGT refresh did not report the unreachable KDC: %+v", st)
	}
}

// renewalRound writes a row and reads it back, each on a connection that may be new.
func renewalRound(ctx context.Context, t *testing.T, c *hbase.Client, table, name string, round int) {
	t.Helper()
	row := []byte(fmt.Sprintf("%s%03d", name, round))
	val := []byte(fmt.Sprintf("value at %s", time.Now().Format(time.RFC3339Nano)))
	put, err := hrpc.NewPut(table, row, hrpc.Value([]byte("f"), []byte("q"), val))
	if err != nil {
		t.Fatal(err)
	}
	opCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := c.Put(opCtx, put); err != nil {
		t.Fatalf("%s round %d: Put: %v", name, round, err)
	}
	get, err := hrpc.NewGet(table, row)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(opCtx, get)
	if err != nil {
		t.Fatalf("%s round %d: Get: %v", name, round, err)
	}
	if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, val) {
		t.Fatalf("%s round %d: Get returned %d cells, want our value", name, round, len(res.Cells))
	}
}

// clientCredentials returns the credentials WithKerberosKeytab made for c.
func clientCredentials(t *testing.T, c *hbase.Client) *sasl.Credentials {
	t.Helper()
	s, ok := engine.Of(c).Config().Handshaker.(*security)
	if !ok || s.cfg.Credentials == nil {
		t.Fatal("client has no Kerberos credentials")
	}
	return s.cfg.Credentials
}

// kdcLine matches the "kdc = host:port" lines of a krb5.conf (not kdc_realm or kdc_tcp_port).
var kdcLine = regexp.MustCompile(`(kdc\s*=\s*)[^\s]+`)

func writeKrb5Conf(t *testing.T, name string, conf []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// kdcProxy forwards TCP connections to the real KDC until stopped: for a client pointed at
// it, stopping it is the KDC going down, while the cluster keeps its KDC.
type kdcProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

func startKDCProxy(t *testing.T, conf []byte) *kdcProxy {
	t.Helper()
	m := kdcLine.FindSubmatch(conf)
	if m == nil {
		t.Fatal("krb5.conf has no kdc = host:port line")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &kdcProxy{ln: ln, target: string(m[0][len(m[1]):]), conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.stop)
	return p
}

func (p *kdcProxy) addr() string { return p.ln.Addr().String() }

func (p *kdcProxy) serve() {
	defer p.wg.Done()
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = struct{}{}, struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(out, in)
		go p.pipe(in, out)
	}
}

func (p *kdcProxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// stop closes the listener and every forwarded connection; later dials are refused.
func (p *kdcProxy) stop() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
