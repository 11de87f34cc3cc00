package kerberos

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// A cluster with privacy but without HBase's AES (hbase.rpc.crypto.encryption.aes.enabled
// false: HBase's default) and a client with the default options (AES required): every call,
// to a region server or to the master, fails at once with a configuration error that says
// the server would downgrade, instead of retrying the handshake until its context ends. With
// AESPreferred the same client reads and writes.
func TestSecureAESRequiredAgainstServerWithoutAES(t *testing.T) {
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{Secure: true, Protection: hbasetest.ProtectionPrivacy})
	defer cl.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const table = "sec_noaes"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	newClient := func(opts ...hbase.Option) *hbase.Client {
		c, err := hbase.NewClient(cl.ZKQuorum, append([]hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent),
			WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c := newClient()
	refusedFast := func(what string, call func(context.Context) error) {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		start := time.Now()
		err := call(cctx)
		took := time.Since(start)
		if !errors.Is(err, hberr.ErrConfiguration) || !errors.Is(err, hberr.ErrDowngrade) || cctx.Err() != nil {
			t.Fatalf("%s with AES required against a server without AES: %v after %v; want hberr.ErrConfiguration and hberr.ErrDowngrade before the deadline", what, err, took.Round(time.Millisecond))
		}
		t.Logf("%s: refused in %v: %v", what, took.Round(time.Millisecond), err)
	}
	refusedFast("Get", func(ctx context.Context) error {
		get, err := hrpc.NewGet(table, []byte("r"))
		if err != nil {
			return err
		}
		_, err = c.Get(ctx, get)
		return err
	})
	refusedFast("Admin.ListTables", func(ctx context.Context) error {
		_, err := admin.New(c).ListTables(ctx)
		return err
	})

	pc := newClient(WithAES(AESPreferred))
	put, err := hrpc.NewPut(table, []byte("r"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.Put(ctx, put); err != nil {
		t.Fatalf("Put with AESPreferred: %v", err)
	}
	if _, err := admin.New(pc).ListTables(ctx); err != nil {
		t.Fatalf("Admin.ListTables with AESPreferred: %v", err)
	}
}
