package kerberos

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"go.uber.org/goleak"
)

// These tests run every data operation through the root client over Kerberos connections,
// one real secure cluster per server setting, started one after another (never beside another
// cluster of this process: the shared plain cluster is not used here). They need
// GOHBASE_SECURE_CLUSTER=1, e.g.
//
//	GOHBASE_SECURE_CLUSTER=1 go test -run TestSecureIntegration -v .
func TestSecureIntegration(t *testing.T) {
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	for _, c := range []struct {
		name    string
		cluster hbasetest.Options
		clients map[string][]hbase.Option
	}{
		{"privacy-aes", hbasetest.Options{Secure: true, Protection: "privacy", AES: true, ProxyUsers: []string{"alice"}}, map[string][]hbase.Option{
			"aes": {WithProtection(ProtectionPrivacy)},
			"gss": {WithProtection(ProtectionPrivacy), WithAES(AESOff)},
		}},
		{"integrity", hbasetest.Options{Secure: true, Protection: "integrity"}, map[string][]hbase.Option{
			"integrity": {WithProtection(ProtectionIntegrity)},
		}},
		{"authentication", hbasetest.Options{Secure: true, Protection: "authentication"}, map[string][]hbase.Option{
			"authentication": {WithProtection(ProtectionAuthentication)},
		}},
		// Native TLS with Kerberos inside: Kerberos proves who the client is, TLS encrypts
		// (the cluster's certificates are added below).
		{"tls-authentication", hbasetest.Options{Secure: true, Protection: "authentication", TLS: true}, map[string][]hbase.Option{
			"tls": {WithProtection(ProtectionAuthentication)},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := hbasetest.StartT(t, c.cluster)
			defer cl.Stop()
			for name, opts := range c.clients {
				t.Run(name, func(t *testing.T) {
					opts = append([]hbase.Option{
						hbase.WithZNodeParent(cl.ZNodeParent),
						WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf),
					}, opts...)
					if cl.TLS != nil {
						cfg, err := cl.TLS.TLSConfig()
						if err != nil {
							t.Fatal(err)
						}
						opts = append(opts, hbase.WithTLS(cfg))
						if !cl.AtLeast(2, 6) {
							tlsBefore26(t, cl, opts)
							return
						}
					}
					ignore := goleak.IgnoreCurrent()
					client, err := hbase.NewClient(cl.ZKQuorum, opts...)
					if err != nil {
						t.Fatalf("NewClient: %v", err)
					}
					defer client.Close()
					secureDataOps(t, cl, client, "sec_"+c.name+"_"+name)
					// Close must also stop the ticket renewal of the keytab login the option made.
					client.Close()
					goleak.VerifyNone(t, ignore)
				})
			}
			if c.name == "privacy-aes" {
				secureCCache(t, cl)
				t.Run("site-config", func(t *testing.T) { secureSiteConfig(t, cl) })
				t.Run("proxy-user", func(t *testing.T) { secureProxyUser(t, cl) })
				t.Run("bootstrap-registry", func(t *testing.T) {
					// The connection registry over Kerberos privacy with AES, no ZooKeeper.
					c, err := hbase.NewClient("", hbase.WithBootstrapServers(cl.MasterAddr),
						WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf))
					if err != nil {
						t.Fatal(err)
					}
					defer c.Close()
					siteRoundTrip(t, c, "sec_privacy-aes_aes")
				})
			}
		})
	}
}

// secureCCache runs WithKerberosCCache against the real KDC: a credential cache written by
// the launcher's kinit serves every data operation, and one whose TGT has ended fails the
// client's calls with hberr.ErrTicketExpired, within their context, saying to kinit again.
func secureCCache(t *testing.T, cl *hbasetest.Cluster) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	// The short ticket is made first, so that its lifetime passes while the long one is used.
	const shortLife = 10 * time.Second
	short := filepath.Join(dir, "krb5cc_short")
	st, err := cl.Kinit(ctx, short, hbasetest.KinitOptions{Lifetime: shortLife, NotRenewable: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.End.After(time.Now().Add(shortLife + 2*time.Second)) {
		t.Fatalf("kinit asked for a %v TGT and got one until %v", shortLife, st.End)
	}
	long := filepath.Join(dir, "krb5cc_long")
	if _, err := cl.Kinit(ctx, long, hbasetest.KinitOptions{}); err != nil {
		t.Fatal(err)
	}
	newClient := func(t *testing.T, ccache string) *hbase.Client {
		t.Helper()
		c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent),
			WithCCache(ccache, cl.KRB5Conf), WithProtection(ProtectionPrivacy))
		if err != nil {
			t.Fatalf("NewClient: %v", err)
		}
		return c
	}
	t.Run("ccache", func(t *testing.T) {
		ignore := goleak.IgnoreCurrent()
		c := newClient(t, long)
		defer c.Close()
		secureDataOps(t, cl, c, "sec_ccache")
		c.Close()
		goleak.VerifyNone(t, ignore)
	})
	t.Run("ccache-expired", func(t *testing.T) {
		select {
		case <-time.After(time.Until(st.End.Add(time.Second))):
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
		c := newClient(t, short)
		defer c.Close()
		const bound = 15 * time.Second
		opCtx, opCancel := context.WithTimeout(ctx, bound)
		defer opCancel()
		get, err := hrpc.NewGet("sec_ccache", []byte("row0"))
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		_, err = c.Get(opCtx, get)
		took := time.Since(began)
		t.Logf("Get with an expired credential cache (after %v): %v", took.Round(time.Millisecond), err)
		if !errors.Is(err, hberr.ErrTicketExpired) {
			t.Fatalf("Get = %v, want hberr.ErrTicketExpired", err)
		}
		for _, other := range []error{hberr.ErrKDCUnreachable, hberr.ErrPrincipalUnknown, hberr.ErrBadCredentials, hberr.ErrClockSkew, hberr.ErrKerberos} {
			if errors.Is(err, other) {
				t.Errorf("Get = %v, which is also %v", err, other)
			}
		}
		if !strings.Contains(err.Error(), "run kinit again") {
			t.Errorf("the error does not say what to do: %v", err)
		}
		if took > bound+2*time.Second {
			t.Errorf("Get took %v, beyond its %v context", took, bound)
		}
	})
}

func secureDataOps(t *testing.T, cl *hbasetest.Cluster, c *hbase.Client, table string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(cl.CreateTable(ctx, table, []string{"f"}, [][]byte{[]byte("m")}))
	tb, f := table, []byte("f")

	// Put by us (values below and above one 64 KiB wrap), read by Java and by us.
	for i, size := range []int{1, 1000, 300 << 10} {
		row := []byte(fmt.Sprintf("row%d", i))
		val := bytes.Repeat([]byte{byte('A' + i)}, size)
		put, err := hrpc.NewPut(tb, row, hrpc.Value(f, []byte("q"), val))
		must(err)
		_, err = c.Put(ctx, put)
		must(err)
		cells, err := cl.Get(ctx, table, row)
		must(err)
		if len(cells) != 1 || !bytes.Equal(cells[0].Value, val) {
			t.Fatalf("Java read %d cells for %s", len(cells), row)
		}
		get, err := hrpc.NewGet(tb, row)
		must(err)
		res, err := c.Get(ctx, get)
		must(err)
		if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, val) {
			t.Fatalf("Get %s: %d cells", row, len(res.Cells))
		}
	}
	// Put by Java, read by us.
	must(cl.Put(ctx, table, []byte("zjava"), f, []byte("q"), []byte("from java")))
	get, err := hrpc.NewGet(tb, []byte("zjava"))
	must(err)
	res, err := c.Get(ctx, get)
	must(err)
	if len(res.Cells) != 1 || string(res.Cells[0].Value) != "from java" {
		t.Fatalf("Get of Java's row: %+v", res.Cells)
	}

	// Append, Increment (checked by Java too), CheckAndMutate, MutateRow, Delete.
	app, err := hrpc.NewAppend(tb, []byte("row0"), hrpc.Value(f, []byte("q"), []byte("+")))
	must(err)
	_, err = c.Append(ctx, app)
	must(err)
	inc, err := hrpc.NewIncrement(tb, []byte("counter"), hrpc.Amount(f, []byte("n"), 5))
	must(err)
	_, err = c.Increment(ctx, inc)
	must(err)
	n, err := cl.Increment(ctx, table, []byte("counter"), f, []byte("n"), 1)
	must(err)
	if n != 6 {
		t.Fatalf("counter = %d, want 6", n)
	}
	put, err := hrpc.NewPut(tb, []byte("cam"), hrpc.Value(f, []byte("q"), []byte("v2")))
	must(err)
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfValue(f, []byte("q"), hrpc.Equal, nil), put)
	must(err)
	ok, err := c.CheckAndMutate(ctx, cam)
	must(err)
	if !ok {
		t.Fatal("CheckAndMutate on a missing column did not apply")
	}
	p1, err := hrpc.NewPut(tb, []byte("rm"), hrpc.Value(f, []byte("a"), []byte("1")))
	must(err)
	p2, err := hrpc.NewPut(tb, []byte("rm"), hrpc.Value(f, []byte("b"), []byte("2")))
	must(err)
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{p1, p2})
	must(err)
	must(c.MutateRow(ctx, rm))
	del, err := hrpc.NewDelete(tb, []byte("row1"))
	must(err)
	_, err = c.Delete(ctx, del)
	must(err)
	if cells, err := cl.Get(ctx, table, []byte("row1")); err != nil || len(cells) != 0 {
		t.Fatalf("Java still sees deleted row1: %v %v", cells, err)
	}

	// Batch across both regions.
	var calls []hrpc.Batchable
	for _, r := range []string{"a1", "n1", "z1"} {
		p, err := hrpc.NewPut(tb, []byte(r), hrpc.Value(f, []byte("q"), []byte(r)))
		must(err)
		calls = append(calls, p)
	}
	for i, br := range c.SendBatch(ctx, calls) {
		if br.Err != nil {
			t.Fatalf("batch %d: %v", i, br.Err)
		}
	}

	// Scan everything and compare with Java's scan.
	scan, err := hrpc.NewScan(tb)
	must(err)
	var ours int
	for r, err := range c.Scan(ctx, scan) {
		must(err)
		ours += len(r.Cells)
	}
	theirs, err := cl.Scan(ctx, table)
	must(err)
	if ours != len(theirs) || ours == 0 {
		t.Fatalf("scan: we saw %d cells, Java %d", ours, len(theirs))
	}
}

// tlsBefore26: servers before 2.6 ignore the TLS settings, so a TLS client must fail at once
// with an error naming the version TLS needs.
func tlsBefore26(t *testing.T, cl *hbasetest.Cluster, opts []hbase.Option) {
	c, err := hbase.NewClient(cl.ZKQuorum, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = c.Get(ctx, mustGet(t, "any", []byte("row")))
	if !errors.Is(err, hberr.ErrConfiguration) || !strings.Contains(err.Error(), "HBase 2.6 or later") {
		t.Fatalf("HBase %s: err = %v; want a configuration error naming HBase 2.6", cl.Version(), err)
	}
}
